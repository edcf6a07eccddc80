#ifndef KAHVE_SERVICES_COMMON_STATUS_H_
#define KAHVE_SERVICES_COMMON_STATUS_H_

// absl::Status <-> grpc::Status (the codes are the same numbers), and the code names used in the
// grpc_server_handled_total metric.

#include <string>

#include "absl/status/status.h"
#include "google/protobuf/message.h"
#include "grpcpp/support/status.h"

namespace kahve::common {

// The payload that marks a status made at the database edge (pg_pool, the event log's writer):
// its message holds the server's words (SQL, other callers' values) and never reaches a client.
inline constexpr char kDatabasePayload[] = "kahve/database";
absl::Status FromDatabase(absl::Status status);

// `status` carrying `detail` for the client to act on (the ticket it already has, the table's
// seq): ToGrpcStatus sends the details in gRPC's rich error model, an RpcStatus (google.rpc.Status
// on the wire) in the grpc-status-details-bin trailer, each detail an Any of its kahve.v1 type.
// A status may carry one detail of each type. An OK status stays OK and carries nothing.
absl::Status WithDetail(absl::Status status, const google::protobuf::Message& detail);

// The status a client receives, with its details (WithDetail). Faults of ours (INTERNAL, UNKNOWN,
// DATA_LOSS) and every status made at the database edge are logged with their details and
// answered with a generic message for their code and no details: what went wrong inside is the
// operator's to read, never a caller's.
grpc::Status ToGrpcStatus(const absl::Status& status);
absl::Status FromGrpcStatus(const grpc::Status& status);

// "OK", "InvalidArgument", ... as go-grpc-prometheus labels them.
std::string GrpcCodeName(grpc::StatusCode code);

}  // namespace kahve::common

#endif  // KAHVE_SERVICES_COMMON_STATUS_H_

#ifndef KAHVE_SERVICES_COMMON_STATUS_H_
#define KAHVE_SERVICES_COMMON_STATUS_H_

// absl::Status <-> grpc::Status (the codes are the same numbers), and the code names used in the
// grpc_server_handled_total metric.

#include <string>

#include "absl/status/status.h"
#include "grpcpp/support/status.h"

namespace kahve::common {

grpc::Status ToGrpcStatus(const absl::Status& status);
absl::Status FromGrpcStatus(const grpc::Status& status);

// "OK", "InvalidArgument", ... as go-grpc-prometheus labels them.
std::string GrpcCodeName(grpc::StatusCode code);

}  // namespace kahve::common

#endif  // KAHVE_SERVICES_COMMON_STATUS_H_

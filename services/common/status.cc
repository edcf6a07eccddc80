#include "services/common/status.h"

#include <string>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "kahve/v1/table.pb.h"
#include "services/common/logging.h"

namespace kahve::common {

namespace {

// What a client reads in place of an inside fault's own message.
const char* GenericMessage(absl::StatusCode code) {
  switch (code) {
    case absl::StatusCode::kUnavailable:
      return "temporarily unavailable; retry with backoff";
    case absl::StatusCode::kAborted:
      return "a concurrent change got in the way; retry";
    case absl::StatusCode::kResourceExhausted:
      return "the server is overloaded; retry with backoff";
    case absl::StatusCode::kDeadlineExceeded:
      return "the deadline passed";
    default:
      return "internal error; the server's log has the details";
  }
}

// Details travel as payloads keyed by their Any type URL; no other payload has this prefix.
constexpr char kDetailPrefix[] = "type.googleapis.com/kahve.v1.";

bool IsInsideFault(const absl::Status& status) {
  return status.code() == absl::StatusCode::kInternal ||
         status.code() == absl::StatusCode::kUnknown ||
         status.code() == absl::StatusCode::kDataLoss ||
         status.GetPayload(kDatabasePayload).has_value();
}

}  // namespace

absl::Status FromDatabase(absl::Status status) {
  if (!status.ok()) status.SetPayload(kDatabasePayload, absl::Cord("1"));
  return status;
}

absl::Status WithDetail(absl::Status status, const google::protobuf::Message& detail) {
  if (!status.ok()) {
    status.SetPayload(absl::StrCat("type.googleapis.com/", detail.GetTypeName()),
                      absl::Cord(detail.SerializeAsString()));
  }
  return status;
}

grpc::Status ToGrpcStatus(const absl::Status& status) {
  if (status.ok()) return grpc::Status::OK;
  const auto code = static_cast<grpc::StatusCode>(status.code());
  if (IsInsideFault(status)) {
    LogError("call failed inside",
             {{"code", absl::StatusCodeToString(status.code())},
              {"error", std::string(status.message())}});
    return grpc::Status(code, GenericMessage(status.code()));
  }
  v1::RpcStatus rich;
  status.ForEachPayload([&rich](absl::string_view type_url, const absl::Cord& value) {
    if (!absl::StartsWith(type_url, kDetailPrefix)) return;
    google::protobuf::Any* any = rich.add_details();
    any->set_type_url(std::string(type_url));
    any->set_value(std::string(value));
  });
  if (rich.details().empty()) return grpc::Status(code, std::string(status.message()));
  rich.set_code(static_cast<int32_t>(code));
  rich.set_message(std::string(status.message()));
  return grpc::Status(code, std::string(status.message()), rich.SerializeAsString());
}

absl::Status FromGrpcStatus(const grpc::Status& status) {
  if (status.ok()) return absl::OkStatus();
  return absl::Status(static_cast<absl::StatusCode>(status.error_code()), status.error_message());
}

std::string GrpcCodeName(grpc::StatusCode code) {
  switch (code) {
    case grpc::StatusCode::OK:
      return "OK";
    case grpc::StatusCode::CANCELLED:
      return "Canceled";
    case grpc::StatusCode::UNKNOWN:
      return "Unknown";
    case grpc::StatusCode::INVALID_ARGUMENT:
      return "InvalidArgument";
    case grpc::StatusCode::DEADLINE_EXCEEDED:
      return "DeadlineExceeded";
    case grpc::StatusCode::NOT_FOUND:
      return "NotFound";
    case grpc::StatusCode::ALREADY_EXISTS:
      return "AlreadyExists";
    case grpc::StatusCode::PERMISSION_DENIED:
      return "PermissionDenied";
    case grpc::StatusCode::RESOURCE_EXHAUSTED:
      return "ResourceExhausted";
    case grpc::StatusCode::FAILED_PRECONDITION:
      return "FailedPrecondition";
    case grpc::StatusCode::ABORTED:
      return "Aborted";
    case grpc::StatusCode::OUT_OF_RANGE:
      return "OutOfRange";
    case grpc::StatusCode::UNIMPLEMENTED:
      return "Unimplemented";
    case grpc::StatusCode::INTERNAL:
      return "Internal";
    case grpc::StatusCode::UNAVAILABLE:
      return "Unavailable";
    case grpc::StatusCode::DATA_LOSS:
      return "DataLoss";
    case grpc::StatusCode::UNAUTHENTICATED:
      return "Unauthenticated";
    default:
      return "Unknown";
  }
}

}  // namespace kahve::common

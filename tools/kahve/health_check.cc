#include "tools/kahve/health_check.h"

#include "grpcpp/impl/codegen/client_unary_call.h"
#include "grpcpp/impl/codegen/proto_utils.h"
#include "grpcpp/impl/codegen/rpc_method.h"
#include "health/grpc_health.pb.h"

namespace kahve::tools {

absl::StatusOr<std::string> CheckHealth(const std::shared_ptr<grpc::Channel>& channel,
                                        const std::string& service, absl::Duration deadline) {
  const grpc::internal::RpcMethod method("/grpc.health.v1.Health/Check",
                                         grpc::internal::RpcMethod::NORMAL_RPC, channel);
  grpc::ClientContext context;
  context.set_deadline(absl::ToChronoTime(absl::Now() + deadline));
  health::HealthCheckRequest request;
  request.set_service(service);
  health::HealthCheckResponse response;
  const grpc::Status status =
      grpc::internal::BlockingUnaryCall<health::HealthCheckRequest, health::HealthCheckResponse>(
          channel.get(), method, &context, request, &response);
  if (!status.ok()) {
    return absl::Status(static_cast<absl::StatusCode>(status.error_code()), status.error_message());
  }
  return health::HealthCheckResponse::ServingStatus_Name(response.status());
}

}  // namespace kahve::tools

#ifndef KAHVE_TESTS_SERVICES_SERVICE_TESTING_H_
#define KAHVE_TESTS_SERVICES_SERVICE_TESTING_H_

// Helpers for tests that talk to real servers over real gRPC (and /metrics over HTTP).

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "grpcpp/grpcpp.h"
#include "kahve/v1/table.pb.h"
#include "prometheus/registry.h"
#include "services/common/auth.h"

namespace kahve::testing {

// The HS256 secret test servers are configured with.
inline constexpr char kTestSecret[] = "kahve-test-secret-0123456789abcdef";

std::unique_ptr<common::Authenticator> TestAuthenticator();
// "Bearer <JWT>" for `player` with `role` (empty: a player), signed with kTestSecret.
std::string Bearer(const std::string& player, const std::string& role = "");
// A client context carrying that token and a 10 s deadline.
std::unique_ptr<grpc::ClientContext> ContextFor(const std::string& player,
                                                const std::string& role = "");

std::shared_ptr<grpc::Channel> LocalChannel(int port);

// grpc.health.v1 Check of `service` ("" the server as a whole): "SERVING", "NOT_SERVING", ... or
// the gRPC error.
absl::StatusOr<std::string> HealthStatus(int port, const std::string& service);
// The services server reflection (v1alpha) lists.
absl::StatusOr<std::vector<std::string>> ReflectedServices(int port);

// The sum of the series of `family` in `registry` carrying every label of `labels` (a histogram's
// series count their samples); 0 when none does.
double MetricSum(prometheus::Registry& registry, const std::string& family,
                 const std::map<std::string, std::string>& labels = {});

// The body of GET http://127.0.0.1:port/path.
absl::StatusOr<std::string> HttpGet(int port, const std::string& path);
// Runs `promtool check metrics` on the text; OK or the problems promtool reports.
absl::Status PromtoolCheck(const std::string& metrics_text);

// The detail of type `Detail` a refusal carries in the rich error model, decoded as a client
// would: grpc-status-details-bin holds an RpcStatus (google.rpc.Status) repeating the call's code
// and message, each detail an Any. nullopt when there is none of that type or the trailer does
// not repeat the code and message.
template <typename Detail>
std::optional<Detail> DetailOf(const grpc::Status& status) {
  v1::RpcStatus rich;
  if (status.error_details().empty() || !rich.ParseFromString(status.error_details()) ||
      rich.code() != status.error_code() || rich.message() != status.error_message()) {
    return std::nullopt;
  }
  for (const google::protobuf::Any& any : rich.details()) {
    Detail detail;
    if (any.Is<Detail>() && any.UnpackTo(&detail)) return detail;
  }
  return std::nullopt;
}

}  // namespace kahve::testing

#endif  // KAHVE_TESTS_SERVICES_SERVICE_TESTING_H_

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

// A refusal's details as a client decodes them from gRPC's rich error model: the
// grpc-status-details-bin trailer (grpc::Status::error_details) holds a kahve.v1.RpcStatus
// (google.rpc.Status field for field). Empty when the status carries no details; the problem
// when the trailer does not parse or contradicts the status's own code or message.
absl::StatusOr<v1::RpcStatus> RichStatusOf(const grpc::Status& status);

// The detail of type T (an Any with type URL "type.googleapis.com/kahve.v1.<T>") that `status`
// carries: NotFound when it carries none, or the problem RichStatusOf names.
template <typename T>
absl::StatusOr<T> DetailOf(const grpc::Status& status) {
  absl::StatusOr<v1::RpcStatus> rich = RichStatusOf(status);
  if (!rich.ok()) return rich.status();
  const std::string type_url = "type.googleapis.com/" + T::descriptor()->full_name();
  for (const google::protobuf::Any& any : rich->details()) {
    if (any.type_url() != type_url) continue;
    T detail;
    if (!any.UnpackTo(&detail)) return absl::DataLossError(type_url + ": does not parse");
    return detail;
  }
  return absl::NotFoundError("no " + type_url + " among the status's details");
}

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

}  // namespace kahve::testing

#endif  // KAHVE_TESTS_SERVICES_SERVICE_TESTING_H_

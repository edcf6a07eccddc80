#ifndef KAHVE_SERVICES_COMMON_SERVER_H_
#define KAHVE_SERVICES_COMMON_SERVER_H_

// The gRPC server every service runs: its services, grpc.health.v1, server reflection (v1alpha, as
// gRPC 1.51 serves it), the gRPC metrics interceptor; and the one shutdown sequence: health
// NOT_SERVING, wait the drain period, stop accepting and let in-flight calls finish until the
// deadline, then return so main can flush and release what it owns, in reverse order of creation.

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "grpcpp/grpcpp.h"
#include "services/common/auth.h"
#include "services/common/connection_gate.h"
#include "services/common/memory_trim.h"
#include "services/common/metrics.h"

namespace kahve::common {

struct ServerSettings {
  std::string host = "0.0.0.0";
  int port = 0;  // 0: a free port
  std::string metrics_host = "0.0.0.0";
  int metrics_port = 0;  // 0: a free port; -1: no /metrics
  absl::Duration drain_period = absl::Seconds(5);
  absl::Duration shutdown_deadline = absl::Seconds(10);
  // Connection caps (connection_gate.h) and lifetimes: a connection with no call for
  // `idle_timeout` is closed; every connection is closed (GOAWAY) after `max_connection_age`
  // (nullopt: the service's default, an hour unless it sets one; infinite: never), and its calls
  // still open get `max_connection_age_grace` more, then end (streams resume by after_seq). So
  // clients that balance over DNS addresses also reach replicas added since.
  ConnectionCaps connection_caps;
  absl::Duration idle_timeout = absl::Minutes(5);
  std::optional<absl::Duration> max_connection_age;
  absl::Duration max_connection_age_grace = absl::Minutes(5);
};

// From --host, --port, --metrics_port, --drain_seconds, --shutdown_deadline_seconds, the
// connection caps and lifetimes; a port flag left at -1 takes the service's default.
ServerSettings ServerSettingsFromFlags(int default_port, int default_metrics_port);

class GrpcServer {
 public:
  GrpcServer(ServerSettings settings, Metrics* metrics);
  ~GrpcServer();

  // Before Start. The services must outlive the server. `name` is the full service name
  // ("kahve.v1.RatingService"), which health checks report on.
  void AddService(grpc::Service* service, const std::string& name);
  // Listens, reports every service SERVING; Internal when the port is taken.
  absl::Status Start();
  int port() const { return port_; }
  // The shutdown sequence (see above). `before_stop` (may be empty) runs after the drain period,
  // before new calls are refused: a service ends its long-lived streams there, so in-flight calls
  // can finish before the deadline. Safe to call more than once.
  void Shutdown(const std::function<void()>& before_stop = nullptr);

 private:
  ServerSettings settings_;
  Metrics* metrics_;
  std::vector<grpc::Service*> services_;
  std::vector<std::string> service_names_;
  std::unique_ptr<ConnectionGate> gate_;
  std::unique_ptr<grpc::Server> server_;
  std::unique_ptr<FreedMemoryTrimmer> trimmer_;
  int port_ = 0;
  bool shut_down_ = false;
};

// Call first thing in main, before any thread starts, so SIGTERM / SIGINT reach only the waiter.
void BlockTerminationSignals();
// Turns absl's lock-cycle detection off (see server.cc). Before the services start.
void StopCheckingLockCycles();
// The start of every service's main: BlockTerminationSignals, ParseFlags, StopCheckingLockCycles.
void StartServiceProcess(int argc, char** argv);
// Logs that `service` cannot start, and why; returns main's exit code (1).
int CannotStart(std::string_view service, const absl::Status& status);
// Returns when SIGTERM or SIGINT arrives.
void WaitForTerminationSignal();

// The caller's identity from its `authorization` metadata; Unauthenticated when absent or bad.
absl::StatusOr<Identity> AuthenticateCall(const Authenticator& authenticator,
                                          const grpc::CallbackServerContext& context);

}  // namespace kahve::common

#endif  // KAHVE_SERVICES_COMMON_SERVER_H_

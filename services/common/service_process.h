#ifndef KAHVE_SERVICES_COMMON_SERVICE_PROCESS_H_
#define KAHVE_SERVICES_COMMON_SERVICE_PROCESS_H_

// One service as a unit a process can run: started from its flags, stopped by its shutdown
// sequence. Each service binary's main runs one (RunServiceMain); `kahve serve --all` runs all
// three in one process.

#include <memory>
#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "grpcpp/grpcpp.h"
#include "services/common/server.h"

namespace kahve::common {

class ServiceProcess {
 public:
  virtual ~ServiceProcess() = default;
  // The gRPC port it listens on.
  virtual int port() const = 0;
  // The shutdown sequence: the server's (see server.h) plus the service's own background work.
  // What it owns is released by the destructor, in reverse order of creation.
  virtual void Stop() = 0;
};

using ServiceStarter =
    absl::StatusOr<std::unique_ptr<ServiceProcess>> (*)(const ServerSettings& server);

struct ServiceDescription {
  std::string_view name;  // "kahve-rating": log lines and errors
  std::string_view summary;  // what it is, one line, for --help
  int default_port;
  int default_metrics_port;
  ServiceStarter start;  // reads the flags, wires everything, listens
};

// The whole main of a service binary: the usage message (--help), StartServiceProcess, start, log
// "<name> serving", wait for SIGTERM or SIGINT, stop. Returns the exit code.
int RunServiceMain(int argc, char** argv, const ServiceDescription& service);

// --rating_target: where the rating service is, for the services that call it.
std::string RatingTargetFromFlags();
// --table_client_endpoint: the table address players are handed; empty: the host's own.
std::string TableClientEndpointFromFlags();
// A plaintext channel to `target` that spreads calls round robin over every address it resolves
// to (a service whose every pod answers).
std::shared_ptr<grpc::Channel> RoundRobinChannel(const std::string& target);
// RoundRobinChannel to --rating_target.
std::shared_ptr<grpc::Channel> ChannelToRatingService();

}  // namespace kahve::common

#endif  // KAHVE_SERVICES_COMMON_SERVICE_PROCESS_H_

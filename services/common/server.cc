#include "services/common/server.h"

#include <pthread.h>

#include <csignal>

#include "absl/flags/flag.h"
#include "absl/strings/str_cat.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/clock.h"
#include "grpcpp/ext/proto_server_reflection_plugin.h"
#include "grpcpp/health_check_service_interface.h"
#include "services/common/config.h"
#include "services/common/logging.h"
#include "services/common/version_header.h"

ABSL_FLAG(std::string, host, "0.0.0.0", "Address the gRPC server listens on.");
ABSL_FLAG(int32_t, port, -1, "gRPC port; -1: the service's default; 0: any free port.");
ABSL_FLAG(int32_t, metrics_port, -1,
          "Port of /metrics (Prometheus); -1: the service's default; 0: any free port.");
ABSL_FLAG(int32_t, drain_seconds, 5,
          "On SIGTERM, seconds to stay up reporting NOT_SERVING before refusing new calls.");
ABSL_FLAG(int32_t, shutdown_deadline_seconds, 10,
          "On SIGTERM, seconds in-flight calls get to finish once new calls are refused.");

namespace kahve::common {

ServerSettings ServerSettingsFromFlags(int default_port, int default_metrics_port) {
  ServerSettings settings;
  settings.host = absl::GetFlag(FLAGS_host);
  settings.metrics_host = settings.host;
  const int port = absl::GetFlag(FLAGS_port);
  settings.port = port < 0 ? default_port : port;
  const int metrics_port = absl::GetFlag(FLAGS_metrics_port);
  settings.metrics_port = metrics_port < 0 ? default_metrics_port : metrics_port;
  settings.drain_period = absl::Seconds(absl::GetFlag(FLAGS_drain_seconds));
  settings.shutdown_deadline = absl::Seconds(absl::GetFlag(FLAGS_shutdown_deadline_seconds));
  return settings;
}

GrpcServer::GrpcServer(ServerSettings settings, Metrics* metrics)
    : settings_(std::move(settings)), metrics_(metrics) {}

GrpcServer::~GrpcServer() { Shutdown(); }

void GrpcServer::AddService(grpc::Service* service, const std::string& name) {
  services_.push_back(service);
  service_names_.push_back(name);
}

absl::Status GrpcServer::Start() {
  grpc::EnableDefaultHealthCheckService(true);
  grpc::reflection::InitProtoReflectionServerBuilderPlugin();
  grpc::ServerBuilder builder;
  builder.AddListeningPort(absl::StrCat(settings_.host, ":", settings_.port),
                           grpc::InsecureServerCredentials(), &port_);
  for (grpc::Service* service : services_) builder.RegisterService(service);
  if (settings_.max_connection_age != absl::InfiniteDuration()) {
    builder.AddChannelArgument(
        GRPC_ARG_MAX_CONNECTION_AGE_MS,
        static_cast<int>(settings_.max_connection_age / absl::Milliseconds(1)));
    builder.AddChannelArgument(GRPC_ARG_MAX_CONNECTION_AGE_GRACE_MS, 30'000);
  }
  std::vector<std::unique_ptr<grpc::experimental::ServerInterceptorFactoryInterface>> interceptors;
  interceptors.push_back(metrics_->InterceptorFactory());
  interceptors.push_back(ServerVersionInterceptorFactory());
  builder.experimental().SetInterceptorCreators(std::move(interceptors));
  server_ = builder.BuildAndStart();
  if (server_ == nullptr || port_ == 0) {
    return absl::InternalError(
        absl::StrCat("cannot listen on ", settings_.host, ":", settings_.port));
  }
  for (const std::string& name : service_names_) {
    server_->GetHealthCheckService()->SetServingStatus(name, true);
  }
  server_->GetHealthCheckService()->SetServingStatus(true);
  if (settings_.metrics_port >= 0) {
    const absl::Status serving = metrics_->Serve(settings_.metrics_host, settings_.metrics_port);
    if (!serving.ok()) return serving;
  }
  trimmer_ = std::make_unique<FreedMemoryTrimmer>(metrics_->registry());
  LogInfo("server started",
          {{"port", int64_t{port_}}, {"metrics_port", int64_t{metrics_->port()}}});
  return absl::OkStatus();
}

void GrpcServer::Shutdown(const std::function<void()>& before_stop) {
  if (server_ == nullptr || shut_down_) return;
  shut_down_ = true;
  // Load balancers and clients watching health move away first; then new calls are refused and
  // in-flight ones get until the deadline.
  server_->GetHealthCheckService()->SetServingStatus(false);
  LogInfo("draining", {{"seconds", absl::ToDoubleSeconds(settings_.drain_period)}});
  absl::SleepFor(settings_.drain_period);
  if (before_stop) before_stop();
  server_->Shutdown(absl::ToChronoTime(absl::Now() + settings_.shutdown_deadline));
  server_->Wait();
  trimmer_.reset();
  LogInfo("server stopped");
}

namespace {

sigset_t TerminationSignals() {
  sigset_t signals;
  sigemptyset(&signals);
  sigaddset(&signals, SIGTERM);
  sigaddset(&signals, SIGINT);
  return signals;
}

}  // namespace

void BlockTerminationSignals() {
  const sigset_t signals = TerminationSignals();
  pthread_sigmask(SIG_BLOCK, &signals, nullptr);
}

void StopCheckingLockCycles() {
  // Debian's absl checks every lock acquisition for cycles, a debugging aid that cost a few
  // percent of the table service's CPU under load (perf); our lock order is fixed by design.
  absl::SetMutexDeadlockDetectionMode(absl::OnDeadlockCycle::kIgnore);
}

void StartServiceProcess(int argc, char** argv) {
  BlockTerminationSignals();
  ParseFlags(argc, argv);
  StopCheckingLockCycles();
}

int CannotStart(std::string_view service, const absl::Status& status) {
  LogError(std::string(service) + " cannot start", {{"error", std::string(status.message())}});
  return 1;
}

void WaitForTerminationSignal() {
  const sigset_t signals = TerminationSignals();
  int received = 0;
  sigwait(&signals, &received);
  LogInfo("termination signal", {{"signal", int64_t{received}}});
}

absl::StatusOr<Identity> AuthenticateCall(const Authenticator& authenticator,
                                          const grpc::CallbackServerContext& context) {
  const auto& metadata = context.client_metadata();
  const auto found = metadata.find("authorization");
  if (found == metadata.end()) {
    return absl::UnauthenticatedError("missing authorization metadata (Bearer JWT)");
  }
  return authenticator.Verify(std::string_view(found->second.data(), found->second.size()),
                              absl::Now());
}

}  // namespace kahve::common

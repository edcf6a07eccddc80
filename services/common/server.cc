#include "services/common/server.h"

#include <pthread.h>

#include <algorithm>
#include <csignal>
#include <cstdint>

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
ABSL_FLAG(int32_t, connection_idle_timeout_seconds, 300,
          "A client connection with no call for this long is closed (the client reconnects when it "
          "needs to).");
ABSL_FLAG(int32_t, max_connection_age_seconds, -1,
          "Client connections are closed (GOAWAY) after this long; -1: the service's default (5 "
          "minutes for rating, an hour for the others); 0: never.");
ABSL_FLAG(int32_t, max_connection_age_grace_seconds, 300,
          "Seconds the calls of a connection past its age get to finish; streams still open then "
          "end with UNAVAILABLE and resume elsewhere.");

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
  settings.connection_caps = ConnectionCapsFromFlags();
  settings.idle_timeout = absl::Seconds(absl::GetFlag(FLAGS_connection_idle_timeout_seconds));
  const int age = absl::GetFlag(FLAGS_max_connection_age_seconds);
  if (age == 0) settings.max_connection_age = absl::InfiniteDuration();
  if (age > 0) settings.max_connection_age = absl::Seconds(age);
  settings.max_connection_age_grace =
      absl::Seconds(absl::GetFlag(FLAGS_max_connection_age_grace_seconds));
  return settings;
}

namespace {

int Milliseconds(absl::Duration duration) {
  return static_cast<int>(std::min<int64_t>(duration / absl::Milliseconds(1), INT32_MAX));
}

// Idle timeout, age and grace, and keepalive both ways: the server pings a silent client every
// minute and drops it when 20 s pass without the answer (a vanished peer holds nothing for long);
// a client may ping at most every 10 s, and twice more often earns a GOAWAY.
void SetConnectionLifetimes(const ServerSettings& settings, grpc::ServerBuilder& builder) {
  builder.AddChannelArgument(GRPC_ARG_MAX_CONNECTION_IDLE_MS, Milliseconds(settings.idle_timeout));
  const absl::Duration age = settings.max_connection_age.value_or(absl::Hours(1));
  if (age != absl::InfiniteDuration()) {
    builder.AddChannelArgument(GRPC_ARG_MAX_CONNECTION_AGE_MS, Milliseconds(age));
    builder.AddChannelArgument(GRPC_ARG_MAX_CONNECTION_AGE_GRACE_MS,
                               Milliseconds(settings.max_connection_age_grace));
  }
  builder.AddChannelArgument(GRPC_ARG_KEEPALIVE_TIME_MS, 60'000);
  builder.AddChannelArgument(GRPC_ARG_KEEPALIVE_TIMEOUT_MS, 20'000);
  builder.AddChannelArgument(GRPC_ARG_KEEPALIVE_PERMIT_WITHOUT_CALLS, 1);
  builder.AddChannelArgument(GRPC_ARG_HTTP2_MIN_RECV_PING_INTERVAL_WITHOUT_DATA_MS, 10'000);
  builder.AddChannelArgument(GRPC_ARG_HTTP2_MAX_PING_STRIKES, 2);
}

}  // namespace

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
  // The gate listens and accepts; gRPC gets the connections it lets through.
  auto gate = ConnectionGate::Listen(settings_.host, settings_.port, settings_.connection_caps,
                                     metrics_->registry());
  if (!gate.ok()) return gate.status();
  gate_ = *std::move(gate);
  port_ = gate_->port();
  grpc::ServerBuilder builder;
  for (grpc::Service* service : services_) builder.RegisterService(service);
  SetConnectionLifetimes(settings_, builder);
  // Compressed requests are refused (UNIMPLEMENTED): gRPC 1.51 inflates a message whole before
  // the size limit applies, so 400 KB of gzip could become 400 MB.
  builder.SetCompressionAlgorithmSupportStatus(GRPC_COMPRESS_DEFLATE, false);
  builder.SetCompressionAlgorithmSupportStatus(GRPC_COMPRESS_GZIP, false);
  std::vector<std::unique_ptr<grpc::experimental::ServerInterceptorFactoryInterface>> interceptors;
  // Every method this server answers has metric labels of its own; any other name folds into one.
  std::vector<std::string> labelled = service_names_;
  labelled.push_back("grpc.health.v1.Health");
  labelled.push_back("grpc.reflection.v1alpha.ServerReflection");
  interceptors.push_back(metrics_->InterceptorFactory(labelled));
  interceptors.push_back(ServerVersionInterceptorFactory());
  builder.experimental().SetInterceptorCreators(std::move(interceptors));
  server_ = builder.BuildAndStart();
  if (server_ == nullptr) {
    return absl::InternalError(absl::StrCat("cannot start the server on port ", port_));
  }
  gate_->Start(server_.get());
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
          {{"port", int64_t{port_}},
           {"metrics_port", int64_t{metrics_->port()}},
           {"max_connections", settings_.connection_caps.max_connections},
           {"max_connections_per_peer", settings_.connection_caps.max_connections_per_peer},
           {"open_files_limit", OpenFilesLimit()}});
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
  gate_->Stop();
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
  RaiseFileDescriptorLimit();
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

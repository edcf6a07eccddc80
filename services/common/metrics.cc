#include "services/common/metrics.h"

#include <chrono>
#include <utility>

#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "google/protobuf/descriptor.h"
#include "prometheus/gauge.h"
#include "services/common/status.h"

namespace kahve::common {
namespace {

using grpc::experimental::InterceptionHookPoints;

// Times one call from its start to the status it sends, and counts it by code.
class ServerMetricsInterceptor : public grpc::experimental::Interceptor {
 public:
  ServerMetricsInterceptor(Metrics* metrics, std::string service, std::string method)
      : metrics_(metrics),
        service_(std::move(service)),
        method_(std::move(method)),
        start_(std::chrono::steady_clock::now()) {}

  void Intercept(grpc::experimental::InterceptorBatchMethods* methods) override {
    if (methods->QueryInterceptionHookPoint(InterceptionHookPoints::PRE_SEND_STATUS)) {
      const double seconds =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
      const std::string code = GrpcCodeName(methods->GetSendStatus().error_code());
      metrics_->grpc_handled()
          .Add({{"grpc_service", service_}, {"grpc_method", method_}, {"grpc_code", code}})
          .Increment();
      metrics_->grpc_handling_seconds()
          .Add({{"grpc_service", service_}, {"grpc_method", method_}}, LatencyBuckets())
          .Observe(seconds);
    }
    methods->Proceed();
  }

 private:
  Metrics* metrics_;
  std::string service_;
  std::string method_;
  std::chrono::steady_clock::time_point start_;
};

// The method paths ("/package.Service/Method") of `services`, from the generated descriptors.
absl::flat_hash_set<std::string> MethodPaths(const std::vector<std::string>& services) {
  absl::flat_hash_set<std::string> paths;
  const auto* pool = google::protobuf::DescriptorPool::generated_pool();
  for (const std::string& name : services) {
    const google::protobuf::ServiceDescriptor* service = pool->FindServiceByName(name);
    if (service == nullptr && name == "grpc.health.v1.Health") {
      // gRPC's own health service is not built from generated protobuf code.
      paths.insert("/grpc.health.v1.Health/Check");
      paths.insert("/grpc.health.v1.Health/Watch");
    }
    if (service == nullptr) continue;
    for (int i = 0; i < service->method_count(); ++i) {
      paths.insert(absl::StrCat("/", name, "/", service->method(i)->name()));
    }
  }
  return paths;
}

class ServerMetricsFactory : public grpc::experimental::ServerInterceptorFactoryInterface {
 public:
  ServerMetricsFactory(Metrics* metrics, const std::vector<std::string>& services)
      : metrics_(metrics), known_(MethodPaths(services)) {}

  grpc::experimental::Interceptor* CreateServerInterceptor(
      grpc::experimental::ServerRpcInfo* info) override {
    // absl's string_view: Debian's Abseil hashes its own, not std's, for a lookup without a copy.
    const absl::string_view path = info->method() == nullptr ? "" : info->method();
    if (!known_.contains(path)) {
      return new ServerMetricsInterceptor(metrics_, "unknown", "unknown");
    }
    const size_t slash = path.rfind('/');
    return new ServerMetricsInterceptor(metrics_, std::string(path.substr(1, slash - 1)),
                                        std::string(path.substr(slash + 1)));
  }

 private:
  Metrics* metrics_;
  const absl::flat_hash_set<std::string> known_;
};

}  // namespace

const std::vector<double>& LatencyBuckets() {
  static const std::vector<double> kBuckets = {0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05,
                                               0.1,    0.25,  0.5,    1,     2.5,  5,     10};
  return kBuckets;
}

Metrics::Metrics() : registry_(std::make_shared<prometheus::Registry>()) {
  grpc_handled_ = &prometheus::BuildCounter()
                       .Name("grpc_server_handled_total")
                       .Help("RPCs completed on the server, by service, method and status code.")
                       .Register(*registry_);
  grpc_handling_seconds_ = &prometheus::BuildHistogram()
                                .Name("grpc_server_handling_seconds")
                                .Help("Time from the start of an RPC to its status, in seconds.")
                                .Register(*registry_);
  budgets_ = std::make_unique<BudgetMetrics>(*registry_);
  // The conventional name (client libraries export it): a restart shows as a change of value,
  // which alert rules can see without kube-state-metrics.
  prometheus::BuildGauge()
      .Name("process_start_time_seconds")
      .Help("When the process started, in seconds since the Unix epoch.")
      .Register(*registry_)
      .Add({})
      .Set(absl::ToDoubleSeconds(absl::Now() - absl::UnixEpoch()));
}

Metrics::~Metrics() = default;

absl::Status Metrics::Serve(const std::string& host, int port) {
  try {
    exposer_ = std::make_unique<prometheus::Exposer>(absl::StrCat(host, ":", port));
  } catch (const std::exception& error) {
    return absl::InternalError(
        absl::StrCat("metrics: cannot listen on ", host, ":", port, ": ", error.what()));
  }
  exposer_->RegisterCollectable(registry_);
  return absl::OkStatus();
}

int Metrics::port() const {
  if (exposer_ == nullptr) return 0;
  const std::vector<int> ports = exposer_->GetListeningPorts();
  return ports.empty() ? 0 : ports.front();
}

std::unique_ptr<grpc::experimental::ServerInterceptorFactoryInterface>
Metrics::InterceptorFactory(const std::vector<std::string>& services) {
  return std::make_unique<ServerMetricsFactory>(this, services);
}

}  // namespace kahve::common

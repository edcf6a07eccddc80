#ifndef KAHVE_SERVICES_COMMON_METRICS_H_
#define KAHVE_SERVICES_COMMON_METRICS_H_

// Prometheus metrics: one registry per process, served on its own port at /metrics, and the gRPC
// server metrics every service shares (go-grpc-prometheus names):
//   grpc_server_handled_total{grpc_service,grpc_method,grpc_code}
//   grpc_server_handling_seconds{grpc_service,grpc_method} (histogram)
// Each service declares its own families in one struct (e.g. RatingMetrics).

#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "grpcpp/support/server_interceptor.h"
#include "prometheus/counter.h"
#include "prometheus/exposer.h"
#include "prometheus/family.h"
#include "prometheus/histogram.h"
#include "prometheus/registry.h"
#include "services/common/budget.h"

namespace kahve::common {

// Buckets for request latencies, in seconds: 0.5 ms to 10 s.
const std::vector<double>& LatencyBuckets();

class Metrics {
 public:
  Metrics();
  ~Metrics();

  prometheus::Registry& registry() { return *registry_; }

  // Serves /metrics on host:port; port 0 picks a free one. Internal if it cannot listen.
  absl::Status Serve(const std::string& host, int port);
  // The port /metrics listens on, once serving.
  int port() const;

  // Adds the gRPC server metrics to a server: pass to ServerBuilder::experimental(). Only the
  // methods of `services` (full names, "kahve.v1.TableService") get labels of their own; a call
  // to any other name counts as grpc_service="unknown", grpc_method="unknown", since a label
  // taken from what a caller sends would let anyone create series without end.
  std::unique_ptr<grpc::experimental::ServerInterceptorFactoryInterface> InterceptorFactory(
      const std::vector<std::string>& services);

  prometheus::Family<prometheus::Counter>& grpc_handled() { return *grpc_handled_; }
  prometheus::Family<prometheus::Histogram>& grpc_handling_seconds() {
    return *grpc_handling_seconds_;
  }
  // The families every budget of the process counts in (services/common/budget.h).
  BudgetMetrics& budgets() { return *budgets_; }

 private:
  std::shared_ptr<prometheus::Registry> registry_;
  std::unique_ptr<prometheus::Exposer> exposer_;
  prometheus::Family<prometheus::Counter>* grpc_handled_;
  prometheus::Family<prometheus::Histogram>* grpc_handling_seconds_;
  std::unique_ptr<BudgetMetrics> budgets_;
};

}  // namespace kahve::common

#endif  // KAHVE_SERVICES_COMMON_METRICS_H_

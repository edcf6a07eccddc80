#ifndef KAHVE_SERVICES_RATING_RATING_PROCESS_H_
#define KAHVE_SERVICES_RATING_RATING_PROCESS_H_

// kahve-rating wired from one config (docs/configuration.md): store, service and server. main
// reads the config from flags (RatingConfigFromFlags); tests build it themselves and run the same
// wiring.

#include <memory>

#include "absl/status/statusor.h"
#include "services/common/call_gate.h"
#include "services/common/auth.h"
#include "services/common/metrics.h"
#include "services/common/pg_pool.h"
#include "services/common/server.h"
#include "services/common/service_process.h"
#include "services/common/worker_pool.h"
#include "services/rating/rating_service.h"
#include "services/rating/rating_store.h"

namespace kahve::rating {

struct RatingConfig {
  std::unique_ptr<common::Authenticator> authenticator;
  // Per-identity call rate (--max_calls_per_second); off unless set.
  common::CallRateSettings call_rate;
  // Its prepared statements are added by RatingProcess.
  common::PgPoolSettings pool;
  common::ServerSettings server;
  RatingServiceSettings service;
  // 0: one per pool connection.
  int workers = 0;
};

absl::StatusOr<RatingConfig> RatingConfigFromFlags(const common::ServerSettings& server);

class RatingProcess final : public common::ServiceProcess {
 public:
  explicit RatingProcess(RatingConfig config);

  absl::Status Start() { return server_.Start(); }
  int port() const override { return server_.port(); }
  void Stop() override { server_.Shutdown(); }

  int metrics_port() const { return metrics_.port(); }
  common::Metrics& metrics() { return metrics_; }
  common::GrpcServer& server() { return server_; }
  RatingService& service() { return service_; }

 private:
  RatingConfig config_;
  common::Metrics metrics_;
  common::PgPool pool_;
  RatingStore store_;
  common::WorkerPool workers_;
  common::CallGate gate_;
  RatingMetrics rating_metrics_;
  RatingService service_;
  common::GrpcServer server_;
};

extern const common::ServiceDescription kRatingService;

}  // namespace kahve::rating

#endif  // KAHVE_SERVICES_RATING_RATING_PROCESS_H_

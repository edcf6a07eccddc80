#ifndef KAHVE_SERVICES_MATCHMAKING_MATCHMAKING_PROCESS_H_
#define KAHVE_SERVICES_MATCHMAKING_MATCHMAKING_PROCESS_H_

// kahve-matchmaking wired from one config (docs/configuration.md, docs/matchmaking.md): store,
// rating cache, table directory, placer, the Enqueue writer, ticket streams, service, server and
// the queue passes. main reads the config from flags (MatchmakingConfigFromFlags); tests build
// it themselves and run the same wiring.

#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "services/common/call_gate.h"
#include "services/common/auth.h"
#include "services/common/budget.h"
#include "services/common/metrics.h"
#include "services/common/pg_pool.h"
#include "services/common/server.h"
#include "services/common/service_process.h"
#include "services/common/worker_pool.h"
#include "services/matchmaking/matchmaker.h"
#include "services/matchmaking/matchmaking_service.h"
#include "services/matchmaking/mm_metrics.h"
#include "services/matchmaking/mm_store.h"
#include "services/matchmaking/placer.h"
#include "services/matchmaking/queue_budget.h"
#include "services/matchmaking/rating_cache.h"
#include "services/matchmaking/table_directory.h"
#include "services/matchmaking/ticket_watch.h"
#include "services/matchmaking/ticket_writer.h"

namespace kahve::matchmaking {

struct MatchmakingConfig {
  std::unique_ptr<common::Authenticator> authenticator;
  // Per-identity call rate (--max_calls_per_second); off unless set.
  common::CallRateSettings call_rate;
  common::PgPoolSettings pool;
  common::ServerSettings server;
  // Service-role bearer token (without "Bearer ") for the table and rating services.
  std::string bearer;
  // The rating service and the table service (any host), as gRPC targets.
  std::string rating_target;
  std::string table_target;
  // The table address players are handed; empty: the chosen host's own endpoint.
  std::string table_client_endpoint;
  // Its database_url is the pool's; its clock is every part's.
  MatchmakerSettings matchmaker;
  absl::Duration rating_cache = absl::Seconds(60);
  absl::Duration watch_poll = absl::Milliseconds(500);
  int enqueue_batch = 256;
  // 0: one per pool connection.
  int workers = 0;
  QueueBudgetSettings queues;
  common::StreamBudgetSettings streams;
  // Whether Start starts the queue passes (tests may run them one at a time instead).
  bool run_passes = true;
};

absl::StatusOr<MatchmakingConfig> MatchmakingConfigFromFlags(const common::ServerSettings& server);

class MatchmakingProcess final : public common::ServiceProcess {
 public:
  explicit MatchmakingProcess(MatchmakingConfig config);
  // Stop().
  ~MatchmakingProcess() override;

  // Listens, then starts the passes (unless the config says not to).
  absl::Status Start();
  int port() const override { return server_.port(); }
  // Passes stop first (their queues go to other replicas), then the streams end and the server.
  // Idempotent.
  void Stop() override;

  int metrics_port() const { return metrics_.port(); }
  common::Metrics& metrics() { return metrics_; }
  MatchmakingStore& store() { return store_; }
  TicketWatchers& watchers() { return watchers_; }
  Matchmaker& matchmaker() { return matchmaker_; }

 private:
  MatchmakingConfig config_;
  common::Metrics metrics_;
  common::PgPool pool_;
  MatchmakingStore store_;
  MatchmakingMetrics mm_metrics_;
  RatingCache ratings_;
  TableDirectory tables_;
  Placer placer_;
  common::StreamBudget streams_;
  QueueBudget queues_;
  TicketWatchers watchers_;
  common::WorkerPool workers_;
  common::CallGate gate_;
  // Before the server: Enqueues still in a batch are answered before it goes.
  TicketWriter writer_;
  MatchmakingService service_;
  common::GrpcServer server_;
  Matchmaker matchmaker_;
  bool stopped_ = false;
};

extern const common::ServiceDescription kMatchmakingService;

}  // namespace kahve::matchmaking

#endif  // KAHVE_SERVICES_MATCHMAKING_MATCHMAKING_PROCESS_H_

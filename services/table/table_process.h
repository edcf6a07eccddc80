#ifndef KAHVE_SERVICES_TABLE_TABLE_PROCESS_H_
#define KAHVE_SERVICES_TABLE_TABLE_PROCESS_H_

// kahve-table wired from one config (docs/configuration.md): event log, live tables, service,
// server, the outbox relay to the rating service and the host registry's heartbeat. main reads
// the config from flags (TableConfigFromFlags); tests build it themselves and run the same wiring.

#include <algorithm>
#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "kahve/v1/rating.grpc.pb.h"
#include "services/common/auth.h"
#include "services/common/budget.h"
#include "services/common/call_gate.h"
#include "services/common/clock.h"
#include "services/common/metrics.h"
#include "services/common/pg_pool.h"
#include "services/common/server.h"
#include "services/common/service_process.h"
#include "services/common/worker_pool.h"
#include "services/table/event_log.h"
#include "services/table/host_lease.h"
#include "services/table/log_retention.h"
#include "services/table/outbox.h"
#include "services/table/table_forwarder.h"
#include "services/table/table_host.h"
#include "services/table/table_metrics.h"
#include "services/table/table_service.h"

namespace kahve::table {

struct TableConfig {
  std::unique_ptr<common::Authenticator> authenticator;
  // Per-identity call rate (--max_calls_per_second); off unless set.
  common::CallRateSettings call_rate;
  common::PgPoolSettings pool;
  common::ServerSettings server;
  std::string host_id;
  // Its seat_token_key is also the forwarding marker's key; its clock is every timer's: the
  // host's clocks, log retries, the outbox relay and the heartbeat.
  TableHostSettings host;
  int log_writers = 1;
  int workers = 4;
  common::StreamBudgetSettings streams;
  // The endpoint the other hosts forward to; empty: <hostname>:<port>.
  std::string advertise;
  // The table address practice players are handed; empty: `advertise`.
  std::string table_client_endpoint;
  // Where finished matches go, with this service-role bearer (without "Bearer ").
  std::string rating_target;
  std::string rating_bearer;
  // How long one RecordMatch may take; the outbox's claim on the row (60 s) must outlast it.
  absl::Duration rating_deadline = absl::Seconds(10);
  absl::Duration heartbeat_interval = absl::Seconds(1);
  // Tests that drive the registry or the outbox themselves turn these off.
  bool heartbeat = true;
  bool relay = true;
  // Pruning of finished tables' logs (log_retention.h); tests that prune themselves turn it off.
  LogRetentionSettings retention;
  bool prune_logs = true;
};

absl::StatusOr<TableConfig> TableConfigFromFlags(const common::ServerSettings& server);

class TableProcess final : public common::ServiceProcess {
 public:
  explicit TableProcess(TableConfig config);
  // Stop().
  ~TableProcess() override;

  // Reloads this host's unfinished tables, listens, then starts the relay and the heartbeat.
  absl::Status Start();
  int port() const override { return server_.port(); }
  // The shutdown of SIGTERM: the heartbeat's last beat says draining, the server's shutdown hands
  // the tables off (BeginShutdown), then the log and the relay stop. Idempotent.
  void Stop() override;

  int metrics_port() const { return metrics_.port(); }
  common::Metrics& metrics() { return metrics_; }
  common::PgPool& pool() { return pool_; }
  TableHost& host() { return host_; }

 private:
  TableConfig config_;
  common::Metrics metrics_;
  common::PgPool pool_;
  EventLog log_;
  TableMetrics table_metrics_;
  TableHost host_;
  common::WorkerPool workers_;
  common::CallGate gate_;
  common::StreamBudget stream_budget_;
  TableForwarder forwarder_;
  TableService service_;
  common::GrpcServer server_;
  std::string endpoint_;
  std::unique_ptr<v1::RatingService::Stub> rating_;
  // A claimed row outlasts a whole RecordMatch, with room to spare, before another host takes it.
  Outbox outbox_{
      pool_, metrics_.registry(),
      OutboxSettings{.claim_for = std::max(absl::Seconds(60), 2 * config_.rating_deadline)}};
  std::unique_ptr<OutboxRelay> relay_;
  std::unique_ptr<LogRetention> retention_;
  std::unique_ptr<HostLease> lease_;
  bool stopped_ = false;
};

extern const common::ServiceDescription kTableService;

}  // namespace kahve::table

#endif  // KAHVE_SERVICES_TABLE_TABLE_PROCESS_H_

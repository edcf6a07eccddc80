#include "services/table/table_process.h"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <memory>
#include <utility>

#include "absl/flags/flag.h"
#include "absl/strings/str_cat.h"
#include "grpcpp/grpcpp.h"
#include "services/common/logging.h"

ABSL_FLAG(std::string, host_id, "",
          "Table: this host's id in the host registry; it owns the tables it creates and reloads "
          "them at start. Empty: the machine's hostname.");
ABSL_FLAG(std::string, advertise, "",
          "Table: the endpoint (host:port) matchmaking hands to clients for this host. Empty: "
          "<hostname>:<port>.");
ABSL_FLAG(std::string, seat_token_secret, "",
          "Table: key seat tokens derive from; empty: --jwt_hs256_secret.");
ABSL_FLAG(std::string, rating_token, "",
          "Table: bearer token (service role) for calling the rating service; empty: minted from "
          "--jwt_hs256_secret.");
ABSL_FLAG(int32_t, log_writers, 1, "Table: event log group-commit threads.");
ABSL_FLAG(double, host_heartbeat_seconds, 1,
          "Table: how often this host renews its lease in the host registry and claims the "
          "tables other hosts let go of.");
ABSL_FLAG(int32_t, claim_batch, 200,
          "Table: the most lapsed tables one claim takes (claims repeat while they find as many).");
ABSL_FLAG(double, host_lease_seconds, 5,
          "Table: a host holds its tables while its last heartbeat is younger than this; past "
          "it, the other hosts claim them (the failover time is about this plus one heartbeat).");
ABSL_FLAG(int32_t, finished_linger_seconds, 60,
          "Table: how long a finished table stays in memory for late streams.");
ABSL_FLAG(int64_t, max_stream_queued_bytes, int64_t{4} << 20,
          "Table budget: bytes waiting to be written to one Connect stream; a slower reader is "
          "ended with RESOURCE_EXHAUSTED (0: unlimited).");
ABSL_FLAG(int64_t, max_streams_queued_bytes, int64_t{256} << 20,
          "Table budget: bytes waiting in every Connect stream of the host together; past it, "
          "streams that fall behind are ended with RESOURCE_EXHAUSTED (0: unlimited).");
ABSL_FLAG(int32_t, max_practice_tables_per_player, 3,
          "Table budget: unfinished practice tables one player may hold on this host.");
ABSL_FLAG(int32_t, max_practice_tables, 5000,
          "Table budget: unfinished practice tables this host may hold in all.");
ABSL_FLAG(int32_t, practice_idle_expiry_seconds, 1800,
          "Table: a practice table with no move or change for this long is closed.");
ABSL_FLAG(int32_t, practice_log_retention_hours, 24,
          "Table: a finished practice table's log (and its replay) is deleted this long after "
          "the game ended.");
ABSL_FLAG(int32_t, rated_log_retention_days, 0,
          "Table: a finished rated table's log (and its replay) is deleted this long after the "
          "game ended; 0: kept for ever (match history refers to it).");
ABSL_FLAG(int32_t, log_retention_interval_seconds, 300,
          "Table: how often a host looks for finished tables' logs past their retention.");
ABSL_FLAG(int32_t, practice_min_idle_to_evict_seconds, 120,
          "Table budget: when the host holds --max_practice_tables, a new practice table closes "
          "the one idle longest if it has been idle this long (otherwise it is refused).");
ABSL_FLAG(int64_t, max_finished_tables, 2000,
          "Table budget: finished tables kept in memory for late streams and retries; past it, "
          "tables that finish are dropped from memory as soon as their streams end.");

namespace kahve::table {
namespace {

std::string Hostname() {
  char name[256] = {};
  gethostname(name, sizeof(name) - 1);
  return name;
}

TableHostSettings HostSettingsFromFlags(const std::string& seat_key) {
  return TableHostSettings{
      .seat_token_key = seat_key,
      .host_lease = absl::Seconds(absl::GetFlag(FLAGS_host_lease_seconds)),
      .claim_batch = std::max(1, absl::GetFlag(FLAGS_claim_batch)),
      .finished_linger = absl::Seconds(absl::GetFlag(FLAGS_finished_linger_seconds)),
      .max_finished_tables = absl::GetFlag(FLAGS_max_finished_tables),
      .max_stream_queued_bytes = absl::GetFlag(FLAGS_max_stream_queued_bytes),
      .max_streams_queued_bytes = absl::GetFlag(FLAGS_max_streams_queued_bytes),
      .max_practice_tables_per_player = absl::GetFlag(FLAGS_max_practice_tables_per_player),
      .max_practice_tables = absl::GetFlag(FLAGS_max_practice_tables),
      .practice_idle_expiry = absl::Seconds(absl::GetFlag(FLAGS_practice_idle_expiry_seconds)),
      .practice_min_idle_to_evict =
          absl::Seconds(absl::GetFlag(FLAGS_practice_min_idle_to_evict_seconds))};
}

// Sends one finished match, as stored in the outbox, to the rating service.
absl::Status SendToRating(v1::RatingService::Stub& rating, const std::string& bearer,
                          absl::Duration deadline, const std::string& match_id,
                          const std::string& payload) {
  v1::RecordMatchRequest request;
  if (!request.ParseFromString(payload)) return absl::DataLossError("outbox payload unreadable");
  grpc::ClientContext context;
  context.AddMetadata("authorization", absl::StrCat("Bearer ", bearer));
  context.set_deadline(absl::ToChronoTime(absl::Now() + deadline));
  v1::RecordMatchResponse response;
  const grpc::Status status = rating.RecordMatch(&context, request, &response);
  if (status.ok()) return absl::OkStatus();
  return absl::UnavailableError(
      absl::StrCat("RecordMatch of ", match_id, ": ", status.error_message()));
}

}  // namespace

absl::StatusOr<TableConfig> TableConfigFromFlags(const common::ServerSettings& server) {
  TableConfig config;
  auto authenticator = common::AuthenticatorFromFlags();
  if (!authenticator.ok()) return authenticator.status();
  config.authenticator = *std::move(authenticator);
  config.call_rate = common::CallRateSettingsFromFlags();
  auto pool = common::PgPoolSettingsFromFlags("table");
  if (!pool.ok()) return pool.status();
  config.pool = *std::move(pool);
  config.server = server;
  auto seat_key =
      common::SecretFromFlags(absl::GetFlag(FLAGS_seat_token_secret), "seat_token_secret");
  if (!seat_key.ok()) return seat_key.status();
  config.host = HostSettingsFromFlags(*seat_key);
  auto bearer = common::ServiceTokenFromFlags(absl::GetFlag(FLAGS_rating_token), "kahve-table",
                                              "rating_token");
  if (!bearer.ok()) return bearer.status();
  config.rating_bearer = *std::move(bearer);
  config.rating_target = common::RatingTargetFromFlags();
  config.host_id = absl::GetFlag(FLAGS_host_id).empty() ? Hostname() : absl::GetFlag(FLAGS_host_id);
  config.log_writers = std::max(1, absl::GetFlag(FLAGS_log_writers));
  config.streams = common::StreamBudgetSettingsFromFlags();
  config.advertise = absl::GetFlag(FLAGS_advertise);
  config.table_client_endpoint = common::TableClientEndpointFromFlags();
  config.heartbeat_interval = absl::Seconds(absl::GetFlag(FLAGS_host_heartbeat_seconds));
  config.retention.practice = absl::Hours(absl::GetFlag(FLAGS_practice_log_retention_hours));
  const int rated_days = absl::GetFlag(FLAGS_rated_log_retention_days);
  config.retention.rated = rated_days > 0 ? absl::Hours(24) * rated_days : absl::InfiniteDuration();
  config.retention.interval = absl::Seconds(absl::GetFlag(FLAGS_log_retention_interval_seconds));
  return config;
}

TableProcess::TableProcess(TableConfig config)
    : config_(std::move(config)),
      pool_(config_.pool, &metrics_.registry()),
      log_(EventLogSettings{.url = config_.pool.url,
                            .host_id = config_.host_id,
                            .writers = config_.log_writers,
                            .clock = config_.host.clock},
           pool_, metrics_.registry()),
      table_metrics_(metrics_.registry()),
      host_(config_.host, &log_, &table_metrics_),
      workers_(config_.workers),
      gate_(config_.authenticator.get(), config_.call_rate, &metrics_.registry()),
      stream_budget_(config_.streams, &metrics_.budgets()),
      forwarder_(config_.host.seat_token_key),
      service_(&host_, &gate_, &workers_, &stream_budget_, &forwarder_),
      server_(config_.server, &metrics_) {
  server_.AddService(&service_, v1::TableService::service_full_name());
}

TableProcess::~TableProcess() { Stop(); }

absl::Status TableProcess::Start() {
  if (absl::Status loaded = host_.LoadUnfinished(); !loaded.ok()) return loaded;
  if (absl::Status started = server_.Start(); !started.ok()) return started;
  endpoint_ =
      config_.advertise.empty() ? absl::StrCat(Hostname(), ":", server_.port()) : config_.advertise;
  // Practice tables' players are told the entry address when there is one.
  host_.SetEndpoint(config_.table_client_endpoint.empty() ? endpoint_
                                                          : config_.table_client_endpoint);
  if (config_.relay) {
    // Finished matches go to the rating service from the durable outbox, retried until
    // acknowledged.
    rating_ = v1::RatingService::NewStub(common::RoundRobinChannel(config_.rating_target));
    relay_ = std::make_unique<OutboxRelay>(
        outbox_,
        [this](const std::string& match_id, const std::string& payload) {
          return SendToRating(*rating_, config_.rating_bearer, config_.rating_deadline, match_id,
                              payload);
        },
        /*interval=*/absl::Milliseconds(200), /*batch_limit=*/32, config_.host.clock);
  }
  if (config_.heartbeat) {
    lease_ = std::make_unique<HostLease>(
        HostLeaseSettings{.host_id = config_.host_id,
                          .lease = config_.host.host_lease,
                          .interval = config_.heartbeat_interval,
                          .clock = config_.host.clock},
        &log_, &host_);
    lease_->Start(endpoint_);
  }
  if (config_.prune_logs) {
    retention_ = std::make_unique<LogRetention>(config_.retention, pool_, metrics_.registry());
    retention_->Start();
  }
  common::LogInfo(
      "kahve-table host",
      {{"host_id", config_.host_id}, {"endpoint", endpoint_}, {"tables", host_.live_tables()}});
  return absl::OkStatus();
}

void TableProcess::Stop() {
  if (stopped_) return;
  stopped_ = true;
  if (lease_) lease_->Stop();
  retention_.reset();
  server_.Shutdown([this] { host_.BeginShutdown(); });
  log_.Shutdown();
  if (relay_) relay_->Stop();
}

namespace {

absl::StatusOr<std::unique_ptr<common::ServiceProcess>> StartTable(
    const common::ServerSettings& server) {
  auto config = TableConfigFromFlags(server);
  if (!config.ok()) return config.status();
  auto process = std::make_unique<TableProcess>(*std::move(config));
  if (absl::Status started = process->Start(); !started.ok()) return started;
  return process;
}

}  // namespace

const common::ServiceDescription kTableService{.name = "kahve-table",
                                               .summary =
                                                   "the tables: the game engine as the "
                                                   "referee, and their streams (gRPC)",
                                               .default_port = 50052,
                                               .default_metrics_port = 9092,
                                               .start = &StartTable};

}  // namespace kahve::table

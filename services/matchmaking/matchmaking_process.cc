#include "services/matchmaking/matchmaking_process.h"

#include <memory>
#include <utility>

#include "absl/flags/flag.h"
#include "grpcpp/grpcpp.h"
#include "kahve/v1/rating.grpc.pb.h"
#include "services/common/logging.h"
#include "services/matchmaking/queue_catalog.h"

ABSL_FLAG(std::string, service_token, "",
          "Matchmaking: bearer token (service role) for the table service (CreateTable, ListHosts, "
          "GetMatchStates) and GetRatings; empty: minted from --jwt_hs256_secret.");
ABSL_FLAG(int32_t, pass_interval_ms, 1000, "Matchmaking: milliseconds between queue passes.");
ABSL_FLAG(int32_t, shrink_after_seconds, 30,
          "Matchmaking: wait after which a smaller table (down to the ruleset's minimum) starts.");
ABSL_FLAG(int32_t, longest_wait_seconds, 60,
          "Matchmaking: wait after which bots fill empty seats, where the settings allow it.");
ABSL_FLAG(bool, bot_fill, true, "Matchmaking: whether bots may fill seats after the longest wait.");
ABSL_FLAG(std::string, bot_kind, "heuristic", "Matchmaking: the kind of bot that fills seats.");
ABSL_FLAG(int32_t, ticket_ttl_seconds, 600, "Matchmaking: a ticket waiting this long expires.");
ABSL_FLAG(int32_t, placement_timeout_seconds, 60,
          "Matchmaking: a match that has no table this long after it was formed is given up, "
          "its tickets waiting again (first in line).");
ABSL_FLAG(double, window_base, 3, "Matchmaking: skill window at zero wait (display rating).");
ABSL_FLAG(double, window_per_second, 0.5, "Matchmaking: skill window growth per second waited.");
ABSL_FLAG(double, window_max, 40, "Matchmaking: the widest skill window.");
ABSL_FLAG(double, window_provisional_extra, 10,
          "Matchmaking: added to the window when either side is provisional.");
ABSL_FLAG(std::string, table_target, "127.0.0.1:50052",
          "Matchmaking: the table service (host:port of any table host, or dns:///name:port to "
          "spread calls over every address the name resolves to), asked which hosts take tables "
          "and which games have ended.");
ABSL_FLAG(int32_t, rating_cache_seconds, 60, "Matchmaking: how long a player's rating is cached.");
ABSL_FLAG(int32_t, watch_poll_ms, 500,
          "Matchmaking: how often WatchTicket streams re-read their tickets.");
ABSL_FLAG(int32_t, turn_seconds, 0,
          "Matchmaking: turn time of the tables it creates (TableOptions.turn_seconds).");
ABSL_FLAG(int32_t, enqueue_batch, 256,
          "Matchmaking: most new tickets stored in one transaction (Enqueue's group commit).");
ABSL_FLAG(int64_t, max_active_queues, kahve::matchmaking::QueueBudgetSettings{}.max_active_queues,
          "Matchmaking: distinct queues with waiting or placing tickets, over all replicas, the "
          "standard queues (each ruleset's defaults) aside; an Enqueue that would open another is "
          "refused with RESOURCE_EXHAUSTED. 0: unlimited.");
ABSL_FLAG(int64_t, max_active_tickets, 50000,
          "Matchmaking: waiting or placing tickets, over all replicas; Enqueues beyond are refused "
          "with RESOURCE_EXHAUSTED. 0: unlimited.");
ABSL_FLAG(int32_t, away_grace_seconds, 0,
          "Matchmaking: away grace of the tables it creates (TableOptions.away_grace_seconds, "
          "0..3600); 0: the table service's default.");

namespace kahve::matchmaking {
namespace {

MatchmakerSettings MatchmakerSettingsFromFlags() {
  MatchmakerSettings settings{
      .pass_interval = absl::Milliseconds(absl::GetFlag(FLAGS_pass_interval_ms)),
      .shrink_after = absl::Seconds(absl::GetFlag(FLAGS_shrink_after_seconds)),
      .longest_wait = absl::Seconds(absl::GetFlag(FLAGS_longest_wait_seconds)),
      .bot_fill = absl::GetFlag(FLAGS_bot_fill),
      .bot_kind = absl::GetFlag(FLAGS_bot_kind),
      .ticket_ttl = absl::Seconds(absl::GetFlag(FLAGS_ticket_ttl_seconds)),
      .placement_timeout = absl::Seconds(absl::GetFlag(FLAGS_placement_timeout_seconds)),
      .window = {.base = absl::GetFlag(FLAGS_window_base),
                 .per_second = absl::GetFlag(FLAGS_window_per_second),
                 .max = absl::GetFlag(FLAGS_window_max),
                 .provisional_extra = absl::GetFlag(FLAGS_window_provisional_extra)},
  };
  settings.table_options.set_turn_seconds(absl::GetFlag(FLAGS_turn_seconds));
  settings.table_options.set_away_grace_seconds(absl::GetFlag(FLAGS_away_grace_seconds));
  return settings;
}

// The queue locks' connection goes where the pool does.
MatchmakerSettings WithDatabase(MatchmakerSettings settings, const std::string& url) {
  settings.database_url = url;
  return settings;
}

// An operator may set max_active_queues below the number of queues clients can open (each active
// queue costs every pass a few queries). Accounts can then fill it with rare settings and refuse
// other players those settings, never the standard queues: said once, at start-up.
void WarnOfAFillableQueueBudget(const QueueBudgetSettings& budget) {
  if (budget.max_active_queues <= 0) return;
  const auto others = static_cast<int64_t>(EveryQueue().size() - StandardQueueKeys().size());
  if (budget.max_active_queues >= others) return;
  common::LogWarning(
      "max_active_queues is below the number of queues besides the standard ones: accounts can "
      "fill it, and then Enqueues for other than the standard settings are refused",
      {{"max_active_queues", budget.max_active_queues}, {"queues", others}});
}

}  // namespace

absl::StatusOr<MatchmakingConfig> MatchmakingConfigFromFlags(const common::ServerSettings& server) {
  MatchmakingConfig config;
  auto authenticator = common::AuthenticatorFromFlags();
  if (!authenticator.ok()) return authenticator.status();
  config.authenticator = *std::move(authenticator);
  config.call_rate = common::CallRateSettingsFromFlags();
  auto pool = common::PgPoolSettingsFromFlags("matchmaking");
  if (!pool.ok()) return pool.status();
  config.pool = *std::move(pool);
  auto bearer = common::ServiceTokenFromFlags(absl::GetFlag(FLAGS_service_token),
                                              "kahve-matchmaking", "service_token");
  if (!bearer.ok()) return bearer.status();
  config.bearer = *std::move(bearer);
  config.server = server;
  config.rating_target = common::RatingTargetFromFlags();
  config.table_target = absl::GetFlag(FLAGS_table_target);
  config.table_client_endpoint = common::TableClientEndpointFromFlags();
  config.matchmaker = MatchmakerSettingsFromFlags();
  config.rating_cache = absl::Seconds(absl::GetFlag(FLAGS_rating_cache_seconds));
  config.watch_poll = absl::Milliseconds(absl::GetFlag(FLAGS_watch_poll_ms));
  config.enqueue_batch = absl::GetFlag(FLAGS_enqueue_batch);
  config.queues = {.max_active_queues = absl::GetFlag(FLAGS_max_active_queues),
                   .max_active_tickets = absl::GetFlag(FLAGS_max_active_tickets)};
  config.streams = common::StreamBudgetSettingsFromFlags();
  return config;
}

MatchmakingProcess::MatchmakingProcess(MatchmakingConfig config)
    : config_(std::move(config)),
      pool_(WithMatchmakingStatements(config_.pool), &metrics_.registry()),
      store_(&pool_),
      mm_metrics_(metrics_.registry()),
      ratings_(v1::RatingService::NewStub(common::RoundRobinChannel(config_.rating_target)),
               config_.bearer, config_.rating_cache),
      tables_({.bearer = config_.bearer},
              v1::TableService::NewStub(common::RoundRobinChannel(config_.table_target))),
      placer_({.bearer = config_.bearer,
               .client_endpoint = config_.table_client_endpoint,
               .clock = config_.matchmaker.clock},
              &store_.matches, &tables_),
      streams_(config_.streams, &metrics_.budgets()),
      queues_(config_.queues, StandardQueueKeys(), &metrics_.budgets()),
      watchers_(&store_, config_.watch_poll, absl::Hours(1), &streams_, config_.matchmaker.clock),
      workers_(config_.workers > 0 ? config_.workers : pool_.size()),
      gate_(config_.authenticator.get(), config_.call_rate, &metrics_.registry()),
      writer_(&store_.tickets, config_.enqueue_batch, config_.matchmaker.clock),
      service_({.ticket_ttl = config_.matchmaker.ticket_ttl, .clock = config_.matchmaker.clock},
               &store_, &writer_, &watchers_, &gate_, &workers_,
               &mm_metrics_, &tables_, &queues_),
      server_(config_.server, &metrics_),
      matchmaker_(WithDatabase(config_.matchmaker, config_.pool.url), &store_, &ratings_, &placer_,
                  &tables_, &mm_metrics_, &queues_) {
  server_.AddService(&service_, v1::MatchmakingService::service_full_name());
}

MatchmakingProcess::~MatchmakingProcess() { Stop(); }

absl::Status MatchmakingProcess::Start() {
  WarnOfAFillableQueueBudget(config_.queues);
  if (absl::Status started = server_.Start(); !started.ok()) return started;
  if (config_.run_passes) matchmaker_.Start([this] { watchers_.Poke(); });
  return absl::OkStatus();
}

void MatchmakingProcess::Stop() {
  if (stopped_) return;
  stopped_ = true;
  matchmaker_.Stop();
  server_.Shutdown([this] { watchers_.Shutdown(); });
}

namespace {

absl::StatusOr<std::unique_ptr<common::ServiceProcess>> StartMatchmaking(
    const common::ServerSettings& server) {
  auto config = MatchmakingConfigFromFlags(server);
  if (!config.ok()) return config.status();
  auto process = std::make_unique<MatchmakingProcess>(*std::move(config));
  if (absl::Status started = process->Start(); !started.ok()) return started;
  return process;
}

}  // namespace

const common::ServiceDescription kMatchmakingService{.name = "kahve-matchmaking",
                                                     .summary =
                                                         "queues players and seats them "
                                                         "at tables (gRPC)",
                                                     .default_port = 50051,
                                                     .default_metrics_port = 9091,
                                                     .start = &StartMatchmaking};

}  // namespace kahve::matchmaking

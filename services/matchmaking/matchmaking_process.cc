#include "services/matchmaking/matchmaking_process.h"

#include <memory>
#include <utility>

#include "absl/flags/flag.h"
#include "kahve/v1/rating.grpc.pb.h"
#include "services/common/auth.h"
#include "services/common/budget.h"
#include "services/common/metrics.h"
#include "services/common/pg_pool.h"
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

ABSL_FLAG(std::string, service_token, "",
          "Matchmaking: bearer token (service role) for CreateTable and GetRatings; empty: minted "
          "from --jwt_hs256_secret.");
ABSL_FLAG(int32_t, pass_interval_ms, 1000, "Matchmaking: milliseconds between queue passes.");
ABSL_FLAG(int32_t, shrink_after_seconds, 30,
          "Matchmaking: wait after which a smaller table (down to the ruleset's minimum) starts.");
ABSL_FLAG(int32_t, longest_wait_seconds, 60,
          "Matchmaking: wait after which bots fill empty seats, where the settings allow it.");
ABSL_FLAG(bool, bot_fill, true, "Matchmaking: whether bots may fill seats after the longest wait.");
ABSL_FLAG(std::string, bot_kind, "heuristic", "Matchmaking: the kind of bot that fills seats.");
ABSL_FLAG(int32_t, ticket_ttl_seconds, 600, "Matchmaking: a ticket waiting this long expires.");
ABSL_FLAG(int32_t, placement_timeout_seconds, 60,
          "Matchmaking: a match whose table no live host could make this long after it was "
          "formed is given up, its tickets waiting again (first in line).");
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
ABSL_FLAG(int64_t, max_active_queues, 200,
          "Matchmaking: distinct queues with waiting or placing tickets, over all replicas; an "
          "Enqueue that would open another is refused with RESOURCE_EXHAUSTED. 0: unlimited.");
ABSL_FLAG(int64_t, max_active_tickets, 50000,
          "Matchmaking: waiting or placing tickets, over all replicas; Enqueues beyond are refused "
          "with RESOURCE_EXHAUSTED. 0: unlimited.");
ABSL_FLAG(int32_t, away_grace_seconds, 0,
          "Matchmaking: away grace of the tables it creates (TableOptions.away_grace_seconds, "
          "0..3600); 0: the table service's default.");

namespace kahve::matchmaking {
namespace {

std::shared_ptr<grpc::Channel> ChannelToTableService() {
  // Round robin over the resolved addresses, as for the rating service: every host answers.
  grpc::ChannelArguments arguments;
  arguments.SetLoadBalancingPolicyName("round_robin");
  return grpc::CreateCustomChannel(absl::GetFlag(FLAGS_table_target),
                                   grpc::InsecureChannelCredentials(), arguments);
}

MatchmakerSettings MatchmakerSettingsFromFlags(const std::string& database_url) {
  MatchmakerSettings settings{
      .database_url = database_url,
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

class MatchmakingProcess final : public common::ServiceProcess {
 public:
  MatchmakingProcess(std::unique_ptr<common::Authenticator> authenticator,
                     common::PgPoolSettings pool_settings, const std::string& bearer,
                     const common::ServerSettings& server_settings)
      : authenticator_(std::move(authenticator)),
        pool_(pool_settings, &metrics_.registry()),
        store_(&pool_),
        mm_metrics_(metrics_.registry()),
        ratings_(v1::RatingService::NewStub(common::ChannelToRatingService()), bearer,
                 absl::Seconds(absl::GetFlag(FLAGS_rating_cache_seconds))),
        tables_({.bearer = bearer}, v1::TableService::NewStub(ChannelToTableService())),
        placer_({.bearer = bearer, .client_endpoint = common::TableClientEndpointFromFlags()},
                &store_, &tables_),
        streams_(common::StreamBudgetSettingsFromFlags(), &metrics_.budgets()),
        queues_({.max_active_queues = absl::GetFlag(FLAGS_max_active_queues),
                 .max_active_tickets = absl::GetFlag(FLAGS_max_active_tickets)},
                &metrics_.budgets()),
        watchers_(&store_, absl::Milliseconds(absl::GetFlag(FLAGS_watch_poll_ms)), absl::Hours(1),
                  &streams_),
        workers_(pool_.size()),
        writer_(&store_, absl::GetFlag(FLAGS_enqueue_batch)),
        service_({.ticket_ttl = absl::Seconds(absl::GetFlag(FLAGS_ticket_ttl_seconds))}, &store_,
                 &writer_, &watchers_, authenticator_.get(), &workers_, &mm_metrics_, &tables_,
                 &queues_),
        server_(server_settings, &metrics_),
        matchmaker_(MatchmakerSettingsFromFlags(pool_settings.url), &store_, &ratings_, &placer_,
                    &tables_, &mm_metrics_, &queues_) {
    server_.AddService(&service_, v1::MatchmakingService::service_full_name());
  }

  absl::Status Start() {
    if (absl::Status started = server_.Start(); !started.ok()) return started;
    matchmaker_.Start([this] { watchers_.Poke(); });
    return absl::OkStatus();
  }

  int port() const override { return server_.port(); }

  // Passes stop first (their queues go to other replicas), then the streams end and the server.
  void Stop() override {
    matchmaker_.Stop();
    server_.Shutdown([this] { watchers_.Shutdown(); });
  }

 private:
  std::unique_ptr<common::Authenticator> authenticator_;
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
  // Before the server: Enqueues still in a batch are answered before it goes.
  TicketWriter writer_;
  MatchmakingService service_;
  common::GrpcServer server_;
  Matchmaker matchmaker_;
};

absl::StatusOr<std::unique_ptr<common::ServiceProcess>> StartMatchmaking(
    const common::ServerSettings& server) {
  auto authenticator = common::AuthenticatorFromFlags();
  if (!authenticator.ok()) return authenticator.status();
  auto pool_settings = common::PgPoolSettingsFromFlags("matchmaking");
  if (!pool_settings.ok()) return pool_settings.status();
  auto bearer = common::ServiceTokenFromFlags(absl::GetFlag(FLAGS_service_token),
                                              "kahve-matchmaking", "service_token");
  if (!bearer.ok()) return bearer.status();

  auto process = std::make_unique<MatchmakingProcess>(*std::move(authenticator),
                                                      *std::move(pool_settings), *bearer, server);
  if (absl::Status started = process->Start(); !started.ok()) return started;
  return process;
}

}  // namespace

const common::ServiceDescription kMatchmakingService{.name = "kahve-matchmaking",
                                                     .summary = "queues players and seats them "
                                                                "at tables (gRPC)",
                                                     .default_port = 50051,
                                                     .default_metrics_port = 9091,
                                                     .start = &StartMatchmaking};

}  // namespace kahve::matchmaking

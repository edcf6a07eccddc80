// kahve-matchmaking: the matchmaking service. Flags and wiring only; see docs/configuration.md
// for every flag (each also read from KAHVE_<NAME>) and docs/matchmaking.md for the rules.

#include <memory>

#include "absl/flags/flag.h"
#include "absl/strings/str_cat.h"
#include "kahve/v1/rating.grpc.pb.h"
#include "services/common/auth.h"
#include "services/common/config.h"
#include "services/common/logging.h"
#include "services/common/metrics.h"
#include "services/common/pg_pool.h"
#include "services/common/server.h"
#include "services/common/worker_pool.h"
#include "services/matchmaking/matchmaker.h"
#include "services/matchmaking/matchmaking_service.h"
#include "services/matchmaking/mm_metrics.h"
#include "services/matchmaking/mm_store.h"
#include "services/matchmaking/placer.h"
#include "services/matchmaking/rating_cache.h"
#include "services/matchmaking/ticket_watch.h"
#include "services/matchmaking/ticket_writer.h"

ABSL_FLAG(std::string, rating_target, "127.0.0.1:50053",
          "Matchmaking: the rating service (host:port) skills are read from.");
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
ABSL_FLAG(int32_t, host_max_age_seconds, 6,
          "Matchmaking: a table host is live when its heartbeat is at most this old.");
ABSL_FLAG(int32_t, rating_cache_seconds, 60, "Matchmaking: how long a player's rating is cached.");
ABSL_FLAG(int32_t, watch_poll_ms, 500,
          "Matchmaking: how often WatchTicket streams re-read their tickets.");
ABSL_FLAG(int32_t, turn_seconds, 0,
          "Matchmaking: turn time of the tables it creates (TableOptions.turn_seconds).");
ABSL_FLAG(int32_t, enqueue_batch, 256,
          "Matchmaking: most new tickets stored in one transaction (Enqueue's group commit).");
ABSL_FLAG(int32_t, away_grace_seconds, 0,
          "Matchmaking: away grace of the tables it creates (TableOptions.away_grace_seconds, "
          "0..3600); 0: the table service's default.");
ABSL_DECLARE_FLAG(std::string, database);

namespace {

constexpr int kDefaultPort = 50051;
constexpr int kDefaultMetricsPort = 9091;

}  // namespace

int main(int argc, char** argv) {
  using namespace kahve;  // NOLINT: main wires many namespaces
  common::StartServiceProcess(argc, argv);

  auto authenticator = common::AuthenticatorFromFlags();
  if (!authenticator.ok()) return common::CannotStart("kahve-matchmaking", authenticator.status());
  auto pool_settings = common::PgPoolSettingsFromFlags("matchmaking");
  if (!pool_settings.ok()) return common::CannotStart("kahve-matchmaking", pool_settings.status());
  auto bearer_or = common::ServiceTokenFromFlags(absl::GetFlag(FLAGS_service_token),
                                                 "kahve-matchmaking", "service_token");
  if (!bearer_or.ok()) return common::CannotStart("kahve-matchmaking", bearer_or.status());
  const std::string bearer = *bearer_or;
  const absl::Duration ticket_ttl = absl::Seconds(absl::GetFlag(FLAGS_ticket_ttl_seconds));
  const absl::Duration host_max_age = absl::Seconds(absl::GetFlag(FLAGS_host_max_age_seconds));

  common::Metrics metrics;
  common::PgPool pool(*pool_settings, &metrics.registry());
  matchmaking::MatchmakingStore store(&pool);
  matchmaking::MatchmakingMetrics mm_metrics(metrics.registry());
  matchmaking::RatingCache ratings(
      v1::RatingService::NewStub(grpc::CreateChannel(absl::GetFlag(FLAGS_rating_target),
                                                     grpc::InsecureChannelCredentials())),
      bearer, absl::Seconds(absl::GetFlag(FLAGS_rating_cache_seconds)));
  matchmaking::Placer placer({.bearer = bearer, .host_max_age = host_max_age}, &store);
  matchmaking::MatchmakerSettings settings{
      .database_url = pool_settings->url,
      .pass_interval = absl::Milliseconds(absl::GetFlag(FLAGS_pass_interval_ms)),
      .shrink_after = absl::Seconds(absl::GetFlag(FLAGS_shrink_after_seconds)),
      .longest_wait = absl::Seconds(absl::GetFlag(FLAGS_longest_wait_seconds)),
      .bot_fill = absl::GetFlag(FLAGS_bot_fill),
      .bot_kind = absl::GetFlag(FLAGS_bot_kind),
      .ticket_ttl = ticket_ttl,
      .placement_timeout = absl::Seconds(absl::GetFlag(FLAGS_placement_timeout_seconds)),
      .window = {.base = absl::GetFlag(FLAGS_window_base),
                 .per_second = absl::GetFlag(FLAGS_window_per_second),
                 .max = absl::GetFlag(FLAGS_window_max),
                 .provisional_extra = absl::GetFlag(FLAGS_window_provisional_extra)},
      .host_max_age = host_max_age};
  settings.table_options.set_turn_seconds(absl::GetFlag(FLAGS_turn_seconds));
  settings.table_options.set_away_grace_seconds(absl::GetFlag(FLAGS_away_grace_seconds));
  matchmaking::TicketWatchers watchers(
      &store, absl::Milliseconds(absl::GetFlag(FLAGS_watch_poll_ms)), absl::Hours(1));
  common::WorkerPool workers(pool.size());
  // Declared before the server: Enqueues still in a batch are answered before it goes.
  matchmaking::TicketWriter writer(&store, absl::GetFlag(FLAGS_enqueue_batch));
  matchmaking::MatchmakingService service({.ticket_ttl = ticket_ttl}, &store, &writer, &watchers,
                                          authenticator->get(), &workers);
  common::GrpcServer server(common::ServerSettingsFromFlags(kDefaultPort, kDefaultMetricsPort),
                            &metrics);
  server.AddService(&service, v1::MatchmakingService::service_full_name());
  const absl::Status started = server.Start();
  if (!started.ok()) return common::CannotStart("kahve-matchmaking", started);
  matchmaking::Matchmaker matchmaker(settings, &store, &ratings, &placer, &mm_metrics);
  matchmaker.Start([&watchers] { watchers.Poke(); });
  common::LogInfo("kahve-matchmaking serving", {{"port", server.port()}});

  common::WaitForTerminationSignal();
  // Passes stop first (their queues go to other replicas), then the streams end and the server.
  matchmaker.Stop();
  server.Shutdown([&watchers] { watchers.Shutdown(); });
  return 0;
}

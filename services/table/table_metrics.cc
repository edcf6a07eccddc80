#include "services/table/table_metrics.h"

#include <string>

#include "services/common/metrics.h"

namespace kahve::table {
namespace {

const char* const kLogKinds[] = {"practice", "rated"};

// The builders of every family below, without the repetition.
prometheus::Family<prometheus::Counter>& Counters(prometheus::Registry& registry,
                                                  const std::string& name,
                                                  const std::string& help) {
  return prometheus::BuildCounter().Name(name).Help(help).Register(registry);
}
prometheus::Family<prometheus::Gauge>& Gauges(prometheus::Registry& registry,
                                              const std::string& name, const std::string& help) {
  return prometheus::BuildGauge().Name(name).Help(help).Register(registry);
}
prometheus::Family<prometheus::Histogram>& Histograms(prometheus::Registry& registry,
                                                      const std::string& name,
                                                      const std::string& help) {
  return prometheus::BuildHistogram().Name(name).Help(help).Register(registry);
}

}  // namespace

// A human decision: from a second to the longest turn limits players choose.
const prometheus::Histogram::BucketBoundaries& TurnBuckets() {
  static const auto* buckets = new prometheus::Histogram::BucketBoundaries{
      0.25, 0.5, 1, 2, 3, 5, 8, 13, 20, 30, 45, 60, 90, 120, 300};
  return *buckets;
}

// A whole game: a quick Liar's dice duel to a long Mexican Train evening.
const prometheus::Histogram::BucketBoundaries& GameBuckets() {
  static const auto* buckets = new prometheus::Histogram::BucketBoundaries{
      10, 30, 60, 120, 300, 600, 900, 1200, 1800, 2700, 3600, 5400, 7200, 14400};
  return *buckets;
}

// Every ruleset's round scores share one scale: Liar's dice dice left (0 to 5) at the bottom,
// okey101's negative finishes (-101 and its multiples) below zero, okey51 and Mexican Train totals
// up to the hundreds.
const prometheus::Histogram::BucketBoundaries& ScoreBuckets() {
  static const auto* buckets = new prometheus::Histogram::BucketBoundaries{
      -404, -202, -101, 0, 1, 2, 3, 5, 10, 25, 50, 100, 150, 200, 300, 500, 1000};
  return *buckets;
}

TableMetrics::TableMetrics(prometheus::Registry& registry)
    : tables_active(
          Gauges(registry, "kahve_tables_active", "Tables live on this host, by ruleset.")),
      moves(Counters(registry, "kahve_moves_total",
                     "Moves received, by ruleset and outcome (accepted, rejected, invalid).")),
      move_seconds(
          Histograms(registry, "kahve_move_seconds",
                     "Time from a move's receipt to its acknowledgement (durable), in seconds.")
              .Add({}, common::LatencyBuckets())),
      bot_moves(
          Counters(registry, "kahve_bot_moves_total",
                   "Moves bots made, by ruleset and reason (bot_seat, timeout, away, resigned).")),
      streams_active(Gauges(registry, "kahve_streams_active", "Open Connect streams.").Add({})),
      practice_expired(
          Counters(registry, "kahve_practice_tables_expired_total",
                   "Practice tables closed after sitting idle past --practice_idle_expiry_seconds.")
              .Add({})),
      tables_finished_in_memory(Gauges(registry, "kahve_tables_finished_in_memory",
                                       "Finished tables the host still keeps in memory (late "
                                       "streams, retries); --max_finished_tables bounds them.")
                                    .Add({})),
      tables_closed(Counters(registry, "kahve_tables_closed_total",
                             "Tables closed before their game ended, by reason (practice_resigned, "
                             "practice_expired, practice_evicted).")),
      practice_opened(Counters(registry, "kahve_practice_tables_opened_total",
                               "Practice tables opened, by ruleset.")),
      practice_changes(Counters(registry, "kahve_practice_changes_total",
                                "Practice tables' pauses, resumes, undos and redos, by kind.")),
      players_at_tables(
          Gauges(registry, "kahve_players_at_tables",
                 "Players' seats (not resigned) at this host's unfinished tables, by ruleset.")),
      resignations(
          Counters(registry, "kahve_resignations_total", "Players who resigned, by ruleset.")),
      timeouts(Counters(registry, "kahve_turn_timeouts_total",
                        "Decisions whose turn time ran out (a bot made the move), by ruleset.")),
      turn_seconds(Histograms(registry, "kahve_turn_seconds",
                              "A player's decision: from the seat becoming able to act to its "
                              "move, in seconds, by ruleset.")),
      games_finished(
          Counters(registry, "kahve_games_finished_total",
                   "Games finished, by ruleset, mode (solo, teams, practice) and ending.")),
      rounds_finished(
          Counters(registry, "kahve_rounds_finished_total",
                   "Deals and rounds of finished games, by ruleset, mode and the round's ending.")),
      game_seconds(Histograms(registry, "kahve_game_seconds",
                              "Finished games from the table's creation to the last move, in "
                              "seconds, by ruleset and mode.")),
      game_bot_seats(Counters(registry, "kahve_game_bot_seats_total",
                              "Seats a bot held when their game ended, by ruleset and reason "
                              "(bot_seat, resigned, away).")),
      round_score(
          Histograms(registry, "kahve_round_score",
                     "Each seat's score in each deal or round of finished games, by ruleset.")),
      takeovers(Counters(
          registry, "kahve_table_takeovers_total",
          "Tables this host claimed from another host, by reason (lapsed, handed_off, on_call).")),
      takeover_silence_seconds(
          Histograms(registry, "kahve_table_takeover_silence_seconds",
                     "How long a lapsed table's host had been silent when this host claimed it.")
              .Add({}, prometheus::Histogram::BucketBoundaries{1, 2, 3, 4, 5, 6, 7, 8, 10, 15, 20,
                                                               30, 60})),
      tables_lost(Counters(registry, "kahve_tables_lost_total",
                           "Tables this host stopped serving because another host claimed them.")
                      .Add({})),
      budgets(registry) {}

EventLogMetrics::EventLogMetrics(prometheus::Registry& registry)
    : commit_seconds(
          Histograms(
              registry, "kahve_event_log_commit_seconds",
              "Time to write and commit one batch of table log writes (successful attempts).")
              .Add({}, common::LatencyBuckets())),
      // Powers of two up to the largest batch.
      batch_size(Histograms(registry, "kahve_event_log_batch_size",
                            "Table log writes per commit (group commit across tables).")
                     .Add({}, prometheus::Histogram::BucketBoundaries{1, 2, 4, 8, 16, 32, 64, 128,
                                                                      256, 512})) {}

LogRetentionMetrics::LogRetentionMetrics(prometheus::Registry& registry)
    : rows_kept(Gauges(registry, "kahve_table_log_rows",
                       "Rows of finished and running tables' logs in the database, by kind "
                       "(practice, rated), as of the last retention pass.")),
      rows_pruned(
          Counters(registry, "kahve_table_log_rows_pruned_total",
                   "Log rows of finished tables removed by the retention policy, by kind.")),
      tables_pruned(Counters(registry, "kahve_table_logs_pruned_total",
                             "Finished tables whose log the retention policy removed, by kind.")) {
  for (const char* kind : kLogKinds) {
    rows_kept.Add({{"kind", kind}});
    rows_pruned.Add({{"kind", kind}});
    tables_pruned.Add({{"kind", kind}});
  }
}

OutboxMetrics::OutboxMetrics(prometheus::Registry& registry)
    : pending(prometheus::BuildGauge()
                  .Name("kahve_outbox_pending")
                  .Help("Match results not yet acknowledged by the rating service.")
                  .Register(registry)
                  .Add({})) {}

}  // namespace kahve::table

#include "services/table/table_metrics.h"

#include "services/common/metrics.h"

namespace kahve::table {
namespace {

const char* const kLogKinds[] = {"practice", "rated"};

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
    : tables_active(prometheus::BuildGauge()
                        .Name("kahve_tables_active")
                        .Help("Tables live on this host, by ruleset.")
                        .Register(registry)),
      moves(prometheus::BuildCounter()
                .Name("kahve_moves_total")
                .Help("Moves received, by ruleset and outcome (accepted, rejected, invalid).")
                .Register(registry)),
      move_seconds(prometheus::BuildHistogram()
                       .Name("kahve_move_seconds")
                       .Help("Time from a move's receipt to its acknowledgement (durable), in "
                             "seconds.")
                       .Register(registry)
                       .Add({}, common::LatencyBuckets())),
      bot_moves(prometheus::BuildCounter()
                    .Name("kahve_bot_moves_total")
                    .Help("Moves bots made, by ruleset and reason (bot_seat, timeout, away, "
                          "resigned).")
                    .Register(registry)),
      streams_active(prometheus::BuildGauge()
                         .Name("kahve_streams_active")
                         .Help("Open Connect streams.")
                         .Register(registry)
                         .Add({})),
      practice_expired(prometheus::BuildCounter()
                           .Name("kahve_practice_tables_expired_total")
                           .Help("Practice tables closed after sitting idle past "
                                 "--practice_idle_expiry_seconds.")
                           .Register(registry)
                           .Add({})),
      tables_finished_in_memory(prometheus::BuildGauge()
                                    .Name("kahve_tables_finished_in_memory")
                                    .Help("Finished tables the host still keeps in memory (late "
                                          "streams, retries); --max_finished_tables bounds them.")
                                    .Register(registry)
                                    .Add({})),
      tables_closed(prometheus::BuildCounter()
                        .Name("kahve_tables_closed_total")
                        .Help("Tables closed before their game ended, by reason "
                              "(practice_resigned, practice_expired, practice_evicted).")
                        .Register(registry)),
      practice_opened(prometheus::BuildCounter()
                          .Name("kahve_practice_tables_opened_total")
                          .Help("Practice tables opened, by ruleset.")
                          .Register(registry)),
      practice_changes(prometheus::BuildCounter()
                           .Name("kahve_practice_changes_total")
                           .Help("Practice tables' pauses, resumes, undos and redos, by kind.")
                           .Register(registry)),
      players_at_tables(prometheus::BuildGauge()
                            .Name("kahve_players_at_tables")
                            .Help("Players' seats (not resigned) at this host's unfinished "
                                  "tables, by ruleset.")
                            .Register(registry)),
      resignations(prometheus::BuildCounter()
                       .Name("kahve_resignations_total")
                       .Help("Players who resigned, by ruleset.")
                       .Register(registry)),
      timeouts(prometheus::BuildCounter()
                   .Name("kahve_turn_timeouts_total")
                   .Help("Decisions whose turn time ran out (a bot made the move), by ruleset.")
                   .Register(registry)),
      turn_seconds(prometheus::BuildHistogram()
                       .Name("kahve_turn_seconds")
                       .Help("A player's decision: from the seat becoming able to act to its "
                             "move, in seconds, by ruleset.")
                       .Register(registry)),
      games_finished(prometheus::BuildCounter()
                         .Name("kahve_games_finished_total")
                         .Help("Games finished, by ruleset, mode (solo, teams, practice) and "
                               "ending.")
                         .Register(registry)),
      rounds_finished(prometheus::BuildCounter()
                          .Name("kahve_rounds_finished_total")
                          .Help("Deals and rounds of finished games, by ruleset, mode and the "
                                "round's ending.")
                          .Register(registry)),
      game_seconds(prometheus::BuildHistogram()
                       .Name("kahve_game_seconds")
                       .Help("Finished games from the table's creation to the last move, in "
                             "seconds, by ruleset and mode.")
                       .Register(registry)),
      game_bot_seats(prometheus::BuildCounter()
                         .Name("kahve_game_bot_seats_total")
                         .Help("Seats a bot held when their game ended, by ruleset and reason "
                               "(bot_seat, resigned, away).")
                         .Register(registry)),
      round_score(prometheus::BuildHistogram()
                      .Name("kahve_round_score")
                      .Help("Each seat's score in each deal or round of finished games, by "
                            "ruleset.")
                      .Register(registry)),
      takeovers(prometheus::BuildCounter()
                    .Name("kahve_table_takeovers_total")
                    .Help("Tables this host claimed from another host, by reason (lapsed, "
                          "handed_off, on_call).")
                    .Register(registry)),
      takeover_silence_seconds(
          prometheus::BuildHistogram()
              .Name("kahve_table_takeover_silence_seconds")
              .Help("How long a lapsed table's host had been silent when this host claimed it.")
              .Register(registry)
              .Add({}, prometheus::Histogram::BucketBoundaries{1, 2, 3, 4, 5, 6, 7, 8, 10, 15, 20,
                                                               30, 60})),
      tables_lost(prometheus::BuildCounter()
                      .Name("kahve_tables_lost_total")
                      .Help("Tables this host stopped serving because another host claimed them.")
                      .Register(registry)
                      .Add({})),
      budgets(registry) {}

EventLogMetrics::EventLogMetrics(prometheus::Registry& registry)
    : commit_seconds(
          prometheus::BuildHistogram()
              .Name("kahve_event_log_commit_seconds")
              .Help("Time to write and commit one batch of table log writes (successful attempts).")
              .Register(registry)
              .Add({}, common::LatencyBuckets())),
      // Powers of two up to the largest batch.
      batch_size(prometheus::BuildHistogram()
                     .Name("kahve_event_log_batch_size")
                     .Help("Table log writes per commit (group commit across tables).")
                     .Register(registry)
                     .Add({}, prometheus::Histogram::BucketBoundaries{1, 2, 4, 8, 16, 32, 64, 128,
                                                                      256, 512})) {}

LogRetentionMetrics::LogRetentionMetrics(prometheus::Registry& registry)
    : rows_kept(prometheus::BuildGauge()
                    .Name("kahve_table_log_rows")
                    .Help("Rows of finished and running tables' logs in the database, by kind "
                          "(practice, rated), as of the last retention pass.")
                    .Register(registry)),
      rows_pruned(prometheus::BuildCounter()
                      .Name("kahve_table_log_rows_pruned_total")
                      .Help("Log rows of finished tables removed by the retention policy, by "
                            "kind.")
                      .Register(registry)),
      tables_pruned(prometheus::BuildCounter()
                        .Name("kahve_table_logs_pruned_total")
                        .Help("Finished tables whose log the retention policy removed, by kind.")
                        .Register(registry)) {
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

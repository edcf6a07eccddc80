#ifndef KAHVE_SERVICES_TABLE_TABLE_METRICS_H_
#define KAHVE_SERVICES_TABLE_TABLE_METRICS_H_

// Every metric family of the table service (docs/operations.md section 4), declared here and
// nowhere else: names, help, labels and buckets. What is observed, and when, belongs to the parts
// that hold these (table_observations.h turns log entries and finished games into observations).
// Labels are bounded: ruleset, mode, kind, an ending or reason from a fixed vocabulary; never a
// table, player or match id. The process's shared families (gRPC, pool, budgets, connections)
// are services/common's.

#include "prometheus/counter.h"
#include "prometheus/family.h"
#include "prometheus/gauge.h"
#include "prometheus/histogram.h"
#include "prometheus/registry.h"
#include "services/common/budget.h"

namespace kahve::table {

// Live tables, moves, streams, games and ownership (TableHost, TableService).
struct TableMetrics {
  explicit TableMetrics(prometheus::Registry& registry);

  prometheus::Family<prometheus::Gauge>& tables_active;  // kahve_tables_active{ruleset}
  prometheus::Family<prometheus::Counter>& moves;        // kahve_moves_total{ruleset,outcome}
  prometheus::Histogram& move_seconds;                   // kahve_move_seconds
  prometheus::Family<prometheus::Counter>& bot_moves;    // kahve_bot_moves_total{ruleset,reason}
  prometheus::Gauge& streams_active;                     // kahve_streams_active
  prometheus::Counter& practice_expired;                 // kahve_practice_tables_expired_total
  prometheus::Gauge& tables_finished_in_memory;          // kahve_tables_finished_in_memory
  // kahve_tables_closed_total{reason}: tables closed before their game ended
  prometheus::Family<prometheus::Counter>& tables_closed;
  // kahve_practice_tables_opened_total{ruleset}
  prometheus::Family<prometheus::Counter>& practice_opened;
  // kahve_practice_changes_total{kind}: pause, resume, undo, redo
  prometheus::Family<prometheus::Counter>& practice_changes;
  // kahve_players_at_tables{ruleset}: players' seats, not resigned, at unfinished tables
  prometheus::Family<prometheus::Gauge>& players_at_tables;
  prometheus::Family<prometheus::Counter>& resignations;    // kahve_resignations_total{ruleset}
  prometheus::Family<prometheus::Counter>& timeouts;        // kahve_turn_timeouts_total{ruleset}
  prometheus::Family<prometheus::Histogram>& turn_seconds;  // kahve_turn_seconds{ruleset}
  // kahve_games_finished_total{ruleset,mode,ending}
  prometheus::Family<prometheus::Counter>& games_finished;
  // kahve_rounds_finished_total{ruleset,mode,ending}
  prometheus::Family<prometheus::Counter>& rounds_finished;
  prometheus::Family<prometheus::Histogram>& game_seconds;  // kahve_game_seconds{ruleset,mode}
  // kahve_game_bot_seats_total{ruleset,reason}: seats a bot held at the end
  prometheus::Family<prometheus::Counter>& game_bot_seats;
  prometheus::Family<prometheus::Histogram>& round_score;  // kahve_round_score{ruleset}
  // kahve_table_takeovers_total{reason}: tables this host claimed from another: lapsed (its host
  // fell silent past the lease), handed_off (its host drained), on_call (claimed for a call)
  prometheus::Family<prometheus::Counter>& takeovers;
  // kahve_table_takeover_silence_seconds: how long a lapsed table's host had been silent when
  // this host claimed it (the failover time, heartbeat interval aside)
  prometheus::Histogram& takeover_silence_seconds;
  // kahve_tables_lost_total: tables this host let go because another host claimed them
  prometheus::Counter& tables_lost;
  common::BudgetMetrics budgets;  // kahve_budget_*, shared with the process's others
};

// The event log's group commit (EventLog, LogWriter).
struct EventLogMetrics {
  explicit EventLogMetrics(prometheus::Registry& registry);

  prometheus::Histogram& commit_seconds;  // kahve_event_log_commit_seconds
  prometheus::Histogram& batch_size;      // kahve_event_log_batch_size
};

// Retention of finished tables' logs (LogRetention), each by kind: practice, rated.
struct LogRetentionMetrics {
  explicit LogRetentionMetrics(prometheus::Registry& registry);

  prometheus::Family<prometheus::Gauge>& rows_kept;        // kahve_table_log_rows{kind}
  prometheus::Family<prometheus::Counter>& rows_pruned;    // kahve_table_log_rows_pruned_total
  prometheus::Family<prometheus::Counter>& tables_pruned;  // kahve_table_logs_pruned_total
};

// The outbox of results for the rating service (Outbox).
struct OutboxMetrics {
  explicit OutboxMetrics(prometheus::Registry& registry);

  prometheus::Gauge& pending;  // kahve_outbox_pending
};

// The buckets of the histograms labelled per ruleset (added as their series appear).
const prometheus::Histogram::BucketBoundaries& TurnBuckets();   // kahve_turn_seconds
const prometheus::Histogram::BucketBoundaries& GameBuckets();   // kahve_game_seconds
const prometheus::Histogram::BucketBoundaries& ScoreBuckets();  // kahve_round_score

}  // namespace kahve::table

#endif  // KAHVE_SERVICES_TABLE_TABLE_METRICS_H_

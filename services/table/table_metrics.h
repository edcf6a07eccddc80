#ifndef KAHVE_SERVICES_TABLE_TABLE_METRICS_H_
#define KAHVE_SERVICES_TABLE_TABLE_METRICS_H_

// The table service's metric families (docs/operations.md section 4), and the one place that
// turns a durable log entry, or a finished game, into observations. Labels are bounded: ruleset,
// mode, an ending or reason from a fixed vocabulary; never a table, player or match id.

#include <string>
#include <string_view>
#include <vector>

#include "absl/time/time.h"
#include "kahve/v1/engine.pb.h"
#include "prometheus/counter.h"
#include "prometheus/family.h"
#include "prometheus/gauge.h"
#include "prometheus/histogram.h"
#include "prometheus/registry.h"
#include "services/common/budget.h"
#include "services/table/table_session.h"

namespace kahve::table {

// The `mode` label of a finished game: "practice" for a practice table, else "teams" when any two
// seats share a team, else "solo".
std::string_view GameMode(bool practice, const v1::Result& result);
// The `ending` label of a finished game: "abandoned" when every player's seat ended resigned or
// away (the bots finished the game), "resigned" when some player resigned, else the engine's
// Result.ending ("deals_played", "last_player_standing", ...).
std::string GameEnding(const v1::Result& result, const std::vector<SeatOutcome>& seats);
// The `ending` label of one deal or round: its Result.Round.ending, with okey51's and okey101's
// finish kind appended ("finished_pairs"); empty for a round without an ending (Liar's dice).
std::string RoundEnding(const v1::Result::Round& round);

struct TableMetrics {
  explicit TableMetrics(prometheus::Registry& registry);

  // A durable entry of a table of `ruleset`: bot moves, timeouts, human decision times,
  // resignations and practice changes.
  void CountEntry(const std::string& ruleset, const AppliedEntry& applied);
  // A game that just ended (its last entry durable) after `length` of play.
  void CountFinishedGame(const std::string& ruleset, bool practice, const v1::Result& result,
                         const std::vector<SeatOutcome>& seats, absl::Duration length);

  prometheus::Family<prometheus::Gauge>& tables_active;  // kahve_tables_active{ruleset}
  prometheus::Family<prometheus::Counter>& moves;        // kahve_moves_total{ruleset,outcome}
  prometheus::Histogram& move_seconds;                   // kahve_move_seconds
  prometheus::Family<prometheus::Counter>& bot_moves;    // kahve_bot_moves_total{ruleset,reason}
  prometheus::Gauge& streams_active;                     // kahve_streams_active
  prometheus::Counter& practice_expired;  // kahve_practice_tables_expired_total
  prometheus::Gauge& tables_finished_in_memory;  // kahve_tables_finished_in_memory
  // kahve_tables_closed_total{reason}: tables closed before their game ended
  prometheus::Family<prometheus::Counter>& tables_closed;
  // kahve_practice_tables_opened_total{ruleset}
  prometheus::Family<prometheus::Counter>& practice_opened;
  // kahve_practice_changes_total{kind}: pause, resume, undo, redo
  prometheus::Family<prometheus::Counter>& practice_changes;
  // kahve_players_at_tables{ruleset}: players' seats, not resigned, at unfinished tables
  prometheus::Family<prometheus::Gauge>& players_at_tables;
  prometheus::Family<prometheus::Counter>& resignations;  // kahve_resignations_total{ruleset}
  prometheus::Family<prometheus::Counter>& timeouts;      // kahve_turn_timeouts_total{ruleset}
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

}  // namespace kahve::table

#endif  // KAHVE_SERVICES_TABLE_TABLE_METRICS_H_

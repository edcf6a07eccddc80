#ifndef KAHVE_SERVICES_TABLE_TABLE_OBSERVATIONS_H_
#define KAHVE_SERVICES_TABLE_TABLE_OBSERVATIONS_H_

// The one place that turns a durable log entry, or a finished game, into observations of the
// table service's metrics (table_metrics.h), and the label values they carry.

#include <string>
#include <string_view>
#include <vector>

#include "absl/time/time.h"
#include "kahve/v1/engine.pb.h"
#include "services/table/table_metrics.h"
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

// A durable entry of a table of `ruleset`: bot moves, timeouts, human decision times,
// resignations and practice changes.
void CountEntry(TableMetrics& metrics, const std::string& ruleset, const AppliedEntry& applied);
// A game that just ended (its last entry durable) after `length` of play.
void CountFinishedGame(TableMetrics& metrics, const std::string& ruleset, bool practice,
                       const v1::Result& result, const std::vector<SeatOutcome>& seats,
                       absl::Duration length);

}  // namespace kahve::table

#endif  // KAHVE_SERVICES_TABLE_TABLE_OBSERVATIONS_H_

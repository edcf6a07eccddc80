#ifndef KAHVE_TOOLS_KAHVE_DEMO_OUTPUT_H_
#define KAHVE_TOOLS_KAHVE_DEMO_OUTPUT_H_

// The lines `kahve demo` prints: a table update as its recipient saw it, a result, a rating, a
// history entry. Ruleset events print in protobuf's text form, so every ruleset reads the same way.

#include <string>
#include <vector>

#include "kahve/v1/rating.pb.h"
#include "kahve/v1/table.pb.h"
#include "tools/kahve/demo_player.h"

namespace kahve::tools {

std::vector<std::string> UpdateLines(const v1::TableUpdate& update);
// Seats by rank with their players (from `games`), scores and the ending.
std::string ResultText(const v1::Result& result, const std::vector<DemoGame>& games);
// The players in rank order, for the summary: "ana 1, bora 2, cem 2".
std::string RankingText(const v1::Result& result, const std::vector<DemoGame>& games);
std::string RatingText(const v1::Rating& rating);
// One match of a player's history: when, the ruleset, the player's rank and rating change.
std::string HistoryLine(const v1::MatchRecord& record, const std::string& player_id);

}  // namespace kahve::tools

#endif  // KAHVE_TOOLS_KAHVE_DEMO_OUTPUT_H_

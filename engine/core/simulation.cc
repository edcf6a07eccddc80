#include "engine/core/simulation.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "engine/core/rng.h"

namespace kahve::engine {
namespace {

std::string Units(int64_t units) {
  if (units % kWinShareUnits == 0) return absl::StrCat(units / kWinShareUnits);
  return absl::StrFormat("%.6f", static_cast<double>(units) / kWinShareUnits);
}

}  // namespace

void SimSummary::AddGame(const std::vector<int>& ranks, int64_t moves_played) {
  ++games;
  moves += moves_played;
  const int64_t winners = std::count(ranks.begin(), ranks.end(), 1);
  if (winners > 1) ++games_with_shared_win;
  for (size_t seat = 0; seat < ranks.size(); ++seat) {
    if (ranks[seat] == 1) win_units_by_seat[seat] += kWinShareUnits / winners;
  }
}

std::string SimSummary::ToJson() const {
  std::map<std::string, int64_t> by_bot;
  for (size_t seat = 0; seat < seat_bots.size(); ++seat) {
    by_bot[seat_bots[seat]] += win_units_by_seat[seat];
  }
  std::vector<std::string> seat_wins;
  for (int64_t units : win_units_by_seat) seat_wins.push_back(Units(units));
  std::vector<std::string> bot_wins;
  for (const auto& [bot, units] : by_bot)
    bot_wins.push_back(absl::StrCat("\"", bot, "\": ", Units(units)));
  const double per_second = seconds > 0 ? static_cast<double>(moves) / seconds : 0.0;
  return absl::StrCat(
      "{\"game\": \"", game, "\", \"games\": ", games, ", \"moves\": ", moves,
      ", \"seconds\": ", absl::StrFormat("%.6f", seconds),
      ", \"moves_per_second\": ", absl::StrFormat("%.0f", per_second),
      ", \"games_per_second\": ", absl::StrFormat("%.0f", seconds > 0 ? games / seconds : 0.0),
      ", \"wins_by_seat\": [", absl::StrJoin(seat_wins, ", "), "]", ", \"wins_by_bot\": {",
      absl::StrJoin(bot_wins, ", "), "}", ", \"games_with_shared_win\": ", games_with_shared_win,
      ", \"bots\": [\"", absl::StrJoin(seat_bots, "\", \""), "\"]}");
}

absl::StatusOr<std::vector<std::string>> SeatBots(const std::vector<std::string>& bots, int seats) {
  if (bots.size() == 1) return std::vector<std::string>(seats, bots[0]);
  if (static_cast<int>(bots.size()) != seats) {
    return absl::InvalidArgumentError(absl::StrCat("--bots names ", bots.size(), " bots for ",
                                                   seats, " seats; give one, or one per seat"));
  }
  return bots;
}

uint64_t GameSeed(uint64_t sim_seed, int64_t index) {
  return DeriveSeed(sim_seed, static_cast<uint64_t>(index));
}

uint64_t BotSeed(uint64_t game_seed) { return DeriveSeed(game_seed, 0xB07); }

}  // namespace kahve::engine

#ifndef KAHVE_ENGINE_CORE_SIMULATION_H_
#define KAHVE_ENGINE_CORE_SIMULATION_H_

// Bot-against-bot simulation, shared by every ruleset's fast playout loop and `kahve sim`.

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "kahve/v1/engine.pb.h"

namespace kahve::engine {

struct SimOptions {
  v1::GameSettings settings;
  // One bot kind for every seat, or one per seat.
  std::vector<std::string> bots;
  uint64_t seed = 0;
  int64_t games = 0;
};

// A shared first place splits one win; shares are counted in units of 1/2520 (divisible by every
// seat count 1..10), so the sums stay exact.
inline constexpr int64_t kWinShareUnits = 2520;

struct SimSummary {
  std::string game;
  int64_t games = 0;
  int64_t moves = 0;
  double seconds = 0;
  std::vector<std::string> seat_bots;
  std::vector<int64_t> win_units_by_seat;
  int64_t games_with_shared_win = 0;

  // Credits a finished game: `ranks[seat]`, 1 best, ties equal.
  void AddGame(const std::vector<int>& ranks, int64_t moves_played);
  // The `kahve sim` output: one JSON object.
  std::string ToJson() const;
};

// The bot of each seat: a list of one applies to all; otherwise one per seat.
absl::StatusOr<std::vector<std::string>> SeatBots(const std::vector<std::string>& bots, int seats);

// Seed of game `index` of a simulation, and of the bots' choices in it.
uint64_t GameSeed(uint64_t sim_seed, int64_t index);
uint64_t BotSeed(uint64_t game_seed);

}  // namespace kahve::engine

#endif  // KAHVE_ENGINE_CORE_SIMULATION_H_

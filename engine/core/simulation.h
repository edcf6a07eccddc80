#ifndef KAHVE_ENGINE_CORE_SIMULATION_H_
#define KAHVE_ENGINE_CORE_SIMULATION_H_

// Bot-against-bot simulation, shared by every ruleset's fast playout loop and `kahve sim`.

#include <chrono>
#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "base/status_macros.h"
#include "engine/core/rng.h"
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

// The loop every ruleset's Simulate shares: one bot kind per seat from `parse(name)`, then
// options.games games, game i from GameSeed(options.seed, i). `play(seed, bots, bot_rng, ranks)`
// plays one game to its end on the ruleset's fast path, fills `ranks` (one per seat) and returns
// the moves it took.
template <typename BotKind, typename Parse, typename Play>
absl::StatusOr<SimSummary> RunSimulation(std::string game, const SimOptions& options, int seats,
                                         Parse parse, Play play) {
  SimSummary summary;
  summary.game = std::move(game);
  KAHVE_ASSIGN_OR_RETURN(summary.seat_bots, SeatBots(options.bots, seats));
  std::vector<BotKind> bots;
  for (const std::string& name : summary.seat_bots) {
    KAHVE_ASSIGN_OR_RETURN(const BotKind kind, parse(name));
    bots.push_back(kind);
  }
  summary.win_units_by_seat.assign(seats, 0);
  std::vector<int> ranks(seats);
  const auto start = std::chrono::steady_clock::now();
  for (int64_t index = 0; index < options.games; ++index) {
    const uint64_t seed = GameSeed(options.seed, index);
    Rng bot_rng(BotSeed(seed));
    const int64_t moves = play(seed, bots.data(), bot_rng, ranks);
    summary.AddGame(ranks, moves);
  }
  summary.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return summary;
}

}  // namespace kahve::engine

#endif  // KAHVE_ENGINE_CORE_SIMULATION_H_

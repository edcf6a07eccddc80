#include "engine/liars_dice/liars_dice_sim.h"

#include <chrono>
#include <vector>

#include "engine/core/status_macros.h"
#include "engine/liars_dice/liars_dice_codec.h"

namespace kahve::engine::liars_dice {

int64_t PlayOut(State& state, const BotKind* seat_bots, Rng& bot_rng) {
  int64_t moves = 0;
  while (!state.over()) {
    const int seat = state.to_act();
    // The random bot draws from the public bidding state alone; only the heuristic needs a view.
    const Action action = seat_bots[seat] == BotKind::kRandom
                              ? RandomLegalAction(state.bidding(), bot_rng)
                              : ChooseHeuristic(state.ViewFor(seat));
    state.Apply(action, nullptr);
    ++moves;
  }
  return moves;
}

absl::StatusOr<SimSummary> Simulate(const SimOptions& options) {
  KAHVE_ASSIGN_OR_RETURN(const Settings settings, SettingsFromProto(options.settings.liars_dice()));
  SimSummary summary;
  summary.game = "liars_dice";
  KAHVE_ASSIGN_OR_RETURN(summary.seat_bots, SeatBots(options.bots, settings.players));
  std::vector<BotKind> seat_bots;
  for (const std::string& name : summary.seat_bots) {
    KAHVE_ASSIGN_OR_RETURN(const BotKind kind, ParseBotKind(name));
    seat_bots.push_back(kind);
  }
  summary.win_units_by_seat.assign(settings.players, 0);

  State state(settings, GameSeed(options.seed, 0));
  std::vector<int> ranks(settings.players);
  const auto start = std::chrono::steady_clock::now();
  for (int64_t game = 0; game < options.games; ++game) {
    const uint64_t seed = GameSeed(options.seed, game);
    state.Reset(seed);
    Rng bot_rng(BotSeed(seed));
    const int64_t moves = PlayOut(state, seat_bots.data(), bot_rng);
    const auto final_ranks = state.Ranks();
    ranks.assign(final_ranks.begin(), final_ranks.begin() + settings.players);
    summary.AddGame(ranks, moves);
  }
  summary.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return summary;
}

}  // namespace kahve::engine::liars_dice

#include "engine/liars_dice/liars_dice_sim.h"

#include <vector>

#include "base/status_macros.h"
#include "engine/liars_dice/liars_dice_game.h"

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
  State state(settings, GameSeed(options.seed, 0));
  return RunSimulation<BotKind>(
      "liars_dice", options, settings.players, &ParseBotKind,
      [&](uint64_t seed, const BotKind* bots, Rng& bot_rng, std::vector<int>& ranks) {
        state.Reset(seed);
        const int64_t moves = PlayOut(state, bots, bot_rng);
        const auto final_ranks = state.Ranks();
        ranks.assign(final_ranks.begin(), final_ranks.begin() + settings.players);
        return moves;
      });
}

}  // namespace kahve::engine::liars_dice

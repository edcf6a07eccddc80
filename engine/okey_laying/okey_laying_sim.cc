#include "engine/okey_laying/okey_laying_sim.h"

#include <deque>
#include <vector>

#include "base/status_macros.h"
#include "engine/core/check.h"

namespace kahve::engine::okey_laying {

int64_t PlayOut(State& state, const BotKind* seat_bots, Rng& bot_rng, bool checked) {
  int64_t moves = 0;
  // The heuristic plans the rest of a turn's phase at once; nobody else moves meanwhile.
  std::deque<Action> plan;
  while (!state.over()) {
    const int seat = state.to_act();
    const SeatView view(state, seat);
    Action action;
    if (seat_bots[seat] == BotKind::kRandom) {
      action = ChooseRandom(view, bot_rng);
    } else {
      if (plan.empty()) {
        std::vector<Action> planned = PlanHeuristic(view);
        plan.assign(std::make_move_iterator(planned.begin()),
                    std::make_move_iterator(planned.end()));
      }
      action = std::move(plan.front());
      plan.pop_front();
    }
    if (checked) {
      KAHVE_CHECK(state.Check(action).reason == Reason::kNone, "a bot chose a refused action");
    }
    const int deal = state.deal();
    state.Apply(action, nullptr);
    // A deal's end or the turn passing ends whatever was planned.
    if (state.deal() != deal || state.over() || state.to_act() != seat) plan.clear();
    ++moves;
  }
  return moves;
}

absl::StatusOr<SimSummary> Simulate(std::string_view ruleset, const SimOptions& options,
                                    const Rules& rules) {
  State state(rules, GameSeed(options.seed, 0));
  return RunSimulation<BotKind>(
      std::string(ruleset), options, kPlayers, &ParseBotKind,
      [&](uint64_t seed, const BotKind* bots, Rng& bot_rng, std::vector<int>& ranks) {
        state.Reset(seed);
        const int64_t moves = PlayOut(state, bots, bot_rng);
        const auto final_ranks = state.Ranks();
        ranks.assign(final_ranks.begin(), final_ranks.end());
        return moves;
      });
}

}  // namespace kahve::engine::okey_laying

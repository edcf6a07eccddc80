#ifndef KAHVE_ENGINE_CORE_STATE_GAME_H_
#define KAHVE_ENGINE_CORE_STATE_GAME_H_

// The part of the Game interface every ruleset shares whose rules state has one seat to act at a
// time and whose bots are "random" and "heuristic" (classic okey, the laying okeys, Mexican
// Train). `State` needs over(), to_act(), CheckInvariants() and operator==.

#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "engine/core/game.h"

namespace kahve::engine {

template <typename State>
class StateGame : public Game {
 public:
  std::vector<int> SeatsToAct() const override {
    if (state_->over()) return {};
    return {state_->to_act()};
  }
  bool IsOver() const override { return state_->over(); }
  void CheckInvariants() const override { state_->CheckInvariants(); }
  bool SameState(const Game& other) const override {
    const auto* same = dynamic_cast<const StateGame*>(&other);
    return same != nullptr && move_number() == same->move_number() && *state_ == *same->state_;
  }
  std::vector<std::string> BotKinds() const override { return {"random", "heuristic"}; }

 protected:
  using Game::Game;
  StateGame(const StateGame&) = default;

  // What BotMove answers for a seat that may not act now.
  absl::Status CheckBotMayAct(int seat) const {
    if (state_->over() || seat != state_->to_act()) {
      return absl::FailedPreconditionError(absl::StrCat("seat ", seat, " may not act now"));
    }
    return absl::OkStatus();
  }

  std::optional<State> state_;  // always set once constructed
};

}  // namespace kahve::engine

#endif  // KAHVE_ENGINE_CORE_STATE_GAME_H_

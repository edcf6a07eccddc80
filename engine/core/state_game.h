#ifndef KAHVE_ENGINE_CORE_STATE_GAME_H_
#define KAHVE_ENGINE_CORE_STATE_GAME_H_

// The part of the Game interface every ruleset shares: its rules state (`State`) has one seat to
// act at a time (others may have out-of-turn actions, as gösterme), its moves stand for actions
// of its own (`Action`), and its bots are the engine's two kinds. `State` needs over(),
// to_act(), CheckInvariants() and operator==. A ruleset adds what is its own: its legal actions,
// an action as a kahve.v1 move, its bots' choice, and the move decoding, views and results.

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/types/span.h"
#include "base/status_macros.h"
#include "engine/core/bot_kind.h"
#include "engine/core/game.h"
#include "engine/core/rng.h"

namespace kahve::engine {

template <typename State, typename Action>
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

  std::vector<v1::Move> LegalMoves(int seat) const final {
    std::vector<v1::Move> moves;
    // A seat outside the game has none (the interface's promise; rulesets index by seat).
    if (state_->over() || seat < 0 || seat >= num_seats()) return moves;
    for (const Action& action : LegalActionsAt(seat)) moves.push_back(MoveOf(action));
    return moves;
  }
  // An unknown kind is named before a seat that may not act.
  absl::StatusOr<v1::Move> BotMove(int seat, std::string_view kind, uint64_t bot_seed) const final {
    KAHVE_ASSIGN_OR_RETURN(const BotKind bot, ParseBotKind(kind));
    if (state_->over() || seat != state_->to_act()) {
      return absl::FailedPreconditionError(absl::StrCat("seat ", seat, " may not act now"));
    }
    Rng rng(bot_seed);
    return MoveOf(BotActionAt(bot, seat, rng));
  }

 protected:
  using Game::Game;
  StateGame(const StateGame&) = default;

  // The actions `seat` (a seat of the game, which is not over) may take now.
  virtual std::vector<Action> LegalActionsAt(int seat) const = 0;
  virtual v1::Move MoveOf(const Action& action) const = 0;
  // The choice of the bot `bot` for `seat`, the seat to act; `rng` drives its random choices.
  virtual Action BotActionAt(BotKind bot, int seat, Rng& rng) const = 0;

  // The kahve.v1 events of a move's (or the deal's) events of the ruleset's own: one each,
  // carrying its seat (none when negative), the rest written by `fill(event, proto)`; then, when
  // they ended the game, the game's end with its result.
  template <typename Event, typename Fill>
  std::vector<v1::Event> EventsOf(absl::Span<const Event> events, Fill&& fill) const {
    std::vector<v1::Event> out;
    out.reserve(events.size() + 1);
    for (const Event& event : events) {
      v1::Event& proto = out.emplace_back();
      if (event.seat >= 0) proto.set_seat(event.seat);
      fill(event, proto);
    }
    if (state_->over() && !events.empty()) {
      *out.emplace_back().mutable_game_over()->mutable_result() = Result();
    }
    return out;
  }
  // The outcome of a move the state accepted and applied.
  static MoveOutcome Accepted(std::vector<v1::Event> events) {
    MoveOutcome outcome;
    outcome.accepted = true;
    outcome.events = std::move(events);
    return outcome;
  }

  std::optional<State> state_;  // always set once constructed
};

}  // namespace kahve::engine

#endif  // KAHVE_ENGINE_CORE_STATE_GAME_H_

#ifndef KAHVE_ENGINE_MEXICAN_TRAIN_MEXICAN_TRAIN_BOTS_H_
#define KAHVE_ENGINE_MEXICAN_TRAIN_MEXICAN_TRAIN_BOTS_H_

// Mexican Train bots. They read a SeatView (their own hand and the public table), never the
// State.
//
// `random`: a uniform choice among the legal actions.
// `heuristic`: keeps the longest chain its hand can lay on its own train. In a first turn it lays
// that chain; later it plays the legal tile that costs the chain least, a double first when the
// hand can follow it, then the most pips (tiles left cost their pips at the round's end); it
// draws or passes only when nothing fits.

#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "engine/core/bot_kind.h"
#include "engine/core/rng.h"
#include "engine/mexican_train/mexican_train.h"

namespace kahve::engine::mexican_train {

// One seat's window on a State: its own hand and everything public.
class SeatView {
 public:
  SeatView(const State& state, int seat) : state_(state), seat_(seat) {}
  int seat() const { return seat_; }
  bool to_act() const { return state_.to_act() == seat_; }
  const std::vector<TileId>& hand() const { return state_.hand(seat_); }
  const Train& train(int train) const { return state_.train(train); }
  // The acting seat's legal actions (they depend on its own hand and public facts only).
  std::vector<Action> LegalActions() const {
    return to_act() ? state_.LegalActions() : std::vector<Action>{};
  }

 private:
  const State& state_;
  int seat_;
};

using engine::BotKind;
using engine::ParseBotKind;

// The longest chain of `hand` tiles laid from `end`, in order (ties: the most pips).
std::vector<TileId> LongestChain(const std::vector<TileId>& hand, int end);

Action ChooseAction(BotKind kind, const SeatView& view, Rng& rng);

}  // namespace kahve::engine::mexican_train

#endif  // KAHVE_ENGINE_MEXICAN_TRAIN_MEXICAN_TRAIN_BOTS_H_

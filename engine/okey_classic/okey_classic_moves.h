#ifndef KAHVE_ENGINE_OKEY_CLASSIC_OKEY_CLASSIC_MOVES_H_
#define KAHVE_ENGINE_OKEY_CLASSIC_OKEY_CLASSIC_MOVES_H_

// What a seat of classic okey may know and may do, and its bots.
//
// `random`: a uniform choice among LegalActions.
// `heuristic`: shows the indicator's twin whenever it may; wins whenever it can, by discarding an
// okey when that still wins (double), else with seven pairs when they are there (double); takes
// the discard when it puts more tiles in runs and sets (or pairs, for a pairs hand), else draws;
// discards the tile that helps its hand least (never an okey), the higher number first.

#include <optional>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "engine/core/bot_kind.h"
#include "engine/core/rng.h"
#include "engine/okey_classic/okey_classic.h"

namespace kahve::engine::okey_classic {

// One seat's window on a State: its own hand and everything public.
class SeatView {
 public:
  SeatView(const State& state, int seat) : state_(state), seat_(seat) {}
  int seat() const { return seat_; }
  const std::vector<Tile>& hand() const { return state_.hand(seat_); }
  bool to_act() const { return state_.to_act() == seat_; }
  bool drawn() const { return state_.drawn(); }
  std::optional<Tile> takeable() const { return to_act() ? state_.takeable() : std::nullopt; }
  int deck_count() const { return state_.deck_count(); }
  const okey::Jokers& jokers() const { return state_.jokers(); }
  bool may_show_indicator() const { return state_.MayShowIndicator(seat_); }

 private:
  const State& state_;
  int seat_;
};

// Every legal action of the seat, canonical: gösterme; the draw, the take (or, on an empty deck,
// only takes that win); each discard by code; each win by (discard code, seven pairs or not),
// its groups left to the server. Out of turn, gösterme alone.
std::vector<Action> LegalActions(const SeatView& view);

using engine::BotKind;
using engine::ParseBotKind;
Action ChooseAction(BotKind kind, const SeatView& view, Rng& rng);

}  // namespace kahve::engine::okey_classic

#endif  // KAHVE_ENGINE_OKEY_CLASSIC_OKEY_CLASSIC_MOVES_H_

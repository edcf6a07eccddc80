#ifndef KAHVE_ENGINE_OKEY_LAYING_OKEY_LAYING_MOVES_H_
#define KAHVE_ENGINE_OKEY_LAYING_OKEY_LAYING_MOVES_H_

// What a seat of a laying okey may know and may do: the SeatView that bots and hints read (their
// only window on the game), and the canonical list of legal actions.

#include <array>
#include <optional>
#include <vector>

#include "engine/okey/okey_arrangement.h"
#include "engine/okey_laying/okey_laying.h"

namespace kahve::engine::okey_laying {

// One seat's window on a State: its own hand and everything public, nothing else.
class SeatView {
 public:
  SeatView(const State& state, int seat) : state_(state), seat_(seat) {}
  int seat() const { return seat_; }
  const std::vector<Tile>& hand() const { return state_.hand(seat_); }
  const std::array<uint8_t, kCodes>& codes() const { return state_.codes(seat_); }
  int hand_count(int seat) const { return static_cast<int>(state_.hand(seat).size()); }
  bool to_act() const { return state_.to_act() == seat_; }
  bool drawn() const { return state_.drawn(); }
  std::optional<Tile> takeable() const { return to_act() ? state_.takeable() : std::nullopt; }
  const okey::Jokers& jokers() const { return state_.jokers(); }
  const std::vector<TableMeld>& table() const { return state_.table(); }
  const std::vector<Tile>& discards(int seat) const { return state_.discards(seat); }
  Opened opened(int seat) const { return state_.opened(seat); }
  int OpeningNeeds() const { return state_.OpeningNeeds(); }
  int deck_count() const { return state_.deck_count(); }
  bool Partners(int a, int b) const { return state_.Partners(a, b); }
  const Rules& rules() const { return state_.rules(); }

 private:
  const State& state_;
  int seat_;
};

// `lay` as a move of its own (`kind`), or as the use of a taken discard when `take`.
Action AsLay(ActionKind kind, Action lay, bool take);

// The most pairs `codes` make (okey::MaxPairs), keeping one of the `size` tiles back to discard.
std::vector<std::array<Code, 2>> PairsKeepingATile(const std::array<uint8_t, kCodes>& codes,
                                                   int size, const okey::Jokers& jokers);

// The hand as the arrangement search counts it (fakes under the okey's face, okeys as wilds).
okey::FaceCounts CountFaces(const std::vector<Tile>& tiles, const okey::Jokers& jokers);

// Every run and set that can be laid from `hand` on its own, each once: real tiles where the hand
// has them, okeys for the rest (in a set with open colour). With `must_hold`, only those holding
// a tile of that code.
std::vector<std::vector<PlacedTile>> SingleMelds(const okey::FaceCounts& hand,
                                                 const okey::Jokers& jokers,
                                                 std::optional<Code> must_hold);

// The melds of the hand's highest-valued arrangement, keeping at least one tile back (the lowest
// meld is dropped when they would use every tile), and their sum; none (sum 0) when the best
// arrangement's value falls short of `min_sum`, which is then found without building it.
std::vector<std::vector<PlacedTile>> BestOpening(const okey::FaceCounts& hand,
                                                 const okey::Jokers& jokers, int* sum,
                                                 int min_sum = 0);

// The legal actions of the seat to act, canonical and without repeats: the draw, each discard by
// code, each addition (by meld, tile, place), each single run, set or pair, and for a seat not yet
// opened the best opening only (the highest-valued runs and sets, and all its pairs): an opening
// can be any combination of melds, so those are not all listed. Taking the discard is listed
// with each such use that holds the taken tile. Empty for a seat that may not act.
std::vector<Action> LegalActions(const SeatView& view);

// What the seat to act may lay from now: its hand, and before the draw the discard it may take
// (then every lay is a take that must hold that tile).
struct LayPool {
  std::array<uint8_t, kCodes> codes{};
  okey::FaceCounts faces;
  int size = 0;
  std::optional<Code> must_hold;
  bool take = false;
};

// LegalActions as numbered slots, the seat's tiles counted once, so that a random choice makes
// only the action it picks and searches only for the opening it picks: first the draw or each
// discard, then the lays of a seat that opened, then kOpeningSlots openings of a seat not yet
// opened (the run/set opening, the pairs opening), each searched for on demand and possibly none.
inline constexpr int kOpeningSlots = 2;
class LegalSlots {
 public:
  explicit LegalSlots(const SeatView& view);
  // Every slot but the openings' holds exactly one legal action.
  int listed() const { return first_ + lays_; }
  int openings() const { return openings_; }
  Action ListedAt(int index) const;
  std::optional<Action> OpeningAt(int slot) const;

 private:
  SeatView view_;  // a copy: a view is a reference to the state and a seat
  std::optional<LayPool> pool_;
  std::array<Code, kCodes> held_{};  // the codes held, ascending (discards)
  int first_ = 0;
  int lays_ = 0;
  int openings_ = 0;
};

// Every action but the openings, in LegalActions' order.
std::vector<Action> ActionsButOpenings(const SeatView& view);

}  // namespace kahve::engine::okey_laying

#endif  // KAHVE_ENGINE_OKEY_LAYING_OKEY_LAYING_MOVES_H_

#ifndef KAHVE_ENGINE_LIARS_DICE_LIARS_DICE_RULES_H_
#define KAHVE_ENGINE_LIARS_DICE_LIARS_DICE_RULES_H_

// Stateless Liar's dice rules (RULES.md "Liar's dice"): bid order, conversions, challenge counting
// and the encoding of moves as small integers. Shared by the state, the bots and the tests.

#include <cstdint>

#include "engine/core/rng.h"

namespace kahve::engine::liars_dice {

inline constexpr int kFaces = 6;
inline constexpr int kMaxPlayers = 10;
inline constexpr int kMaxDicePerPlayer = 5;
inline constexpr int kMaxDiceOnTable = kMaxPlayers * kMaxDicePerPlayer;

struct Bid {
  int quantity = 0;  // 0: no bid yet
  int face = 0;
  bool operator==(const Bid&) const = default;
};

// Moves as integers, ordered: challenge, Путана, then bids by quantity and then face.
using Action = uint16_t;
inline constexpr Action kChallenge = 0;
inline constexpr Action kDeclarePutana = 1;
inline constexpr Action kFirstBidAction = 2;
inline constexpr int kMaxActions = kFirstBidAction + kMaxDiceOnTable * kFaces;

constexpr Action BidAction(int quantity, int face) {
  return static_cast<Action>(kFirstBidAction + (quantity - 1) * kFaces + (face - 1));
}
constexpr bool IsBid(Action action) { return action >= kFirstBidAction; }
constexpr Bid ActionBid(Action action) {
  return Bid{(action - kFirstBidAction) / kFaces + 1, (action - kFirstBidAction) % kFaces + 1};
}

// Why a move is refused; kNone means it is legal. Mirrors kahve.v1.RejectionReason.
enum class Reason : uint8_t {
  kNone,
  kQuantityOutOfRange,
  kQuantityAboveDice,
  kFaceOutOfRange,
  kNotARaise,
  kOpeningOnes,
  kNothingToChallenge,
  kPutanaNotAllowed,
  kPutanaFaceFixed,
  kConversionTooLow,
};

// What the legality of a move depends on: public facts only, the same for every seat.
struct BiddingState {
  Bid current;                // quantity 0 at the start of a round
  bool putana_round = false;  // ones not wild, face fixed
  int dice_on_table = 0;
  bool may_declare_putana = false;  // the seat to act may declare Путана now
};

// The least quantity of `face` that beats `current` (RULES.md: three ways to raise, conversions to
// and from ones, Путана's fixed face), or kMaxDiceOnTable + 1 when no quantity of that face does.
int MinimumQuantity(const BiddingState& state, int face);

// Why `bid` is not a legal bid now, or kNone.
Reason CheckBid(const BiddingState& state, Bid bid);

// Why `action` is not legal now, or kNone.
Reason CheckAction(const BiddingState& state, Action action);

// Writes every legal action, ascending, into `out` (room for kMaxActions); returns how many.
int LegalActions(const BiddingState& state, Action* out);

// A uniformly random legal action from one bounded draw, listing nothing: the `random` bot. Same
// distribution as a uniform pick from LegalActions (the draw indexes challenge, Путана, then each
// face's run of quantities).
Action RandomLegalAction(const BiddingState& state, Rng& rng);

// How many dice count for a bid on `face`: that face, plus ones when ones are wild. For a bid of
// ones, ones count once. `face_counts[f]` is how many dice on the table show f.
int CountForBid(const int face_counts[kFaces + 1], int face, bool ones_wild);

}  // namespace kahve::engine::liars_dice

#endif  // KAHVE_ENGINE_LIARS_DICE_LIARS_DICE_RULES_H_

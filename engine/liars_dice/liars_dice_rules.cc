#include "engine/liars_dice/liars_dice_rules.h"

#include <cassert>

namespace kahve::engine::liars_dice {
namespace {

constexpr int kImpossible = kMaxDiceOnTable + 1;
constexpr int kOnes = 1;

// Opening bid of a round: any quantity; ones only in a Путана round, where ones are ordinary.
int OpeningMinimum(bool putana_round, int face) {
  return face == kOnes && !putana_round ? kImpossible : 1;
}

// A Путана round fixes the face: only more of the same face.
int PutanaMinimum(Bid current, int face) {
  return face == current.face ? current.quantity + 1 : kImpossible;
}

// After a bid of ones: more ones, or at least 2q+1 of any other face.
int MinimumAfterOnes(Bid current, int face) {
  return face == kOnes ? current.quantity + 1 : 2 * current.quantity + 1;
}

// After a bid of another face: more of it, the same quantity of a higher face, or both; to ones at
// least ceil(q/2). A higher quantity of a lower face is not one of the seed's three ways.
int MinimumAfterFace(Bid current, int face) {
  if (face == kOnes) return (current.quantity + 1) / 2;
  if (face == current.face) return current.quantity + 1;
  if (face > current.face) return current.quantity;
  return kImpossible;
}

}  // namespace

int MinimumQuantity(const BiddingState& state, int face) {
  const Bid current = state.current;
  if (current.quantity == 0) return OpeningMinimum(state.putana_round, face);
  if (state.putana_round) return PutanaMinimum(current, face);
  if (current.face == kOnes) return MinimumAfterOnes(current, face);
  return MinimumAfterFace(current, face);
}

Reason CheckBid(const BiddingState& state, Bid bid) {
  if (bid.face < 1 || bid.face > kFaces) return Reason::kFaceOutOfRange;
  if (bid.quantity < 1) return Reason::kQuantityOutOfRange;
  if (bid.quantity > state.dice_on_table) return Reason::kQuantityAboveDice;
  if (bid.quantity >= MinimumQuantity(state, bid.face)) return Reason::kNone;

  // Refused: say precisely which rule refuses it.
  const Bid current = state.current;
  if (current.quantity == 0) return Reason::kOpeningOnes;
  if (state.putana_round && bid.face != current.face) return Reason::kPutanaFaceFixed;
  if (!state.putana_round && (bid.face == kOnes) != (current.face == kOnes)) {
    return Reason::kConversionTooLow;
  }
  return Reason::kNotARaise;
}

Reason CheckAction(const BiddingState& state, Action action) {
  if (action == kChallenge) {
    return state.current.quantity == 0 ? Reason::kNothingToChallenge : Reason::kNone;
  }
  if (action == kDeclarePutana) {
    return state.may_declare_putana ? Reason::kNone : Reason::kPutanaNotAllowed;
  }
  if (action >= kMaxActions) return Reason::kQuantityAboveDice;
  return CheckBid(state, ActionBid(action));
}

int LegalActions(const BiddingState& state, Action* out) {
  // Branch-free on the hot path of every playout: each candidate is written, and kept by advancing
  // the count only when legal. Writes stay below kMaxActions: a write lands at the current count.
  int count = 0;
  out[count] = kChallenge;
  count += state.current.quantity != 0 ? 1 : 0;
  out[count] = kDeclarePutana;
  count += state.may_declare_putana ? 1 : 0;
  int minimum[kFaces + 1];
  int lowest = kImpossible;
  for (int face = 1; face <= kFaces; ++face) {
    minimum[face] = MinimumQuantity(state, face);
    lowest = minimum[face] < lowest ? minimum[face] : lowest;
  }
  // Ascending action order is quantity-major: walk quantities, then faces.
  for (int quantity = lowest < 1 ? 1 : lowest; quantity <= state.dice_on_table; ++quantity) {
    const Action first = BidAction(quantity, 1);
    for (int face = 1; face <= kFaces; ++face) {
      out[count] = static_cast<Action>(first + face - 1);
      count += quantity >= minimum[face] ? 1 : 0;
    }
  }
  return count;
}

Action RandomLegalAction(const BiddingState& state, Rng& rng) {
  const bool may_challenge = state.current.quantity != 0;
  int first[kFaces + 1];
  int runs[kFaces + 1];
  uint32_t total = (may_challenge ? 1 : 0) + (state.may_declare_putana ? 1 : 0);
  for (int face = 1; face <= kFaces; ++face) {
    first[face] = MinimumQuantity(state, face);
    runs[face] = first[face] <= state.dice_on_table ? state.dice_on_table - first[face] + 1 : 0;
    total += static_cast<uint32_t>(runs[face]);
  }
  uint32_t pick = rng.Below(total);
  if (may_challenge && pick-- == 0) return kChallenge;
  if (state.may_declare_putana && pick-- == 0) return kDeclarePutana;
  for (int face = 1; face <= kFaces; ++face) {
    if (pick < static_cast<uint32_t>(runs[face]))
      return BidAction(first[face] + static_cast<int>(pick), face);
    pick -= static_cast<uint32_t>(runs[face]);
  }
  assert(false && "pick < total");
  return kChallenge;
}

int CountForBid(const int face_counts[kFaces + 1], int face, bool ones_wild) {
  if (face == kOnes || !ones_wild) return face_counts[face];
  return face_counts[face] + face_counts[kOnes];
}

}  // namespace kahve::engine::liars_dice

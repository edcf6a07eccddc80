#include "engine/liars_dice/liars_dice_bots.h"

#include <array>
#include <cmath>
#include <string>

#include "absl/strings/str_cat.h"

namespace kahve::engine::liars_dice {
namespace {

// P(X >= need) for X ~ Binomial(unknown, p), for every need in 0..unknown: built once per decision
// so judging each of up to 300 legal bids costs a lookup.
class TailTable {
 public:
  TailTable(int trials, double p) : trials_(trials) {
    std::array<double, kMaxDiceOnTable + 1> exactly{};
    exactly[0] = std::pow(1.0 - p, trials);
    for (int k = 1; k <= trials; ++k) {
      exactly[k] = exactly[k - 1] * static_cast<double>(trials - k + 1) / k * p / (1.0 - p);
    }
    double at_least = 0.0;
    for (int k = trials; k >= 0; --k) {
      at_least += exactly[k];
      tail_[k] = at_least;
    }
  }
  double AtLeast(int need) const {
    if (need <= 0) return 1.0;
    return need > trials_ ? 0.0 : tail_[need];
  }

 private:
  int trials_;
  std::array<double, kMaxDiceOnTable + 1> tail_{};
};

// The chance of every bid, from one seat's knowledge.
class BidOdds {
 public:
  explicit BidOdds(const SeatView& view)
      : ones_wild_(!view.bidding.putana_round),
        wide_(view.bidding.dice_on_table - view.my_dice_count, 2.0 / kFaces),
        narrow_(view.bidding.dice_on_table - view.my_dice_count, 1.0 / kFaces) {
    for (int i = 0; i < view.my_dice_count; ++i) ++own_faces_[view.my_dice[i]];
  }
  double Chance(Bid bid) const {
    const int known = CountForBid(own_faces_, bid.face, ones_wild_);
    const bool wide = ones_wild_ && bid.face != 1;
    return (wide ? wide_ : narrow_).AtLeast(bid.quantity - known);
  }

 private:
  bool ones_wild_;
  int own_faces_[kFaces + 1] = {};
  TailTable wide_;    // a die counts with chance 2/6: the face or a wild one
  TailTable narrow_;  // 1/6: ones, or any face when ones are not wild
};

}  // namespace

double ChanceBidIsTrue(const SeatView& view, Bid bid) { return BidOdds(view).Chance(bid); }

Action ChooseHeuristic(const SeatView& view) {
  Action legal[kMaxActions];
  const int count = LegalActions(view.bidding, legal);
  const BidOdds odds(view);
  double best_chance = -1.0;
  Action best_bid = legal[0];
  bool can_challenge = false;
  for (int i = 0; i < count; ++i) {
    if (legal[i] == kDeclarePutana) return kDeclarePutana;
    if (legal[i] == kChallenge) {
      can_challenge = true;
      continue;
    }
    // Legal actions ascend, so the first bid reaching the best chance is the lowest such bid.
    const double chance = odds.Chance(ActionBid(legal[i]));
    if (chance > best_chance) {
      best_chance = chance;
      best_bid = legal[i];
    }
  }
  if (can_challenge && 1.0 - odds.Chance(view.bidding.current) >= best_chance) {
    return kChallenge;
  }
  return best_bid;
}

Action ChooseAction(BotKind kind, const SeatView& view, Rng& rng) {
  if (kind == BotKind::kRandom) return RandomLegalAction(view.bidding, rng);
  return ChooseHeuristic(view);
}

}  // namespace kahve::engine::liars_dice

#include "engine/mexican_train/mexican_train_bots.h"

#include <algorithm>
#include <array>
#include <string>

#include "absl/strings/str_cat.h"

namespace kahve::engine::mexican_train {
namespace {

// The hand as a multigraph on the pips: for each pip, the hand's tiles that carry it.
struct ByPip {
  std::array<std::array<uint8_t, 16>, kHighPip + 1> index{};
  std::array<int, kHighPip + 1> count{};
};

// Depth-first over the hand's tiles by matching pip; `best` keeps the longest (then heaviest)
// chain seen. `budget` bounds the search for the rare hands full of one suit: chains found by
// then are long already, and the bot only needs a good one.
void Extend(const std::vector<TileId>& hand, const ByPip& by_pip, std::vector<bool>& used, int end,
            std::vector<TileId>& chain, int pips, std::vector<TileId>& best, int& best_pips,
            int& budget) {
  if (--budget < 0) return;
  if (chain.size() > best.size() || (chain.size() == best.size() && pips > best_pips)) {
    best = chain;
    best_pips = pips;
  }
  for (int k = 0; k < by_pip.count[end]; ++k) {
    const int i = by_pip.index[end][k];
    if (used[i]) continue;
    used[i] = true;
    chain.push_back(hand[i]);
    const Domino domino = DominoOf(hand[i]);
    Extend(hand, by_pip, used, domino.Other(end), chain, pips + domino.Pips(), best, best_pips,
           budget);
    chain.pop_back();
    used[i] = false;
  }
}

Action Heuristic(const SeatView& view, Rng& rng) {
  const std::vector<Action> legal = view.LegalActions();
  std::vector<const Action*> plays;
  for (const Action& action : legal) {
    if (action.kind == ActionKind::kPlay) plays.push_back(&action);
  }
  if (plays.empty()) {
    // Nothing fits: draw, pass or end the first turn, whichever the rules leave.
    return legal[rng.Below(static_cast<uint32_t>(legal.size()))];
  }
  const std::vector<TileId> chain = LongestChain(view.hand(), view.train(view.seat()).end);
  const Action* best = nullptr;
  int best_score = 0;
  for (const Action* play : plays) {
    const Domino domino = DominoOf(play->tile);
    const bool in_chain = std::find(chain.begin(), chain.end(), play->tile) != chain.end();
    int score = domino.Pips();
    if (play->train == view.seat()) {
      // On its own train: the chain's next tile keeps the chain whole.
      score += !chain.empty() && play->tile == chain.front() ? 100 : 0;
    } else if (in_chain) {
      score -= 50;  // a tile the chain needs, played elsewhere
    }
    if (domino.IsDouble()) {
      const bool can_follow = std::any_of(view.hand().begin(), view.hand().end(), [&](TileId t) {
        return t != play->tile && DominoOf(t).Has(domino.low);
      });
      score += can_follow ? 40 : -40;
    }
    if (best == nullptr || score > best_score) {
      best = play;
      best_score = score;
    }
  }
  return *best;
}

}  // namespace

std::vector<TileId> LongestChain(const std::vector<TileId>& hand, int end) {
  ByPip by_pip;
  for (size_t i = 0; i < hand.size() && i < 255; ++i) {
    const Domino domino = DominoOf(hand[i]);
    auto add = [&](int pip) {
      if (by_pip.count[pip] < 16) by_pip.index[pip][by_pip.count[pip]++] = static_cast<uint8_t>(i);
    };
    add(domino.low);
    if (!domino.IsDouble()) add(domino.high);  // a double is listed once
  }
  std::vector<bool> used(hand.size(), false);
  std::vector<TileId> chain;
  std::vector<TileId> best;
  int best_pips = 0;
  int budget = 2000;
  Extend(hand, by_pip, used, end, chain, 0, best, best_pips, budget);
  return best;
}

Action ChooseAction(BotKind kind, const SeatView& view, Rng& rng) {
  if (kind == BotKind::kHeuristic) return Heuristic(view, rng);
  const std::vector<Action> legal = view.LegalActions();
  return legal[rng.Below(static_cast<uint32_t>(legal.size()))];
}

}  // namespace kahve::engine::mexican_train

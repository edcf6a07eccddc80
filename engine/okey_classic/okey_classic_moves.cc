#include "engine/okey_classic/okey_classic_moves.h"

#include <algorithm>
#include <cstdlib>

#include "absl/strings/str_cat.h"
#include "engine/okey/okey_arrangement.h"

namespace kahve::engine::okey_classic {
namespace {

using okey::Jokers;

okey::FaceCounts Faces(const std::vector<Tile>& tiles, const Jokers& jokers) {
  okey::FaceCounts faces;
  for (const Tile tile : tiles) faces.Add(tile, jokers);
  return faces;
}

// Every win `hand` (15 tiles) holds: a discard and how the other 14 show.
std::vector<WinClaim> Wins(const std::vector<Tile>& hand, const Jokers& jokers) {
  std::vector<WinClaim> wins;
  const std::array<uint8_t, kCodes> codes = okey::CountCodes(hand);
  // One search rules most hands out: a win leaves at most one tile of the 15 outside runs and
  // sets, or holds seven pairs.
  const bool melds = okey::FindCovering(Faces(hand, jokers), 1, nullptr);
  const bool pairs = okey::MaxPairs(codes, jokers).size() >= 7;
  if (!melds && !pairs) return wins;
  for (int c = 0; c < kCodes; ++c) {
    if (codes[c] == 0) continue;
    std::vector<Tile> shown = hand;
    shown.erase(
        std::find_if(shown.begin(), shown.end(), [&](Tile tile) { return CodeOf(tile) == c; }));
    if (melds && IsMeldWin(shown, jokers)) wins.push_back({.discard = static_cast<Code>(c)});
    if (pairs && IsSevenPairs(shown, jokers)) {
      wins.push_back({.discard = static_cast<Code>(c), .seven_pairs = true});
    }
  }
  return wins;
}

// The win worth most: an okey discarded doubles, seven pairs double.
int WinWorth(const WinClaim& win, const Jokers& jokers) {
  return (jokers.IsWild(okey::SampleTile(win.discard)) ? 2 : 1) * (win.seven_pairs ? 2 : 1);
}

const WinClaim& BestWin(const std::vector<WinClaim>& wins, const Jokers& jokers) {
  return *std::max_element(wins.begin(), wins.end(), [&](const WinClaim& a, const WinClaim& b) {
    return WinWorth(a, jokers) < WinWorth(b, jokers);
  });
}

int TilesInMelds(const std::vector<Tile>& hand, const Jokers& jokers) {
  return okey::BestArrangement(Faces(hand, jokers), okey::ArrangementGoal::kMostTiles)
      .tiles_in_melds;
}

// The discard that helps the hand least: a tile its tidiest arrangement leaves loose, with the
// fewest tiles of its colour close by or of its number, the higher number first; never an okey
// while another tile will do.
Code LeastUseful(const std::vector<Tile>& hand, const Jokers& jokers) {
  const okey::Arrangement tidy =
      okey::BestArrangement(Faces(hand, jokers), okey::ArrangementGoal::kMostTiles);
  std::array<uint8_t, kCodes> loose{};
  for (int face = 0; face < okey::kFaces; ++face) {
    loose[okey::CodePlayingAs(static_cast<Face>(face), jokers)] += tidy.loose.count[face];
  }
  Code best = CodeOf(hand.front());
  int best_score = 0;
  bool found = false;
  for (const Tile tile : hand) {
    const Code code = CodeOf(tile);
    const bool wild = jokers.IsWild(tile);
    const Face face = jokers.PlaysAs(tile);
    int score = (wild ? 100000 : 0) + (loose[code] > 0 ? 0 : 1000) - okey::NumberOf(face);
    for (const Tile other : hand) {
      if (other == tile || jokers.IsWild(other)) continue;
      const Face other_face = jokers.PlaysAs(other);
      const int gap = std::abs(okey::NumberOf(other_face) - okey::NumberOf(face));
      if (okey::ColourOf(other_face) == okey::ColourOf(face)) {
        score += gap == 0 ? 2 : gap == 1 ? 6 : gap == 2 ? 3 : 0;
      } else if (gap == 0) {
        score += 4;
      }
    }
    if (!found || score < best_score) {
      best = code;
      best_score = score;
      found = true;
    }
  }
  return best;
}

Action HeuristicAction(const SeatView& view) {
  const Jokers& jokers = view.jokers();
  if (view.may_show_indicator()) return {.kind = ActionKind::kShowIndicator};
  if (!view.drawn()) {
    const std::optional<Tile> taken = view.takeable();
    if (taken.has_value()) {
      std::vector<Tile> with_taken = view.hand();
      with_taken.push_back(*taken);
      const std::vector<WinClaim> wins = Wins(with_taken, jokers);
      if (!wins.empty()) {
        return {.kind = ActionKind::kTakeDiscard, .with_win = true, .win = BestWin(wins, jokers)};
      }
      if (view.deck_count() > 0 &&
          TilesInMelds(with_taken, jokers) > TilesInMelds(view.hand(), jokers)) {
        return {.kind = ActionKind::kTakeDiscard};
      }
    }
    return {.kind = ActionKind::kDraw};
  }
  const std::vector<WinClaim> wins = Wins(view.hand(), jokers);
  if (!wins.empty()) return {.kind = ActionKind::kWin, .win = BestWin(wins, jokers)};
  return {.kind = ActionKind::kDiscard, .tile = LeastUseful(view.hand(), jokers)};
}

}  // namespace

std::vector<Action> LegalActions(const SeatView& view) {
  std::vector<Action> actions;
  if (view.may_show_indicator()) actions.push_back({.kind = ActionKind::kShowIndicator});
  if (!view.to_act()) return actions;
  const Jokers& jokers = view.jokers();
  if (!view.drawn()) {
    actions.push_back({.kind = ActionKind::kDraw});
    const std::optional<Tile> taken = view.takeable();
    if (!taken.has_value()) return actions;
    if (view.deck_count() > 0) actions.push_back({.kind = ActionKind::kTakeDiscard});
    std::vector<Tile> with_taken = view.hand();
    with_taken.push_back(*taken);
    for (WinClaim& win : Wins(with_taken, jokers)) {
      actions.push_back(
          {.kind = ActionKind::kTakeDiscard, .with_win = true, .win = std::move(win)});
    }
    return actions;
  }
  const std::array<uint8_t, kCodes> codes = okey::CountCodes(view.hand());
  for (int c = 0; c < kCodes; ++c) {
    if (codes[c] > 0)
      actions.push_back({.kind = ActionKind::kDiscard, .tile = static_cast<Code>(c)});
  }
  for (WinClaim& win : Wins(view.hand(), jokers)) {
    actions.push_back({.kind = ActionKind::kWin, .win = std::move(win)});
  }
  return actions;
}

Action ChooseAction(BotKind kind, const SeatView& view, Rng& rng) {
  if (kind == BotKind::kHeuristic) return HeuristicAction(view);
  std::vector<Action> legal = LegalActions(view);
  return std::move(legal[rng.Below(static_cast<uint32_t>(legal.size()))]);
}

}  // namespace kahve::engine::okey_classic

#include "engine/okey_laying/okey_laying_bots.h"

#include <algorithm>
#include <cstdlib>

#include "absl/strings/str_cat.h"

namespace kahve::engine::okey_laying {
namespace {

using okey::FaceCounts;
using okey::Jokers;

bool Holds(const std::vector<std::vector<PlacedTile>>& melds, Code code) {
  for (const auto& meld : melds) {
    for (const PlacedTile& placed : meld) {
      if (CodeOf(placed.tile) == code) return true;
    }
  }
  return false;
}

// The heuristic's use of the discard it may take, if it has one.
std::optional<Action> BestTake(const SeatView& view, Tile taken) {
  const Jokers& jokers = view.jokers();
  const Code code = CodeOf(taken);
  std::array<uint8_t, kCodes> codes = CountCodes(view.hand());
  ++codes[code];
  FaceCounts faces = CountFaces(view.hand(), jokers);
  faces.Add(taken, jokers);
  const int size = static_cast<int>(view.hand().size()) + 1;
  switch (view.opened(view.seat())) {
    case Opened::kMelds: {
      std::optional<Action> best;
      for (size_t m = 0; m < view.table().size() && size >= 2; ++m) {
        const TableMeld& target = view.table()[m];
        if (target.pair) continue;
        for (const AddPlace place : okey::PlacesFor(target.meld, taken, jokers)) {
          Action add;
          add.addition = {code, static_cast<int>(m), place};
          // An opponent's meld is best: its owner pays for the addition.
          if (!best.has_value() || !view.Partners(view.seat(), target.owner)) {
            best = AsLay(ActionKind::kAddTile, add, true);
          }
        }
      }
      if (best.has_value()) return best;
      std::vector<std::vector<PlacedTile>> melds = SingleMelds(faces, jokers, code);
      std::erase_if(melds,
                    [&](const auto& meld) { return static_cast<int>(meld.size()) > size - 1; });
      if (melds.empty()) return std::nullopt;
      auto longest = std::max_element(melds.begin(), melds.end(), [](const auto& a, const auto& b) {
        return a.size() < b.size();
      });
      Action lay;
      lay.melds.push_back(*longest);
      return AsLay(ActionKind::kLayMelds, std::move(lay), true);
    }
    case Opened::kNo: {
      int sum = 0;
      std::vector<std::vector<PlacedTile>> opening =
          BestOpening(faces, jokers, &sum, view.OpeningNeeds());
      if (!opening.empty() && sum >= view.OpeningNeeds() && Holds(opening, code)) {
        Action lay;
        lay.melds = std::move(opening);
        return AsLay(ActionKind::kLayMelds, std::move(lay), true);
      }
      std::vector<std::array<Code, 2>> pairs = PairsKeepingATile(codes, size, jokers);
      const bool holds = std::any_of(pairs.begin(), pairs.end(), [&](const auto& pair) {
        return pair[0] == code || pair[1] == code;
      });
      if (static_cast<int>(pairs.size()) >= kPairsToOpen + 1 && holds) {
        Action lay;
        lay.pairs = std::move(pairs);
        return AsLay(ActionKind::kLayPairs, std::move(lay), true);
      }
      return std::nullopt;
    }
    case Opened::kPairs: {
      if (size < 3) return std::nullopt;
      const Code okey = jokers.okey();
      Action lay;
      if (code != okey && codes[code] >= 2) {
        lay.pairs.push_back({code, code});
      } else if (code != okey && codes[okey] >= 1) {
        lay.pairs.push_back({code, okey});
      } else {
        return std::nullopt;
      }
      return AsLay(ActionKind::kLayPairs, std::move(lay), true);
    }
  }
  return std::nullopt;
}

// Takes a tile out of a covering arrangement so the hand keeps one to discard: an okey at a run's
// end or in a set of four first (the okey finish), else an end of a longer run or a set's fourth.
// Returns false when every meld is exactly three tiles.
bool FreeATile(okey::Arrangement& arrangement) {
  for (int pass = 0; pass < 2; ++pass) {
    const bool wild_only = pass == 0;
    for (int i = 0; i < arrangement.meld_count; ++i) {
      Meld& meld = arrangement.melds[i];
      if (meld.Size() < 4) continue;
      if (meld.kind == MeldKind::kSet) {
        if (meld.wilds > 0) {
          --meld.wilds;
          meld.named_colours = 0;
          return true;
        }
        if (wild_only) continue;
        for (int colour = 0; colour < okey::kColours; ++colour) {
          if ((meld.real_colours >> colour & 1u) != 0) {
            meld.real_colours &= static_cast<uint8_t>(~(1u << colour));
            return true;
          }
        }
      }
      const bool wild_high = (meld.wild_positions >> meld.high & 1u) != 0;
      const bool wild_low = (meld.wild_positions >> meld.low & 1u) != 0;
      if (wild_only && !wild_high && !wild_low) continue;
      const bool drop_high = wild_only ? wild_high : true;
      const int position = drop_high ? meld.high : meld.low;
      if ((meld.wild_positions >> position & 1u) != 0) {
        meld.wild_positions &= static_cast<uint16_t>(~(1u << position));
        --meld.wilds;
      }
      if (drop_high) {
        --meld.high;
      } else {
        ++meld.low;
      }
      return true;
    }
  }
  return false;
}

// The melds of the hand's tidiest arrangement that may be laid now (a tile kept back) and their
// sum.
std::vector<std::vector<PlacedTile>> TidyMelds(const std::vector<Tile>& hand, const Jokers& jokers,
                                               int* sum) {
  okey::Arrangement tidy =
      okey::BestArrangement(CountFaces(hand, jokers), okey::ArrangementGoal::kMostTiles);
  if (tidy.meld_count > 0 && tidy.tiles_in_melds == static_cast<int>(hand.size()) &&
      !FreeATile(tidy)) {
    --tidy.meld_count;  // the last meld waits a turn
  }
  std::vector<std::vector<PlacedTile>> melds;
  *sum = 0;
  for (int i = 0; i < tidy.meld_count; ++i) {
    melds.push_back(okey::TilesOf(tidy.melds[i], jokers));
    *sum += tidy.melds[i].Value();
  }
  return melds;
}

// Removes one tile of each laid tile's code from `hand`.
void RemoveLaid(const std::vector<PlacedTile>& tiles, std::vector<Tile>& hand) {
  for (const PlacedTile& placed : tiles) {
    const Code code = CodeOf(placed.tile);
    auto it = std::find_if(hand.begin(), hand.end(), [&](Tile t) { return CodeOf(t) == code; });
    if (it != hand.end()) hand.erase(it);
  }
}

// How much `code` is worth keeping in `hand` (higher: keep).
int KeepScore(Code code, const std::vector<Tile>& hand, const std::array<uint8_t, kCodes>& kept,
              const std::array<uint8_t, kCodes>& codes, const std::vector<Meld>& table,
              const SeatView& view, bool opened, bool finishing) {
  const Jokers& jokers = view.jokers();
  const Tile sample = SampleTile(code);
  if (jokers.IsWild(sample)) return 100000;
  int score = 0;
  if (!finishing) {
    for (const Meld& meld : table) {
      for (const AddPlace place : okey::PlacesFor(meld, sample, jokers)) {
        if (place != AddPlace::kReplaceWild) score += 10000;  // a penalty tile
      }
      if (score > 0) break;
    }
  }
  if (kept[code] >= codes[code]) score += 1000;
  const Face face = jokers.PlaysAs(sample);
  // One tile away from fitting a run on the table.
  for (const Meld& meld : table) {
    if (meld.kind != MeldKind::kRun || okey::ColourOf(face) != meld.colour) continue;
    const int number = okey::NumberOf(face);
    if (number == meld.low - 2 || number == meld.high + 2 || (number == 1 && meld.high == 12)) {
      score += 8;
    }
  }
  for (const Tile other : hand) {
    if (jokers.IsWild(other)) continue;
    const Face other_face = jokers.PlaysAs(other);
    if (other_face == face) {
      score += opened ? 0 : 2;
      continue;
    }
    const int gap = std::abs(okey::NumberOf(other_face) - okey::NumberOf(face));
    if (okey::ColourOf(other_face) == okey::ColourOf(face)) {
      score += gap == 1 ? 6 : gap == 2 ? 3 : 0;
    } else if (gap == 0) {
      score += 4;
    }
  }
  // Before opening high numbers help reach the opening; after it they only cost at the end.
  score += opened ? -okey::NumberOf(face) : okey::NumberOf(face);
  // The next player has thrown this face away before: it is not building with it.
  const int next = (view.seat() + 1) % kPlayers;
  for (const Tile thrown : view.discards(next)) {
    if (CodeOf(thrown) == code) {
      score -= 3;
      break;
    }
  }
  return score;
}

// Plans additions of the hand's loose tiles (never its okeys) that fit a run or set on the table,
// an opponent's meld first (okey51: its owner pays), while two tiles or more are left.
void AddLooseTiles(const SeatView& view, std::vector<TableMeld>& table, std::vector<Tile>& hand,
                   std::vector<Action>& plan) {
  const Jokers& jokers = view.jokers();
  for (bool changed = true; changed && hand.size() >= 2;) {
    changed = false;
    for (size_t h = 0; h < hand.size() && !changed; ++h) {
      const Tile tile = hand[h];
      if (jokers.IsWild(tile)) continue;
      int best_meld = -1;
      AddPlace best_place = AddPlace::kRunLow;
      for (size_t m = 0; m < table.size(); ++m) {
        if (table[m].pair) continue;
        for (const AddPlace place : okey::PlacesFor(table[m].meld, tile, jokers)) {
          if (place == AddPlace::kReplaceWild) continue;
          if (best_meld < 0 || !view.Partners(view.seat(), table[m].owner)) {
            best_meld = static_cast<int>(m);
            best_place = place;
          }
        }
      }
      if (best_meld < 0) continue;
      Action add;
      add.addition = {CodeOf(tile), best_meld, best_place};
      plan.push_back(AsLay(ActionKind::kAddTile, add, false));
      table[best_meld].meld = okey::WithTile(table[best_meld].meld, tile, best_place, jokers);
      hand.erase(hand.begin() + static_cast<std::ptrdiff_t>(h));
      changed = true;
    }
  }
}

std::vector<Action> PlanAfterDraw(const SeatView& view) {
  const Jokers& jokers = view.jokers();
  const Tile okey_tile = SampleTile(jokers.okey());
  std::vector<Action> plan;
  std::vector<Tile> hand = view.hand();
  Opened opened = view.opened(view.seat());
  std::vector<TableMeld> table = view.table();
  std::array<uint8_t, kCodes> kept{};

  if (opened == Opened::kNo) {
    // The opening that leaves the fewest tiles, when it is enough; else the highest one.
    int tidy_sum = 0;
    const std::vector<std::vector<PlacedTile>> tidy = TidyMelds(hand, jokers, &tidy_sum);
    int sum = tidy_sum;
    std::vector<std::vector<PlacedTile>> opening = tidy;
    if (sum < view.OpeningNeeds()) {
      opening = BestOpening(CountFaces(hand, jokers), jokers, &sum, view.OpeningNeeds());
    }
    if (!opening.empty() && sum >= view.OpeningNeeds()) {
      for (const auto& tiles : opening) {
        RemoveLaid(tiles, hand);
        table.push_back({.owner = view.seat(), .meld = okey::CheckMeld(tiles, jokers).meld});
      }
      Action lay;
      lay.melds = std::move(opening);
      plan.push_back(AsLay(ActionKind::kLayMelds, std::move(lay), false));
      opened = Opened::kMelds;
    } else {
      const std::vector<std::array<Code, 2>> pairs =
          PairsKeepingATile(CountCodes(hand), static_cast<int>(hand.size()), jokers);
      if (static_cast<int>(pairs.size()) >= kPairsToOpen + 1) {
        Action lay;
        lay.pairs = pairs;
        for (const auto& [a, b] : pairs) RemoveLaid({{SampleTile(a)}, {SampleTile(b)}}, hand);
        plan.push_back(AsLay(ActionKind::kLayPairs, std::move(lay), false));
        opened = Opened::kPairs;
      } else {
        // Not opening yet: keep what builds towards it, the tidiest melds.
        for (const auto& tiles : tidy) {
          for (const PlacedTile& placed : tiles) ++kept[CodeOf(placed.tile)];
        }
      }
    }
  }

  if (opened == Opened::kMelds) {
    // Okeys out of the table with the real tile.
    for (bool changed = true; changed;) {
      changed = false;
      for (size_t m = 0; m < table.size() && !changed; ++m) {
        if (table[m].pair || table[m].meld.wilds == 0) continue;
        for (const Tile tile : hand) {
          if (jokers.IsWild(tile)) continue;
          const auto places = okey::PlacesFor(table[m].meld, tile, jokers);
          if (!places.Has(AddPlace::kReplaceWild)) continue;
          Action add;
          add.addition = {CodeOf(tile), static_cast<int>(m), AddPlace::kReplaceWild};
          plan.push_back(AsLay(ActionKind::kAddTile, add, false));
          table[m].meld = okey::WithTile(table[m].meld, tile, AddPlace::kReplaceWild, jokers);
          RemoveLaid({{tile}}, hand);
          hand.push_back(okey_tile);
          changed = true;
          break;
        }
      }
    }
    // The tidiest arrangement's melds, keeping a tile back.
    int sum = 0;
    std::vector<std::vector<PlacedTile>> melds = TidyMelds(hand, jokers, &sum);
    if (!melds.empty()) {
      for (const auto& tiles : melds) {
        RemoveLaid(tiles, hand);
        table.push_back({.owner = view.seat(), .meld = okey::CheckMeld(tiles, jokers).meld});
      }
      Action lay;
      lay.melds = std::move(melds);
      plan.push_back(AsLay(ActionKind::kLayMelds, std::move(lay), false));
    }
    AddLooseTiles(view, table, hand, plan);
    // Two tiles left and the other fits nowhere: an okey goes on the table and the other tile
    // finishes (-500 beats waiting for the okey finish that may never come).
    if (hand.size() == 2 && jokers.IsWild(hand[0]) != jokers.IsWild(hand[1])) {
      const size_t wild = jokers.IsWild(hand[0]) ? 0 : 1;
      for (size_t m = 0; m < table.size(); ++m) {
        if (table[m].pair) continue;
        const auto places = okey::PlacesFor(table[m].meld, hand[wild], jokers);
        if (places.empty()) continue;
        Action add;
        add.addition = {CodeOf(hand[wild]), static_cast<int>(m), places.front()};
        plan.push_back(AsLay(ActionKind::kAddTile, add, false));
        hand.erase(hand.begin() + static_cast<std::ptrdiff_t>(wild));
        break;
      }
    }
  } else if (opened == Opened::kPairs) {
    const std::vector<std::array<Code, 2>> pairs =
        PairsKeepingATile(CountCodes(hand), static_cast<int>(hand.size()), jokers);
    if (!pairs.empty()) {
      Action lay;
      lay.pairs = pairs;
      for (const auto& [a, b] : pairs) RemoveLaid({{SampleTile(a)}, {SampleTile(b)}}, hand);
      plan.push_back(AsLay(ActionKind::kLayPairs, std::move(lay), false));
    }
    if (view.rules().pairs_openers_add) AddLooseTiles(view, table, hand, plan);
  }

  std::vector<Meld> runs_and_sets;
  for (const TableMeld& laid : table) {
    if (!laid.pair) runs_and_sets.push_back(laid.meld);
  }
  const std::array<uint8_t, kCodes> codes = CountCodes(hand);
  const bool finishing = hand.size() == 1;
  Code discard = CodeOf(hand.front());
  int lowest = 0;
  bool first = true;
  for (int c = 0; c < kCodes; ++c) {
    if (codes[c] == 0) continue;
    const int score = KeepScore(static_cast<Code>(c), hand, kept, codes, runs_and_sets, view,
                                opened != Opened::kNo, finishing);
    if (first || score < lowest) {
      discard = static_cast<Code>(c);
      lowest = score;
      first = false;
    }
  }
  plan.push_back({.kind = ActionKind::kDiscard, .tile = discard});
  return plan;
}

}  // namespace

std::vector<Action> PlanHeuristic(const SeatView& view) {
  if (!view.drawn()) {
    const std::optional<Tile> taken = view.takeable();
    if (taken.has_value()) {
      std::optional<Action> take = BestTake(view, *taken);
      if (take.has_value()) return {std::move(*take)};
    }
    return {Action{.kind = ActionKind::kDraw}};
  }
  return PlanAfterDraw(view);
}

Action ChooseRandom(const SeatView& view, Rng& rng) {
  // Rejection sampling over the slots of LegalActions: the draw or each discard, the lays of a
  // seat that opened, and the opening slots, whose search runs only when its slot is drawn; a
  // slot with no opening draws again. Every legal action is as likely as with the whole list,
  // which always holds the draw or a discard.
  const LegalSlots slots(view);
  const uint32_t listed = static_cast<uint32_t>(slots.listed());
  const uint32_t total = listed + static_cast<uint32_t>(slots.openings());
  std::array<bool, kOpeningSlots> none{};
  while (true) {
    const uint32_t drawn = rng.Below(total);
    if (drawn < listed) return slots.ListedAt(static_cast<int>(drawn));
    const int slot = static_cast<int>(drawn - listed);
    if (none[slot]) continue;
    if (std::optional<Action> opening = slots.OpeningAt(slot)) return std::move(*opening);
    none[slot] = true;
  }
}

Action ChooseAction(BotKind kind, const SeatView& view, Rng& rng) {
  if (kind == BotKind::kRandom) return ChooseRandom(view, rng);
  return std::move(PlanHeuristic(view).front());
}

}  // namespace kahve::engine::okey_laying

#include "engine/okey51/okey51_moves.h"

#include <algorithm>

namespace kahve::engine::okey51 {
namespace {

using okey::FaceCounts;
using okey::Jokers;

bool Holds(const std::vector<PlacedTile>& tiles, Code code) {
  return std::any_of(tiles.begin(), tiles.end(),
                     [&](const PlacedTile& placed) { return CodeOf(placed.tile) == code; });
}

// The single pairs of `codes` (ascending; the okey second), each once.
std::vector<std::array<Code, 2>> SinglePairs(const std::array<uint8_t, kCodes>& codes,
                                             const Jokers& jokers, std::optional<Code> must_hold) {
  const Code okey = jokers.okey();
  std::vector<std::array<Code, 2>> pairs;
  for (int c = 0; c < kCodes; ++c) {
    const Code code = static_cast<Code>(c);
    if (code == okey || codes[code] == 0) continue;
    if (codes[code] >= 2) pairs.push_back({code, code});
    if (codes[okey] >= 1) pairs.push_back({code, okey});
  }
  if (codes[okey] >= 2) pairs.push_back({okey, okey});
  if (must_hold.has_value()) {
    std::erase_if(pairs, [&](const std::array<Code, 2>& pair) {
      return pair[0] != *must_hold && pair[1] != *must_hold;
    });
  }
  return pairs;
}

bool PairsHold(const std::vector<std::array<Code, 2>>& pairs, Code code) {
  return std::any_of(pairs.begin(), pairs.end(), [&](const std::array<Code, 2>& pair) {
    return pair[0] == code || pair[1] == code;
  });
}

// Lays from `codes` (`size` tiles) for a seat opened as `opened`; `must_hold` for a take's use.
// Appends them as actions of `kind` (a take when `take` is set).
void AddLays(const SeatView& view, const std::array<uint8_t, kCodes>& codes,
             const FaceCounts& faces, int size, std::optional<Code> must_hold, bool take,
             std::vector<Action>* out) {
  const Jokers& jokers = view.jokers();
  const Opened opened = view.opened(view.seat());
  auto push = [&](ActionKind kind, Action action) {
    if (take) {
      action.use = kind;
      action.kind = ActionKind::kTakeDiscard;
    } else {
      action.kind = kind;
    }
    out->push_back(std::move(action));
  };
  if (opened == Opened::kMelds) {
    for (int c = 0; c < kCodes; ++c) {
      const Code code = static_cast<Code>(c);
      if (codes[code] == 0 || (must_hold.has_value() && code != *must_hold)) continue;
      for (size_t m = 0; m < view.table().size(); ++m) {
        const TableMeld& target = view.table()[m];
        if (target.pair) continue;
        for (const AddPlace place : okey::PlacesFor(target.meld, SampleTile(code), jokers)) {
          if (place != AddPlace::kReplaceWild && size < 2) continue;
          Action action;
          action.addition = {code, static_cast<int>(m), place};
          push(ActionKind::kAddTile, std::move(action));
        }
      }
    }
    for (std::vector<PlacedTile>& meld : SingleMelds(faces, jokers, must_hold)) {
      if (static_cast<int>(meld.size()) > size - 1) continue;
      Action action;
      action.melds.push_back(std::move(meld));
      push(ActionKind::kLayMelds, std::move(action));
    }
  } else if (opened == Opened::kPairs) {
    if (size >= 3) {
      for (const auto& pair : SinglePairs(codes, jokers, must_hold)) {
        Action action;
        action.pairs.push_back(pair);
        push(ActionKind::kLayPairs, std::move(action));
      }
    }
  } else {
    int sum = 0;
    std::vector<std::vector<PlacedTile>> opening = BestOpening(faces, jokers, &sum);
    if (!opening.empty() && sum >= view.OpeningNeeds() &&
        (!must_hold.has_value() ||
         std::any_of(opening.begin(), opening.end(),
                     [&](const auto& meld) { return Holds(meld, *must_hold); }))) {
      Action action;
      action.melds = std::move(opening);
      push(ActionKind::kLayMelds, std::move(action));
    }
    std::vector<std::array<Code, 2>> pairs = okey::MaxPairs(codes, jokers);
    // Keep a tile to discard: with every tile paired, the last pair stays in the hand.
    if (2 * static_cast<int>(pairs.size()) > size - 1) pairs.pop_back();
    if (static_cast<int>(pairs.size()) >= kPairsToOpen &&
        (!must_hold.has_value() || PairsHold(pairs, *must_hold))) {
      Action action;
      action.pairs = std::move(pairs);
      push(ActionKind::kLayPairs, std::move(action));
    }
  }
}

}  // namespace

FaceCounts CountFaces(const std::vector<Tile>& tiles, const Jokers& jokers) {
  FaceCounts counts;
  for (const Tile tile : tiles) counts.Add(tile, jokers);
  return counts;
}

std::vector<std::vector<PlacedTile>> SingleMelds(const FaceCounts& hand, const Jokers& jokers,
                                                 std::optional<Code> must_hold) {
  std::vector<std::vector<PlacedTile>> melds;
  auto emit = [&](const Meld& meld) {
    std::vector<PlacedTile> tiles = okey::TilesOf(meld, jokers);
    if (!must_hold.has_value() || Holds(tiles, *must_hold)) melds.push_back(std::move(tiles));
  };
  for (int colour = 0; colour < okey::kColours; ++colour) {
    for (int low = 1; low <= okey::kNumbers - 1; ++low) {
      Meld run{.kind = MeldKind::kRun, .colour = colour, .low = low};
      int missing = 0;
      for (int high = low; high <= okey::kHighOne && high - low < okey::kNumbers; ++high) {
        if (low == 1 && high == okey::kHighOne) break;
        if (hand.count[run.FaceAt(high)] == 0) {
          ++missing;
          run.wild_positions |= static_cast<uint16_t>(1u << high);
        }
        if (missing > hand.wilds) break;
        if (high - low < 2) continue;
        run.high = high;
        run.wilds = missing;
        emit(run);
      }
    }
  }
  for (int number = 1; number <= okey::kNumbers; ++number) {
    uint8_t held = 0;
    for (int colour = 0; colour < okey::kColours; ++colour) {
      if (hand.count[okey::MakeFace(colour, number)] > 0)
        held |= static_cast<uint8_t>(1u << colour);
    }
    for (int subset = held; subset > 0; subset = (subset - 1) & held) {
      const int real = okey::CountColours(static_cast<uint8_t>(subset));
      for (int wilds = 0; wilds <= hand.wilds && real + wilds <= okey::kColours; ++wilds) {
        if (real + wilds < 3) continue;
        emit(Meld{.kind = MeldKind::kSet,
                  .number = number,
                  .real_colours = static_cast<uint8_t>(subset),
                  .wilds = wilds});
      }
    }
  }
  return melds;
}

std::vector<std::vector<PlacedTile>> BestOpening(const FaceCounts& hand, const Jokers& jokers,
                                                 int* sum) {
  const okey::Arrangement best = okey::BestArrangement(hand, okey::ArrangementGoal::kMostValue);
  int drop = -1;
  if (best.tiles_in_melds == hand.Total() && best.meld_count > 0) {
    drop = 0;
    for (int i = 1; i < best.meld_count; ++i) {
      if (best.melds[i].Value() < best.melds[drop].Value()) drop = i;
    }
  }
  std::vector<std::vector<PlacedTile>> melds;
  *sum = 0;
  for (int i = 0; i < best.meld_count; ++i) {
    if (i == drop) continue;
    melds.push_back(okey::TilesOf(best.melds[i], jokers));
    *sum += best.melds[i].Value();
  }
  return melds;
}

std::vector<Action> LegalActions(const SeatView& view) {
  std::vector<Action> actions;
  if (!view.to_act()) return actions;
  const Jokers& jokers = view.jokers();
  std::array<uint8_t, kCodes> codes = CountCodes(view.hand());
  const int size = static_cast<int>(view.hand().size());
  if (!view.drawn()) {
    actions.push_back({.kind = ActionKind::kDraw});
    const std::optional<Tile> taken = view.takeable();
    if (taken.has_value()) {
      ++codes[CodeOf(*taken)];
      FaceCounts faces = CountFaces(view.hand(), jokers);
      faces.Add(*taken, jokers);
      AddLays(view, codes, faces, size + 1, CodeOf(*taken), /*take=*/true, &actions);
    }
    return actions;
  }
  for (int c = 0; c < kCodes; ++c) {
    if (codes[c] > 0)
      actions.push_back({.kind = ActionKind::kDiscard, .tile = static_cast<Code>(c)});
  }
  AddLays(view, codes, CountFaces(view.hand(), jokers), size, std::nullopt, /*take=*/false,
          &actions);
  return actions;
}

}  // namespace kahve::engine::okey51

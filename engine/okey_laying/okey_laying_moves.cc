#include "engine/okey_laying/okey_laying_moves.h"

#include <algorithm>
#include <iterator>

namespace kahve::engine::okey_laying {
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

// An upper bound of the hand's best value: the numbers of the tiles that fit some meld of the
// hand (okey::InSomeMeld, here with bit masks, as it runs before every opening search), an okey
// counted as 13.
int MeldableValue(const FaceCounts& faces) {
  const int wilds = faces.wilds;
  int value = wilds * okey::kNumbers;
  // Positions of runs: 1..13, and 14 for a 1 above 13; window l holds positions l, l+1, l+2.
  constexpr uint32_t kWindows = 0x1FFEu;  // l = 1..12
  std::array<int, okey::kNumbers + 1> colours_of{};
  std::array<uint32_t, okey::kColours> held{};
  for (int colour = 0; colour < okey::kColours; ++colour) {
    for (int number = 1; number <= okey::kNumbers; ++number) {
      if (faces.count[okey::MakeFace(colour, number)] == 0) continue;
      held[colour] |= 1u << number;
      ++colours_of[number];
    }
    if ((held[colour] & 2u) != 0) held[colour] |= 1u << okey::kHighOne;
  }
  for (int colour = 0; colour < okey::kColours; ++colour) {
    const uint32_t a = held[colour];
    const uint32_t b = a >> 1;
    const uint32_t c = a >> 2;
    // Windows a run can fill with the okeys at hand: all three held, two, or any.
    const uint32_t windows = kWindows & (wilds == 0   ? a & b & c
                                         : wilds == 1 ? (a & b) | (a & c) | (b & c)
                                                      : ~0u);
    uint32_t in_run = (windows | windows << 1 | windows << 2) & a;
    if ((in_run >> okey::kHighOne & 1u) != 0) in_run |= 2u;  // 12-13-1 holds the 1
    for (int number = 1; number <= okey::kNumbers; ++number) {
      if ((a >> number & 1u) == 0) continue;
      if ((in_run >> number & 1u) != 0 || colours_of[number] + wilds >= 3) {
        value += faces.count[okey::MakeFace(colour, number)] * number;
      }
    }
  }
  return value;
}

// How many pairs MaxPairs would find, without listing them.
int PairsAtMost(const std::array<uint8_t, kCodes>& codes, const Jokers& jokers) {
  int pairs = 0;
  int singles = 0;
  for (int c = 0; c < kCodes; ++c) {
    if (c == jokers.okey()) continue;
    pairs += codes[c] / 2;
    singles += codes[c] % 2;
  }
  const int wilds = codes[jokers.okey()];
  const int with_singles = std::min(wilds, singles);
  return pairs + with_singles + (wilds - with_singles) / 2;
}

// Nothing to lay before the draw without a discard to take.
std::optional<LayPool> PoolOf(const SeatView& view) {
  LayPool pool;
  pool.codes = view.codes();
  pool.size = static_cast<int>(view.hand().size());
  if (!view.drawn()) {
    const std::optional<Tile> taken = view.takeable();
    if (!taken.has_value()) return std::nullopt;
    ++pool.codes[CodeOf(*taken)];
    ++pool.size;
    pool.must_hold = CodeOf(*taken);
    pool.take = true;
  }
  // As the arrangement search counts them: real okeys wild, fake okeys under the okey's face.
  const Code okey = view.jokers().okey();
  std::copy_n(pool.codes.begin(), okey::kFaces, pool.faces.count.begin());
  pool.faces.wilds = pool.codes[okey];
  pool.faces.count[okey] = pool.codes[okey::kFakeCode];
  return pool;
}

// Bits set in the low 16 (std::popcount is a library call without -mpopcnt).
int CountBits(uint32_t bits) {
  int count = 0;
  for (int shift = 0; shift < 16; shift += 4) {
    count += okey::CountColours(static_cast<uint8_t>(bits >> shift));
  }
  return count;
}

// Visits every run and set SingleMelds lists, as Melds (real tiles where the hand has them).
template <typename Visit>
void ForEachSingleMeld(const FaceCounts& hand, Visit visit) {
  for (int colour = 0; colour < okey::kColours; ++colour) {
    // Positions 1..13 the hand holds in this colour, and 14 for the 1 above 13.
    uint32_t held = 0;
    for (int number = 1; number <= okey::kNumbers; ++number) {
      if (hand.count[okey::MakeFace(colour, number)] > 0) held |= 1u << number;
    }
    if ((held & 2u) != 0) held |= 1u << okey::kHighOne;
    // A run needs three tiles of the colour, okeys included.
    if (CountBits(held) + hand.wilds < 3) continue;
    for (int low = 1; low <= okey::kNumbers - 1; ++low) {
      // Without okeys a run starts on a tile the hand holds.
      if (hand.wilds == 0 && (held >> low & 1u) == 0) continue;
      uint32_t missing = 0;
      int wilds = 0;
      for (int high = low; high <= okey::kHighOne && high - low < okey::kNumbers; ++high) {
        if (low == 1 && high == okey::kHighOne) break;
        if ((held >> high & 1u) == 0) {
          missing |= 1u << high;
          if (++wilds > hand.wilds) break;
        }
        if (high - low < 2) continue;
        visit(Meld{.kind = MeldKind::kRun,
                   .colour = colour,
                   .low = low,
                   .high = high,
                   .wild_positions = static_cast<uint16_t>(missing),
                   .wilds = wilds});
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
        visit(Meld{.kind = MeldKind::kSet,
                   .number = number,
                   .real_colours = static_cast<uint8_t>(subset),
                   .wilds = wilds});
      }
    }
  }
}

// Whether laying `meld` (as TilesOf lays it) uses a tile of `code`.
bool MeldHolds(const Meld& meld, Code code, const Jokers& jokers) {
  if (code == jokers.okey()) return meld.wilds > 0;
  const Face face = jokers.PlaysAs(SampleTile(code));
  if (meld.kind == MeldKind::kSet) {
    return okey::NumberOf(face) == meld.number && (meld.real_colours >> okey::ColourOf(face) & 1u);
  }
  if (okey::ColourOf(face) != meld.colour) return false;
  for (int position = meld.low; position <= meld.high; ++position) {
    if (meld.FaceAt(position) == face && (meld.wild_positions >> position & 1u) == 0) return true;
  }
  return false;
}

// The codes that may go on a meld, a bit each: what its open ends or missing colours show, what
// its okeys stand for (the real tile takes the okey out), and the okey.
uint64_t AdditionCandidates(const Meld& meld, const Jokers& jokers) {
  uint64_t codes = uint64_t{1} << jokers.okey();
  auto add = [&](Face face) { codes |= uint64_t{1} << okey::CodePlayingAs(face, jokers); };
  if (meld.kind == MeldKind::kRun) {
    if (meld.low > 1) add(meld.FaceAt(meld.low - 1));
    if (meld.high < okey::kHighOne) add(meld.FaceAt(meld.high + 1));
    for (int position = meld.low; position <= meld.high; ++position) {
      if ((meld.wild_positions >> position & 1u) != 0) add(meld.FaceAt(position));
    }
  } else {
    for (int colour = 0; colour < okey::kColours; ++colour) {
      if ((meld.real_colours >> colour & 1u) == 0) add(okey::MakeFace(colour, meld.number));
    }
  }
  return codes;
}

// One lay of a seat that has opened, before it is made an Action.
struct LayRef {
  ActionKind kind = ActionKind::kAddTile;
  Addition addition;
  Meld meld;
  std::array<Code, 2> pair{};
};

Action ToAction(const LayRef& lay, const Jokers& jokers, bool take) {
  Action action;
  if (lay.kind == ActionKind::kAddTile) action.addition = lay.addition;
  if (lay.kind == ActionKind::kLayMelds) action.melds.push_back(okey::TilesOf(lay.meld, jokers));
  if (lay.kind == ActionKind::kLayPairs) action.pairs.push_back(lay.pair);
  return AsLay(lay.kind, std::move(action), take);
}

// Visits each lay of a seat that has opened, in the canonical order: additions (by code, meld,
// place) and single melds, or single pairs. `visit` returns false to stop.
template <typename Visit>
void ForEachOpenedLay(const SeatView& view, const LayPool& pool, Visit visit) {
  const Jokers& jokers = view.jokers();
  const Opened opened = view.opened(view.seat());
  if (opened == Opened::kMelds || (opened == Opened::kPairs && view.rules().pairs_openers_add)) {
    LayRef lay{.kind = ActionKind::kAddTile};
    for (size_t m = 0; m < view.table().size(); ++m) {
      const TableMeld& target = view.table()[m];
      if (target.pair) continue;
      for (uint64_t candidates = AdditionCandidates(target.meld, jokers); candidates != 0;
           candidates &= candidates - 1) {
        const Code code = static_cast<Code>(__builtin_ctzll(candidates));
        if (pool.codes[code] == 0 || (pool.must_hold.has_value() && code != *pool.must_hold)) {
          continue;
        }
        for (const AddPlace place : okey::PlacesFor(target.meld, SampleTile(code), jokers)) {
          if (place != AddPlace::kReplaceWild && pool.size < 2) continue;
          lay.addition = {code, static_cast<int>(m), place};
          if (!visit(lay)) return;
        }
      }
    }
  }
  if (opened == Opened::kMelds) {
    LayRef lay{.kind = ActionKind::kLayMelds};
    bool more = true;
    ForEachSingleMeld(pool.faces, [&](const Meld& meld) {
      if (!more || meld.Size() > pool.size - 1) return;
      if (pool.must_hold.has_value() && !MeldHolds(meld, *pool.must_hold, jokers)) return;
      lay.meld = meld;
      more = visit(lay);
    });
  } else if (opened == Opened::kPairs && pool.size >= 3) {
    LayRef lay{.kind = ActionKind::kLayPairs};
    for (const auto& pair : SinglePairs(pool.codes, jokers, pool.must_hold)) {
      lay.pair = pair;
      if (!visit(lay)) return;
    }
  }
}

// Opening slot 0: the highest-valued runs and sets; slot 1: all the pairs.
std::optional<Action> Opening(const SeatView& view, const LayPool& pool, int slot) {
  const Jokers& jokers = view.jokers();
  Action action;
  if (slot == 0) {
    // Quick refusals before the search builds anything: the taken tile fits no meld at all, or
    // the hand's best value falls short.
    if (pool.must_hold.has_value() && !jokers.IsWild(SampleTile(*pool.must_hold)) &&
        !okey::InSomeMeld(pool.faces, jokers.PlaysAs(SampleTile(*pool.must_hold)))) {
      return std::nullopt;
    }
    if (MeldableValue(pool.faces) < view.OpeningNeeds()) return std::nullopt;
    int sum = 0;
    action.melds = BestOpening(pool.faces, jokers, &sum, view.OpeningNeeds());
    if (action.melds.empty() || sum < view.OpeningNeeds()) return std::nullopt;
    if (pool.must_hold.has_value() &&
        std::none_of(action.melds.begin(), action.melds.end(),
                     [&](const auto& meld) { return Holds(meld, *pool.must_hold); })) {
      return std::nullopt;
    }
    return AsLay(ActionKind::kLayMelds, std::move(action), pool.take);
  }
  if (PairsAtMost(pool.codes, jokers) < kPairsToOpen) return std::nullopt;
  action.pairs = PairsKeepingATile(pool.codes, pool.size, jokers);
  if (static_cast<int>(action.pairs.size()) < kPairsToOpen ||
      (pool.must_hold.has_value() && !PairsHold(action.pairs, *pool.must_hold))) {
    return std::nullopt;
  }
  return AsLay(ActionKind::kLayPairs, std::move(action), pool.take);
}

}  // namespace

Action AsLay(ActionKind kind, Action lay, bool take) {
  if (take) {
    lay.use = kind;
    lay.kind = ActionKind::kTakeDiscard;
  } else {
    lay.kind = kind;
  }
  return lay;
}

std::vector<std::array<Code, 2>> PairsKeepingATile(const std::array<uint8_t, kCodes>& codes,
                                                   int size, const Jokers& jokers) {
  std::vector<std::array<Code, 2>> pairs = okey::MaxPairs(codes, jokers);
  // With every tile paired, the last pair stays in the hand.
  while (!pairs.empty() && 2 * static_cast<int>(pairs.size()) > size - 1) pairs.pop_back();
  return pairs;
}

FaceCounts CountFaces(const std::vector<Tile>& tiles, const Jokers& jokers) {
  FaceCounts counts;
  for (const Tile tile : tiles) counts.Add(tile, jokers);
  return counts;
}

std::vector<std::vector<PlacedTile>> SingleMelds(const FaceCounts& hand, const Jokers& jokers,
                                                 std::optional<Code> must_hold) {
  std::vector<std::vector<PlacedTile>> melds;
  ForEachSingleMeld(hand, [&](const Meld& meld) {
    if (must_hold.has_value() && !MeldHolds(meld, *must_hold, jokers)) return;
    melds.push_back(okey::TilesOf(meld, jokers));
  });
  return melds;
}

std::vector<std::vector<PlacedTile>> BestOpening(const FaceCounts& hand, const Jokers& jokers,
                                                 int* sum, int min_sum) {
  *sum = 0;
  const std::optional<okey::Arrangement> reaching = okey::BestArrangementReaching(hand, min_sum);
  if (!reaching.has_value()) return {};
  const okey::Arrangement& best = *reaching;
  int drop = -1;
  if (best.tiles_in_melds == hand.Total() && best.meld_count > 0) {
    drop = 0;
    for (int i = 1; i < best.meld_count; ++i) {
      if (best.melds[i].Value() < best.melds[drop].Value()) drop = i;
    }
  }
  std::vector<std::vector<PlacedTile>> melds;
  for (int i = 0; i < best.meld_count; ++i) {
    if (i == drop) continue;
    melds.push_back(okey::TilesOf(best.melds[i], jokers));
    *sum += best.melds[i].Value();
  }
  return melds;
}

std::vector<Action> ActionsButOpenings(const SeatView& view) {
  std::vector<Action> actions;
  if (!view.to_act()) return actions;
  const LegalSlots slots(view);
  actions.reserve(static_cast<size_t>(slots.listed()));
  for (int index = 0; index < slots.listed(); ++index) actions.push_back(slots.ListedAt(index));
  return actions;
}

LegalSlots::LegalSlots(const SeatView& view) : view_(view) {
  if (!view.to_act()) return;
  pool_ = PoolOf(view);
  if (!view.drawn()) {
    first_ = 1;  // the draw
  } else {
    for (int c = 0; c < kCodes; ++c) {
      if (pool_->codes[c] > 0) held_[first_++] = static_cast<Code>(c);
    }
  }
  if (!pool_.has_value()) return;
  if (view.opened(view.seat()) == Opened::kNo) {
    openings_ = kOpeningSlots;
  } else {
    ForEachOpenedLay(view, *pool_, [&](const LayRef&) {
      ++lays_;
      return true;
    });
  }
}

Action LegalSlots::ListedAt(int index) const {
  if (index < first_) {
    if (!view_.drawn()) return {.kind = ActionKind::kDraw};
    return {.kind = ActionKind::kDiscard, .tile = held_[index]};
  }
  index -= first_;
  Action chosen;
  ForEachOpenedLay(view_, *pool_, [&](const LayRef& lay) {
    if (index-- > 0) return true;
    chosen = ToAction(lay, view_.jokers(), pool_->take);
    return false;
  });
  return chosen;
}

std::optional<Action> LegalSlots::OpeningAt(int slot) const {
  if (slot < 0 || slot >= openings_) return std::nullopt;
  return Opening(view_, *pool_, slot);
}

std::vector<Action> LegalActions(const SeatView& view) {
  std::vector<Action> actions;
  if (!view.to_act()) return actions;
  const LegalSlots slots(view);
  actions.reserve(static_cast<size_t>(slots.listed() + slots.openings()));
  for (int index = 0; index < slots.listed(); ++index) actions.push_back(slots.ListedAt(index));
  for (int slot = 0; slot < slots.openings(); ++slot) {
    if (std::optional<Action> opening = slots.OpeningAt(slot)) {
      actions.push_back(std::move(*opening));
    }
  }
  return actions;
}

}  // namespace kahve::engine::okey_laying

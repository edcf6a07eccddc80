#include "engine/okey/okey_melds.h"

namespace kahve::engine::okey {
namespace {

constexpr int kMaxRun = kNumbers;
constexpr int kMaxSet = kColours;

// A run from tiles listed low to high, each wild naming its face.
MeldCheck CheckRun(std::span<const PlacedTile> tiles, const Jokers& jokers, int colour) {
  MeldCheck check;
  Meld& run = check.meld;
  run.kind = MeldKind::kRun;
  run.colour = colour;
  // Each tile's number in order; the run's positions follow from the first.
  int previous = 0;
  for (size_t i = 0; i < tiles.size(); ++i) {
    const bool wild = jokers.IsWild(tiles[i].tile);
    const Face face = wild ? tiles[i].stands_for : jokers.PlaysAs(tiles[i].tile);
    if (wild && (tiles[i].open_colour || ColourOf(face) != colour)) {
      check.error = MeldError::kBadStandIn;
      return check;
    }
    // A 1 straight after a 13 is the high 1.
    const int position =
        i > 0 && previous == kNumbers && NumberOf(face) == 1 ? kHighOne : NumberOf(face);
    if (i > 0 && position != previous + 1) {
      check.error = previous == kHighOne ? MeldError::kRunWraps : MeldError::kNotConsecutive;
      return check;
    }
    if (i == 0) run.low = position;
    if (wild) {
      run.wild_positions |= static_cast<uint16_t>(1u << position);
      ++run.wilds;
    }
    previous = position;
  }
  run.high = previous;
  if (run.low == 1 && run.high == kHighOne) check.error = MeldError::kRunWraps;
  return check;
}

MeldCheck CheckSet(std::span<const PlacedTile> tiles, const Jokers& jokers, int number) {
  MeldCheck check;
  Meld& set = check.meld;
  set.kind = MeldKind::kSet;
  set.number = number;
  if (tiles.size() > kMaxSet) {
    check.error = MeldError::kTooManyTiles;
    return check;
  }
  for (const PlacedTile& placed : tiles) {
    if (!jokers.IsWild(placed.tile)) {
      const uint8_t bit = static_cast<uint8_t>(1u << ColourOf(jokers.PlaysAs(placed.tile)));
      if ((set.real_colours & bit) != 0) check.error = MeldError::kRepeatedColour;
      set.real_colours |= bit;
    }
  }
  for (const PlacedTile& placed : tiles) {
    if (!jokers.IsWild(placed.tile)) continue;
    ++set.wilds;
    if (placed.open_colour) continue;
    const uint8_t bit = static_cast<uint8_t>(1u << ColourOf(placed.stands_for));
    if (NumberOf(placed.stands_for) != number) {
      check.error = MeldError::kBadStandIn;
    } else if (((set.real_colours | set.named_colours) & bit) != 0) {
      check.error = MeldError::kRepeatedColour;
    }
    set.named_colours |= bit;
  }
  return check;
}

}  // namespace

const char* MeldErrorText(MeldError error) {
  switch (error) {
    case MeldError::kNone:
      return "a valid meld";
    case MeldError::kTooFewTiles:
      return "fewer than 3 tiles";
    case MeldError::kTooManyTiles:
      return "a set of more than 4 tiles or a run of more than 13";
    case MeldError::kNotARunOrSet:
      return "neither one colour nor one number";
    case MeldError::kNotConsecutive:
      return "a run with a gap or not listed low to high";
    case MeldError::kRunWraps:
      return "a run may not wrap (13-1-2) or use 1 both low and high";
    case MeldError::kRepeatedColour:
      return "a set with a colour twice";
    case MeldError::kBadStandIn:
      return "an okey standing for a tile the meld cannot use there (in a run each okey names its "
             "tile)";
  }
  return "an invalid meld";
}

MeldCheck CheckMeld(std::span<const PlacedTile> tiles, const Jokers& jokers) {
  MeldCheck check;
  if (tiles.size() < 3) {
    check.error = MeldError::kTooFewTiles;
    return check;
  }
  // The real tiles decide between run and set: one colour, or one number.
  int colour = -1;
  int number = -1;
  bool one_colour = true;
  bool one_number = true;
  for (const PlacedTile& placed : tiles) {
    if (jokers.IsWild(placed.tile)) continue;
    const Face face = jokers.PlaysAs(placed.tile);
    if (colour >= 0 && ColourOf(face) != colour) one_colour = false;
    if (number >= 0 && NumberOf(face) != number) one_number = false;
    colour = ColourOf(face);
    number = NumberOf(face);
  }
  // Only wilds is impossible with three tiles and two okeys, but a caller may pass anything.
  if (colour < 0) {
    check.error = MeldError::kNotARunOrSet;
    return check;
  }
  // Real tiles of one face (R5, or R5 with okeys) read as a set unless a wild names another
  // number, which makes it a run.
  bool wild_names_other_number = false;
  for (const PlacedTile& placed : tiles) {
    if (jokers.IsWild(placed.tile) && !placed.open_colour &&
        NumberOf(placed.stands_for) != number) {
      wild_names_other_number = true;
    }
  }
  if (one_number && !(one_colour && wild_names_other_number)) {
    return CheckSet(tiles, jokers, number);
  }
  if (!one_colour) {
    check.error = MeldError::kNotARunOrSet;
    return check;
  }
  if (tiles.size() > kMaxRun) {
    check.error = MeldError::kTooManyTiles;
    return check;
  }
  return CheckRun(tiles, jokers, colour);
}

bool IsOneMeld(const FaceCounts& tiles) {
  const int size = tiles.Total();
  if (size < 3 || size > kMaxRun) return false;
  int colour = -1;
  int number = -1;
  bool one_colour = true;
  bool one_number = true;
  uint16_t numbers = 0;  // bit n: a real tile numbered n
  for (int face = 0; face < kFaces; ++face) {
    const int count = tiles.count[face];
    if (count == 0) continue;
    // A face twice fits neither a run nor a set.
    if (count > 1) return false;
    if (colour >= 0 && ColourOf(static_cast<Face>(face)) != colour) one_colour = false;
    if (number >= 0 && NumberOf(static_cast<Face>(face)) != number) one_number = false;
    colour = ColourOf(static_cast<Face>(face));
    number = NumberOf(static_cast<Face>(face));
    numbers |= static_cast<uint16_t>(1u << number);
  }
  // Distinct faces of one number are distinct colours.
  if (one_number && size <= kMaxSet) return true;
  if (!one_colour) return false;
  // A run: some `size` consecutive positions hold every number, a 1 low or high.
  for (int low = 1; low + size - 1 <= kHighOne; ++low) {
    const int high = low + size - 1;
    bool fits = true;
    for (int n = 1; n <= kNumbers && fits; ++n) {
      if ((numbers >> n & 1u) == 0) continue;
      fits = n == 1 ? low == 1 || high == kHighOne : low <= n && n <= high;
    }
    if (fits) return true;
  }
  return false;
}

Places PlacesFor(const Meld& meld, Tile tile, const Jokers& jokers) {
  Places places;
  const bool wild = jokers.IsWild(tile);
  const Face face = jokers.PlaysAs(tile);
  if (meld.kind == MeldKind::kRun) {
    const bool may_grow = meld.Size() < kMaxRun;
    // Below: down to 1 (a run ending in the high 1 may not also start at 1).
    const int below = meld.low - 1;
    if (may_grow && below >= 1 && !(below == 1 && meld.high == kHighOne) &&
        (wild || face == meld.FaceAt(below))) {
      places.push_back(AddPlace::kRunLow);
    }
    const int above = meld.high + 1;
    if (may_grow && above <= kHighOne && !(above == kHighOne && meld.low == 1) &&
        (wild || face == meld.FaceAt(above))) {
      places.push_back(AddPlace::kRunHigh);
    }
    if (!wild) {
      for (int position = meld.low; position <= meld.high; ++position) {
        if ((meld.wild_positions >> position & 1u) != 0 && meld.FaceAt(position) == face) {
          places.push_back(AddPlace::kReplaceWild);
          break;
        }
      }
    }
    return places;
  }
  if (wild) {
    if (meld.Size() < kMaxSet) places.push_back(AddPlace::kSetColour);
    return places;
  }
  if (NumberOf(face) != meld.number) return places;
  const uint8_t bit = static_cast<uint8_t>(1u << ColourOf(face));
  if ((meld.real_colours & bit) != 0) return places;
  // In a set an okey's colour stays open (RULES.md "Okey tiles"): the colour it was named as is
  // still missing, so its real tile may join beside it or take any okey out.
  if (meld.Size() < kMaxSet) places.push_back(AddPlace::kSetColour);
  if (meld.wilds > 0) places.push_back(AddPlace::kReplaceWild);
  return places;
}

std::vector<LayOffTarget> LayOffTargets(std::span<const Meld> table, Tile tile,
                                        const Jokers& jokers) {
  std::vector<LayOffTarget> targets;
  for (size_t i = 0; i < table.size(); ++i) {
    for (const AddPlace place : PlacesFor(table[i], tile, jokers)) {
      targets.push_back({static_cast<int>(i), place});
    }
  }
  return targets;
}

bool IsPenaltyTile(std::span<const Meld> table, Tile tile, const Jokers& jokers) {
  for (const LayOffTarget& target : LayOffTargets(table, tile, jokers)) {
    if (target.place != AddPlace::kReplaceWild) return true;
  }
  return false;
}

std::vector<PlacedTile> TilesOf(const Meld& meld, const Jokers& jokers) {
  std::vector<PlacedTile> tiles;
  const Tile wild = SampleTile(jokers.okey());
  if (meld.kind == MeldKind::kRun) {
    for (int position = meld.low; position <= meld.high; ++position) {
      const Face face = meld.FaceAt(position);
      if ((meld.wild_positions >> position & 1u) != 0) {
        tiles.push_back({wild, face});
      } else {
        tiles.push_back({SampleTile(CodePlayingAs(face, jokers))});
      }
    }
    return tiles;
  }
  for (int colour = 0; colour < kColours; ++colour) {
    const Face face = MakeFace(colour, meld.number);
    if ((meld.real_colours >> colour & 1u) != 0) {
      tiles.push_back({SampleTile(CodePlayingAs(face, jokers))});
    } else if ((meld.named_colours >> colour & 1u) != 0) {
      tiles.push_back({wild, face});
    }
  }
  const int open_wilds = meld.wilds - CountColours(meld.named_colours);
  for (int i = 0; i < open_wilds; ++i) tiles.push_back({wild, 0, true});
  return tiles;
}

uint8_t SetWildTakenOut(const Meld& set, Face face) {
  const uint8_t bit = static_cast<uint8_t>(1u << ColourOf(face));
  const int open_wilds = set.wilds - CountColours(set.named_colours);
  if ((set.named_colours & bit) != 0 || open_wilds > 0) return 0;
  return static_cast<uint8_t>(set.named_colours & -set.named_colours);
}

Meld WithTile(const Meld& meld, Tile tile, AddPlace place, const Jokers& jokers) {
  Meld grown = meld;
  const bool wild = jokers.IsWild(tile);
  switch (place) {
    case AddPlace::kRunLow:
    case AddPlace::kRunHigh: {
      const int position = place == AddPlace::kRunLow ? --grown.low : ++grown.high;
      if (wild) {
        grown.wild_positions |= static_cast<uint16_t>(1u << position);
        ++grown.wilds;
      }
      break;
    }
    case AddPlace::kSetColour:
      if (wild) {
        ++grown.wilds;
      } else {
        // An okey named as this colour goes back to standing for any colour still missing.
        const uint8_t bit = static_cast<uint8_t>(1u << ColourOf(jokers.PlaysAs(tile)));
        grown.named_colours &= static_cast<uint8_t>(~bit);
        grown.real_colours |= bit;
      }
      break;
    case AddPlace::kReplaceWild: {
      const Face face = jokers.PlaysAs(tile);
      if (grown.kind == MeldKind::kRun) {
        for (int position = grown.low; position <= grown.high; ++position) {
          if (grown.FaceAt(position) == face) {
            grown.wild_positions &= static_cast<uint16_t>(~(1u << position));
          }
        }
      } else {
        const uint8_t bit = static_cast<uint8_t>(1u << ColourOf(face));
        grown.named_colours &= static_cast<uint8_t>(~(bit | SetWildTakenOut(meld, face)));
        grown.real_colours |= bit;
      }
      --grown.wilds;
      break;
    }
  }
  return grown;
}

}  // namespace kahve::engine::okey

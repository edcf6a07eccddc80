#ifndef KAHVE_ENGINE_OKEY_OKEY_MELDS_H_
#define KAHVE_ENGINE_OKEY_OKEY_MELDS_H_

// Melds of the okey family (RULES.md "Okey tiles"): a run is 3..13 consecutive numbers of one
// colour, where 1 stands low (1-2-3) or high (12-13-1), never both and never wrapping (13-1-2); a
// set is 3 or 4 tiles of one number in different colours. A wild okey stands for any one missing
// tile; a fake okey only for the okey's face. A 1 is worth 1 wherever it stands; a wild is worth
// the tile it stands for.
//
// Pure functions over small structs, shared by the three okey rulesets, their hints and bots.

#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "engine/okey/okey_tiles.h"

namespace kahve::engine::okey {

enum class MeldKind : uint8_t { kRun, kSet };

// A meld by what it stands for. Run positions are numbers 1..13, or kHighOne for a 1 above 13.
struct Meld {
  MeldKind kind = MeldKind::kRun;
  int colour = 0;  // run
  int number = 0;  // set
  int low = 0;     // run: lowest and highest position
  int high = 0;
  uint8_t real_colours = 0;     // set: colours held by real (not wild) tiles, a bit each
  uint8_t named_colours = 0;    // set: colours wilds were laid as; other wilds stay open
  uint16_t wild_positions = 0;  // run: bit p set when a wild stands at position p
  int wilds = 0;

  // Inline: the arrangement search calls these in its innermost loop.
  int Size() const {
    if (kind == MeldKind::kSet) return CountColours(real_colours) + wilds;
    return high - low + 1;
  }
  // Sum of the numbers it stands for.
  int Value() const {
    if (kind == MeldKind::kSet) return number * Size();
    const int top = high == kHighOne ? kNumbers : high;
    return (low + top) * (top - low + 1) / 2 + (high == kHighOne ? 1 : 0);
  }
  // The face at run position `position` (kHighOne is the 1).
  Face FaceAt(int position) const { return MakeFace(colour, position == kHighOne ? 1 : position); }
  bool operator==(const Meld&) const = default;
};

// What a player lays: a tile, and for a wild the face it stands for. In a set a wild may leave
// its colour open (`open_colour`): it stands for any colour the set lacks.
struct PlacedTile {
  Tile tile = 0;
  Face stands_for = 0;  // wilds only
  bool open_colour = false;
  bool operator==(const PlacedTile&) const = default;
};

// Why a laid meld or an addition is refused; kNone: valid.
enum class MeldError : uint8_t {
  kNone,
  kTooFewTiles,     // fewer than 3
  kTooManyTiles,    // a set of more than 4, a run of more than 13
  kNotARunOrSet,    // neither one colour nor one number
  kNotConsecutive,  // a run with a gap or out of order (listed low to high)
  kRunWraps,        // 13-1-2, or 1 both low and high
  kRepeatedColour,  // a set with a colour twice
  kBadStandIn,      // a wild standing for a face the meld cannot use there
};

// What is wrong, in words for a rejection message ("a run with a gap or out of order").
const char* MeldErrorText(MeldError error);

struct MeldCheck {
  MeldError error = MeldError::kNone;
  Meld meld;
};

// Reads tiles as laid: a run listed low to high (12, 13, 1 for a high 1), each wild with the face
// it stands for; a set in any order.
MeldCheck CheckMeld(std::span<const PlacedTile> tiles, const Jokers& jokers);

// Whether `tiles` (counted as a hand is: fake okeys under the okey's face, okeys as wilds) are
// exactly one run or one set under some reading of their okeys: classic okey's claimed groups.
bool IsOneMeld(const FaceCounts& tiles);

// Where a tile can go on a meld on the table.
enum class AddPlace : uint8_t {
  kRunLow,       // below a run's lowest position
  kRunHigh,      // above its highest (13 -> the high 1)
  kSetColour,    // a set's missing colour
  kReplaceWild,  // the real tile a wild stands for (in a set: any missing colour), which takes
                 // the wild out (okey51, okey101)
};

// At most one of each place, kept without allocating: bots and legal-move lists ask for every
// tile against every meld, every move.
class Places {
 public:
  using value_type = AddPlace;
  using const_iterator = const AddPlace*;
  using iterator = const AddPlace*;
  void push_back(AddPlace place) { items_[size_++] = place; }
  const AddPlace* begin() const { return items_.data(); }
  const AddPlace* end() const { return items_.data() + size_; }
  size_t size() const { return static_cast<size_t>(size_); }
  bool empty() const { return size_ == 0; }
  AddPlace front() const { return items_[0]; }
  bool Has(AddPlace place) const {
    for (int i = 0; i < size_; ++i) {
      if (items_[i] == place) return true;
    }
    return false;
  }

 private:
  std::array<AddPlace, 4> items_{};
  int size_ = 0;
};

// Each place `tile` fits on `meld`, at most one of each kind. A wild fits any open end or colour;
// kReplaceWild needs the real tile (a fake okey when the wild stands for the okey's face).
Places PlacesFor(const Meld& meld, Tile tile, const Jokers& jokers);
// A place on the table a tile can go: the meld's index and where on it.
struct LayOffTarget {
  int meld = 0;
  AddPlace place = AddPlace::kRunLow;
  bool operator==(const LayOffTarget&) const = default;
};
// Every place on `table` (the melds laid, in order) that `tile` can go, meld by meld.
std::vector<LayOffTarget> LayOffTargets(std::span<const Meld> table, Tile tile,
                                        const Jokers& jokers);
// A penalty tile (okey51, okey101): one that could be added to a run or set on the table. A tile
// that could only take an okey out is not one; a wild is one wherever a meld has room.
bool IsPenaltyTile(std::span<const Meld> table, Tile tile, const Jokers& jokers);

// Tiles that lay `meld` (as the arrangement search describes it): real tiles as SampleTile of
// their code, wilds naming their run position or, in a set, open; a run listed low to high.
std::vector<PlacedTile> TilesOf(const Meld& meld, const Jokers& jokers);

// Which named okey a real tile of `face` takes out of `set`: none (0) when an okey was named as
// that face or one is open, else the okey named as the lowest colour (a bit of named_colours).
// In a set an okey's colour stays open, so any okey may make way for any missing colour.
uint8_t SetWildTakenOut(const Meld& set, Face face);

// `meld` with `tile` added at `place` (which PlacesFor listed). A wild added to a run's end stands
// for the next position there; to a set, for an open colour.
Meld WithTile(const Meld& meld, Tile tile, AddPlace place, const Jokers& jokers);

}  // namespace kahve::engine::okey

#endif  // KAHVE_ENGINE_OKEY_OKEY_MELDS_H_

#ifndef KAHVE_ENGINE_OKEY_OKEY_ARRANGEMENT_H_
#define KAHVE_ENGINE_OKEY_OKEY_ARRANGEMENT_H_

// The arrangement search of the okey family: groups a hand's tiles into runs and sets (see
// okey_melds.h) and pairs. One implementation decides whether a hand wins (classic okey), finds
// the highest opening sum (okey101, okey51), sorts a hand for hints and guides the bots.
//
// It works on FaceCounts: which faces a hand holds and how many wilds. A depth-first search takes
// the lowest face left and tries it in each set and each run it can start (wilds filling gaps and
// the positions below it), or leaves it loose. A wild is never put where a real tile of that face
// is still free: swapping the two gives an arrangement as good, so those branches are skipped.

#include <array>
#include <optional>
#include <vector>

#include "engine/okey/okey_melds.h"
#include "engine/okey/okey_tiles.h"

namespace kahve::engine::okey {

// The most melds a 22-tile hand (okey101's dealer) can hold.
inline constexpr int kMaxMelds = 7;

struct Arrangement {
  std::array<Meld, kMaxMelds> melds{};
  int meld_count = 0;
  // Tiles the melds leave; `loose.wilds` are okeys left out.
  FaceCounts loose;
  int value = 0;  // sum of the melds' values
  int tiles_in_melds = 0;
};

enum class ArrangementGoal : uint8_t {
  kMostValue,  // the opening sum: the highest value, then the most tiles
  kMostTiles,  // the tidiest hand: the most tiles in melds, then the highest value
};

// The best arrangement of `hand` for `goal`. Always succeeds (all loose is an arrangement).
Arrangement BestArrangement(const FaceCounts& hand, ArrangementGoal goal);

// BestArrangement(hand, kMostValue) when its value reaches `min_value`; nullopt, and nothing
// built, when it does not.
std::optional<Arrangement> BestArrangementReaching(const FaceCounts& hand, int min_value);

// Whether a tile of `face` (held in `hand` or not) could be in some run or set with the hand's
// tiles: a quick test that rules a tile out of every arrangement.
bool InSomeMeld(const FaceCounts& hand, Face face);

// An arrangement with every tile in a run or set except at most `loose_allowed` (classic okey's
// win: 15 tiles, one left to discard), if there is one. Stops at the first found.
bool FindCovering(const FaceCounts& hand, int loose_allowed, Arrangement* found);

// As many pairs as `codes` make: each code with itself, then the okeys with the highest single
// tiles left over, then with each other. A fake okey pairs with a fake okey.
std::vector<std::array<Code, 2>> MaxPairs(const std::array<uint8_t, kCodes>& codes,
                                          const Jokers& jokers);

// Pairs the hand can show: two tiles of one face, or a wild with any tile or with the other wild.
int CountPairs(const FaceCounts& hand);

}  // namespace kahve::engine::okey

#endif  // KAHVE_ENGINE_OKEY_OKEY_ARRANGEMENT_H_

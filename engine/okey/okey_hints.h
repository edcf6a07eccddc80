#ifndef KAHVE_ENGINE_OKEY_OKEY_HINTS_H_
#define KAHVE_ENGINE_OKEY_OKEY_HINTS_H_

// Hints of the okey family (RULES.md "okey51" table settings), built from what one seat may know:
// its hand and the melds on the table. The same search the bots use sorts the hand.

#include <span>

#include "engine/okey/okey_melds.h"
#include "kahve/v1/okey.pb.h"

namespace kahve::engine::okey {

// A run or set on the table and its index in the table's list (pairs take no additions).
struct IndexedMeld {
  int index = 0;
  Meld meld;
};

v1::OkeyHints HintsFor(std::span<const Tile> hand, std::span<const IndexedMeld> table,
                       const Jokers& jokers);

// A laid meld as clients see it: each tile's name, an okey with the face it stands for.
v1::OkeyMeld MeldToProto(std::span<const PlacedTile> tiles, const Jokers& jokers);
v1::OkeyPlace PlaceToProto(AddPlace place);

}  // namespace kahve::engine::okey

#endif  // KAHVE_ENGINE_OKEY_OKEY_HINTS_H_

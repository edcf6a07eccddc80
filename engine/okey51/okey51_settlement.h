#ifndef KAHVE_ENGINE_OKEY51_OKEY51_SETTLEMENT_H_
#define KAHVE_ENGINE_OKEY51_OKEY51_SETTLEMENT_H_

// The end of an okey51 deal (RULES.md "okey51", seed 000's table of finishes): what each seat
// adds to its deal score. Lowest total wins, so the finisher's entry is negative.
//
// | finish          | finisher | opened (runs/sets) | not opened |
// | from hand       | -500     | tiles x 5          | +500       |
// | pairs           | -1000    | tiles x 10         | +1000      |
// | okey discard    | -1000    | tiles x 10         | +1000      |
// | deck exhausted  | (none)   | tiles x 5          | +500       |
//
// "tiles" is the sum of the numbers left in the hand, an okey counting 100 and a fake okey the
// number of the face it plays as. A pairs opener always pays tiles x 10. In 2v2 the finisher's
// partner pays nothing at the end of that deal. Penalties collected during the deal are not here.

#include <vector>

#include "engine/okey/okey_tiles.h"

namespace kahve::engine::okey51 {

using okey::FaceCounts;

enum class Okey51Finish { kFromHand, kPairs, kOkeyDiscard, kDeckExhausted };

// How a deal that a seat finished ends: by discarding an okey as the last tile beats everything
// (pairs and okey finishes do not stack); otherwise a pairs opener's finish is a pairs finish.
Okey51Finish Okey51FinishOf(bool last_tile_was_okey, bool finisher_opened_with_pairs);

enum class Opened { kNo, kMelds, kPairs };

struct Okey51SeatAtEnd {
  Opened opened = Opened::kNo;
  FaceCounts hand;  // what is left, okeys as wilds, fake okeys under the okey's face
  bool finished = false;
  bool partner_of_finisher = false;  // 2v2 only
};

// Sum of the numbers left, an okey counting 100.
int Okey51TilesLeft(const FaceCounts& hand);

// What each seat adds to its deal score (index = seat).
std::vector<int> Okey51Settlement(Okey51Finish finish, const std::vector<Okey51SeatAtEnd>& seats);

}  // namespace kahve::engine::okey51

#endif  // KAHVE_ENGINE_OKEY51_OKEY51_SETTLEMENT_H_

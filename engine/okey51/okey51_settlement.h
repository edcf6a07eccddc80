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

#include "engine/okey_laying/okey_laying.h"

namespace kahve::engine::okey51 {

using okey::FaceCounts;
using okey_laying::Opened;
using Okey51Finish = okey_laying::Finish;
using Okey51SeatAtEnd = okey_laying::SeatAtEnd;

// Sum of the numbers left, an okey counting 100.
int Okey51TilesLeft(const FaceCounts& hand);

// What each seat adds to its deal score (index = seat).
std::vector<int> Okey51Settlement(Okey51Finish finish, const std::vector<Okey51SeatAtEnd>& seats);

// The same as the laying core's settlement of a deal; the multiplier is the one the tiles left
// are paid at (5 or 10).
okey_laying::Settlement Okey51Settle(const okey_laying::DealEnd& end);

}  // namespace kahve::engine::okey51

#endif  // KAHVE_ENGINE_OKEY51_OKEY51_SETTLEMENT_H_

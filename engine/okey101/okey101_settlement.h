#ifndef KAHVE_ENGINE_OKEY101_OKEY101_SETTLEMENT_H_
#define KAHVE_ENGINE_OKEY101_OKEY101_SETTLEMENT_H_

// The end of an okey101 deal (RULES.md "okey101", seed 003): what each seat adds to its deal
// score. Lowest total wins, so the finisher's entry is negative.
//
//   finisher            -101 x m
//   opened, runs/sets   tiles x m
//   opened, pairs       tiles x m x 2
//   not opened          202 x m
//   each okey held      +101 (+202 not opened), never multiplied, and not in "tiles"
//
// m doubles for each of: the last tile was an okey, the finisher opened with pairs, the finisher
// opened in its finishing turn while nobody else had opened (one-turn finish). With the deck
// exhausted there is no finisher and m = 1. "tiles" is the sum of the numbers left, a fake okey
// counting the number of the face it plays as. In 2v2 the finisher's partner pays nothing at the
// end of that deal. Penalties collected during the deal (+101 each) are not here.

#include "engine/okey_laying/okey_laying.h"

namespace kahve::engine::okey101 {

// Sum of the numbers left, okeys not counted.
int Okey101TilesLeft(const okey::FaceCounts& hand);

// The deal's multiplier m.
int Okey101Multiplier(const okey_laying::DealEnd& end);

okey_laying::Settlement Okey101Settle(const okey_laying::DealEnd& end);

}  // namespace kahve::engine::okey101

#endif  // KAHVE_ENGINE_OKEY101_OKEY101_SETTLEMENT_H_

#include "engine/okey101/okey101_settlement.h"

#include "engine/okey101/okey101.h"

namespace kahve::engine::okey101 {

using okey_laying::Finish;
using okey_laying::Opened;

int Okey101TilesLeft(const okey::FaceCounts& hand) {
  int sum = 0;
  for (int face = 0; face < okey::kFaces; ++face) {
    sum += hand.count[face] * okey::NumberOf(static_cast<okey::Face>(face));
  }
  return sum;
}

int Okey101Multiplier(const okey_laying::DealEnd& end) {
  if (end.finish == Finish::kDeckExhausted || end.finisher < 0) return 1;
  int multiplier = 1;
  if (end.finish == Finish::kOkeyDiscard) multiplier *= 2;
  if (end.seats[end.finisher].opened == Opened::kPairs) multiplier *= 2;
  if (end.one_turn) multiplier *= 2;
  return multiplier;
}

okey_laying::Settlement Okey101Settle(const okey_laying::DealEnd& end) {
  okey_laying::Settlement settlement;
  const int m = Okey101Multiplier(end);
  settlement.multiplier = m;
  for (int seat = 0; seat < kPlayers; ++seat) {
    const okey_laying::SeatAtEnd& at_end = end.seats[seat];
    int points = 0;
    if (at_end.finished) {
      points = -kPenalty * m;
    } else if (at_end.partner_of_finisher) {
      points = 0;
    } else if (at_end.opened == Opened::kNo) {
      points = 2 * kPenalty * m + 2 * kPenalty * at_end.hand.wilds;
    } else {
      const int pairs = at_end.opened == Opened::kPairs ? 2 : 1;
      points = Okey101TilesLeft(at_end.hand) * m * pairs + kPenalty * at_end.hand.wilds;
    }
    settlement.points[seat] = points;
  }
  return settlement;
}

}  // namespace kahve::engine::okey101

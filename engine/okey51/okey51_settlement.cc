#include "engine/okey51/okey51_settlement.h"

#include <algorithm>

namespace kahve::engine::okey51 {
namespace {

// An okey left in a hand counts this much before the multiplier (500 at x5, 1000 at x10).
constexpr int kOkeyLeftValue = 100;

bool IsDoubleFinish(Okey51Finish finish) {
  return finish == Okey51Finish::kPairs || finish == Okey51Finish::kOkeyDiscard;
}

}  // namespace

int Okey51TilesLeft(const FaceCounts& hand) {
  int sum = hand.wilds * kOkeyLeftValue;
  for (int face = 0; face < okey::kFaces; ++face) {
    sum += hand.count[face] * okey::NumberOf(static_cast<okey::Face>(face));
  }
  return sum;
}

std::vector<int> Okey51Settlement(Okey51Finish finish, const std::vector<Okey51SeatAtEnd>& seats) {
  const bool doubled = IsDoubleFinish(finish);
  std::vector<int> points(seats.size(), 0);
  for (size_t seat = 0; seat < seats.size(); ++seat) {
    const Okey51SeatAtEnd& at_end = seats[seat];
    if (at_end.finished) {
      points[seat] = doubled ? -1000 : -500;
    } else if (at_end.partner_of_finisher) {
      points[seat] = 0;
    } else if (at_end.opened == Opened::kNo) {
      points[seat] = doubled ? 1000 : 500;
    } else {
      const int multiplier = doubled || at_end.opened == Opened::kPairs ? 10 : 5;
      points[seat] = multiplier * Okey51TilesLeft(at_end.hand);
    }
  }
  return points;
}

okey_laying::Settlement Okey51Settle(const okey_laying::DealEnd& end) {
  const std::vector<Okey51SeatAtEnd> seats(end.seats.begin(), end.seats.end());
  const std::vector<int> points = Okey51Settlement(end.finish, seats);
  okey_laying::Settlement settlement;
  std::copy(points.begin(), points.end(), settlement.points.begin());
  settlement.multiplier = IsDoubleFinish(end.finish) ? 10 : 5;
  return settlement;
}

}  // namespace kahve::engine::okey51

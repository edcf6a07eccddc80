#include "engine/okey51/okey51_settlement.h"

namespace kahve::engine::okey51 {
namespace {

// An okey left in a hand counts this much before the multiplier (500 at x5, 1000 at x10).
constexpr int kOkeyLeftValue = 100;

bool IsDoubleFinish(Okey51Finish finish) {
  return finish == Okey51Finish::kPairs || finish == Okey51Finish::kOkeyDiscard;
}

}  // namespace

Okey51Finish Okey51FinishOf(bool last_tile_was_okey, bool finisher_opened_with_pairs) {
  if (last_tile_was_okey) return Okey51Finish::kOkeyDiscard;
  return finisher_opened_with_pairs ? Okey51Finish::kPairs : Okey51Finish::kFromHand;
}

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

}  // namespace kahve::engine::okey51

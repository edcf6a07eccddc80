#ifndef KAHVE_TESTS_ENGINE_OKEY_OKEY_TEST_DEALS_H_
#define KAHVE_TESTS_ENGINE_OKEY_OKEY_TEST_DEALS_H_

// What the okey family's tests share: random and resampled preset deals (the leak tests compare
// two deals that differ only where a seat cannot see), and random tile names, well formed or not
// (the conformance tests' malformed moves).

#include <numeric>
#include <string>
#include <vector>

#include "engine/core/game.h"
#include "engine/core/rng.h"
#include "engine/okey/okey_tiles.h"
#include "google/protobuf/util/message_differencer.h"
#include "gtest/gtest.h"
#include "kahve/v1/engine.pb.h"

namespace kahve::engine::testing {

// A full preset from `rng`: four hands (seat 0's of `starter_tiles`, the others one fewer), the
// indicator (fake okeys passed over stay in the deck), the deck.
inline v1::OkeyDealPreset RandomOkeyDeal(Rng& rng, int starter_tiles) {
  std::vector<okey::Tile> order(okey::kTiles);
  std::iota(order.begin(), order.end(), okey::Tile{0});
  rng.Shuffle(order.data(), static_cast<uint32_t>(order.size()));
  v1::OkeyDealPreset deal;
  size_t next = 0;
  for (int seat = 0; seat < 4; ++seat) {
    auto* hand = deal.add_hands();
    const int size = seat == 0 ? starter_tiles : starter_tiles - 1;
    for (int i = 0; i < size; ++i) hand->add_tiles(okey::TileName(order[next++]));
  }
  while (okey::IsFakeOkey(order[next])) deal.add_deck(okey::TileName(order[next++]));
  deal.set_indicator(okey::TileName(order[next++]));
  while (next < order.size()) deal.add_deck(okey::TileName(order[next++]));
  return deal;
}

// The same deal with the hands of seats 1..3 but `viewer` dealt among themselves anew.
inline v1::OkeyDealPreset ResampledOkeyDeal(v1::OkeyDealPreset deal, int viewer, Rng& rng) {
  std::vector<std::string> pool;
  std::vector<int> seats;
  for (int seat = 1; seat < 4; ++seat) {
    if (seat == viewer) continue;
    seats.push_back(seat);
    for (const std::string& tile : deal.hands(seat).tiles()) pool.push_back(tile);
  }
  rng.Shuffle(pool.data(), static_cast<uint32_t>(pool.size()));
  size_t next = 0;
  for (const int seat : seats) {
    auto* tiles = deal.mutable_hands(seat)->mutable_tiles();
    for (int i = 0; i < tiles->size(); ++i) tiles->at(i) = pool[next++];
  }
  return deal;
}

// What `viewer` sees of two event lists is byte for byte the same.
inline void ExpectSameSeen(const std::vector<v1::Event>& a, const std::vector<v1::Event>& b,
                           int viewer) {
  const std::vector<v1::Event> seen_a = VisibleTo(a, viewer);
  const std::vector<v1::Event> seen_b = VisibleTo(b, viewer);
  ASSERT_EQ(seen_a.size(), seen_b.size());
  for (size_t i = 0; i < seen_a.size(); ++i) {
    ASSERT_TRUE(google::protobuf::util::MessageDifferencer::Equals(seen_a[i], seen_b[i]))
        << seen_a[i].DebugString() << " vs " << seen_b[i].DebugString();
  }
}

// A tile name: a third of the time one of `odd` (malformed, or a name worth repeating), else a
// colour and a number 1..13.
template <size_t N>
std::string RandomTileName(Rng& rng, const char* const (&odd)[N]) {
  if (rng.Below(3) == 0) return odd[rng.Below(N)];
  const char colours[] = {'R', 'B', 'K', 'Y'};
  return std::string(1, colours[rng.Below(4)]) + std::to_string(1 + rng.Below(13));
}

}  // namespace kahve::engine::testing

#endif  // KAHVE_TESTS_ENGINE_OKEY_OKEY_TEST_DEALS_H_

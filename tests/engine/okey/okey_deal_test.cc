// Dealing okey tiles: every tile in one place, the same seed the same deal, the indicator never a
// fake okey.

#include "engine/okey/okey_deal.h"

#include <algorithm>
#include <array>
#include <numeric>

#include "gtest/gtest.h"

namespace kahve::engine::okey {
namespace {

// How often each of the 106 tiles appears in the deal.
std::array<int, kTiles> Census(const OkeyDeal& deal) {
  std::array<int, kTiles> seen{};
  ++seen[deal.indicator_tile];
  for (const auto& hand : deal.hands) {
    for (const Tile tile : hand) ++seen[tile];
  }
  for (const Tile tile : deal.deck) ++seen[tile];
  for (const Tile tile : deal.out_of_play) ++seen[tile];
  return seen;
}

TEST(OkeyDealTest, EveryTileIsInExactlyOnePlaceAndTheStarterHasOneMore) {
  for (const int players : {2, 3, 4}) {
    for (uint64_t seed = 1; seed <= 500; ++seed) {
      const int starter = static_cast<int>(seed % players);
      const OkeyDeal deal = DealTiles(seed, players, starter, /*starter_tiles=*/15);
      const std::array<int, kTiles> seen = Census(deal);
      ASSERT_TRUE(std::all_of(seen.begin(), seen.end(), [](int n) { return n == 1; }))
          << "seed " << seed;
      for (int seat = 0; seat < players; ++seat) {
        EXPECT_EQ(deal.hands[seat].size(), seat == starter ? 15u : 14u);
      }
      EXPECT_EQ(deal.deck.size(), static_cast<size_t>(kTiles - 1 - 15 - 14 * (players - 1)));
      EXPECT_FALSE(IsFakeOkey(deal.indicator_tile));
      EXPECT_EQ(deal.indicator, PrintedFace(deal.indicator_tile));
    }
  }
  // okey101: the dealer 22, the others 21.
  const OkeyDeal big = DealTiles(7, 4, 2, /*starter_tiles=*/22);
  EXPECT_EQ(big.hands[2].size(), 22u);
  EXPECT_EQ(big.hands[3].size(), 21u);
  EXPECT_EQ(big.deck.size(), static_cast<size_t>(kTiles - 1 - 22 - 21 * 3));
}

TEST(OkeyDealTest, TheSameSeedGivesTheSameDeal) {
  const OkeyDeal a = DealTiles(42, 4, 0, 15);
  const OkeyDeal b = DealTiles(42, 4, 0, 15);
  EXPECT_EQ(a.hands, b.hands);
  EXPECT_EQ(a.deck, b.deck);
  EXPECT_EQ(a.indicator_tile, b.indicator_tile);
  EXPECT_NE(DealTiles(43, 4, 0, 15).hands, a.hands);
}

TEST(OkeyDealTest, TheIndicatorIsTheNextNumberedTileAfterTheHands) {
  // Hands from the front; then both fake okeys, then Y13: Y13 is the indicator (the okey Y1), and
  // the fakes stay at the top of the deck.
  std::vector<Tile> order;
  const auto y13 = static_cast<Tile>(MakeFace(kYellow, 13) * 2);
  for (int tile = 0; tile < kFirstFakeOkey; ++tile) {
    if (tile != y13) order.push_back(static_cast<Tile>(tile));
  }
  const int in_hands = 15 + 14 * 3;
  order.insert(order.begin() + in_hands, {kFirstFakeOkey, kFirstFakeOkey + 1, y13});
  const OkeyDeal deal = DealFromOrder(order, 4, /*starter=*/1, 15);
  EXPECT_EQ(FaceName(deal.indicator), "Y13");
  EXPECT_EQ(FaceName(deal.okey()), "Y1");
  ASSERT_GE(deal.deck.size(), 3u);
  EXPECT_EQ(deal.deck[0], kFirstFakeOkey);
  EXPECT_EQ(deal.deck[1], kFirstFakeOkey + 1);
  EXPECT_EQ(deal.deck[2], order[in_hands + 3]);
  // The starter's hand is dealt first, then the next seats in turn.
  EXPECT_EQ(deal.hands[1].front(), order[0]);
  EXPECT_EQ(deal.hands[2].front(), order[15]);
  EXPECT_EQ(deal.hands[0].front(), order[15 + 14 * 2]);
}

TEST(OkeyDealTest, AnExactDeckLeavesTheRestOutOfPlay) {
  DealPreset preset;
  preset.hands.push_back({});
  preset.indicator = *ParseCode("K1");
  preset.deck = {*ParseCode("Y5"), *ParseCode("F")};
  preset.exact_deck = true;
  const OkeyDeal deal = DealFromPreset(preset, /*seed=*/9, 4, /*starter=*/0, 15);
  ASSERT_EQ(deal.deck.size(), 2u);
  EXPECT_EQ(TileName(deal.deck[0]), "Y5");
  EXPECT_EQ(TileName(deal.deck[1]), "F");
  EXPECT_EQ(deal.out_of_play.size(), static_cast<size_t>(kTiles - 1 - 2 - 15 - 14 * 3));
  for (const int count : Census(deal)) EXPECT_EQ(count, 1);
  preset.exact_deck = false;
  EXPECT_TRUE(DealFromPreset(preset, 9, 4, 0, 15).out_of_play.empty());
}

}  // namespace
}  // namespace kahve::engine::okey

#include "engine/okey/okey_deal.h"

#include <algorithm>
#include <numeric>

#include "engine/core/check.h"
#include "engine/core/rng.h"

namespace kahve::engine::okey {

OkeyDeal DealTiles(uint64_t seed, int players, int starter, int starter_tiles) {
  std::vector<Tile> order(kTiles);
  std::iota(order.begin(), order.end(), Tile{0});
  Rng rng(seed);
  rng.Shuffle(order.data(), static_cast<uint32_t>(order.size()));
  return DealFromOrder(std::move(order), players, starter, starter_tiles);
}

OkeyDeal DealFromOrder(std::vector<Tile> order, int players, int starter, int starter_tiles) {
  KAHVE_CHECK(static_cast<int>(order.size()) == kTiles, "a deal orders all 106 tiles");
  KAHVE_CHECK(players >= 2 && players <= 4 && starter >= 0 && starter < players,
              "settings were validated before the deal");
  KAHVE_CHECK(players * starter_tiles < kTiles, "the hands leave an indicator to turn");
  OkeyDeal deal;
  size_t next = 0;
  deal.hands.resize(players);
  for (int i = 0; i < players; ++i) {
    const int seat = (starter + i) % players;
    const int count = seat == starter ? starter_tiles : starter_tiles - 1;
    deal.hands[seat].assign(order.begin() + next, order.begin() + next + count);
    next += count;
  }
  const auto indicator =
      std::find_if(order.begin() + next, order.end(), [](Tile tile) { return !IsFakeOkey(tile); });
  deal.indicator_tile = *indicator;
  deal.indicator = PrintedFace(deal.indicator_tile);
  order.erase(indicator);
  deal.deck.assign(order.begin() + next, order.end());
  return deal;
}

}  // namespace kahve::engine::okey

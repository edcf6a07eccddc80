#include "engine/okey/okey_deal.h"

#include <algorithm>
#include <numeric>

#include "absl/strings/str_cat.h"
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

absl::Status CheckDealPreset(const DealPreset& preset, int players, int starter, int starter_tiles,
                             const std::string& where) {
  if (static_cast<int>(preset.hands.size()) > players) {
    return absl::InvalidArgumentError(
        absl::StrCat(where, ".hands: ", preset.hands.size(), " hands for ", players, " seats"));
  }
  std::array<int, kCodes> named{};
  for (size_t seat = 0; seat < preset.hands.size(); ++seat) {
    const int size = static_cast<int>(preset.hands[seat].size());
    const int wanted = static_cast<int>(seat) == starter ? starter_tiles : starter_tiles - 1;
    if (size != 0 && size != wanted) {
      return absl::InvalidArgumentError(absl::StrCat(where, ".hands[", seat, "]: ", size,
                                                     " tiles; this seat holds ", wanted,
                                                     " (or list none to deal it)"));
    }
    for (const Code code : preset.hands[seat]) ++named[code];
  }
  if (preset.indicator.has_value()) {
    if (*preset.indicator == kFakeCode) {
      return absl::InvalidArgumentError(
          absl::StrCat(where, ".indicator: a fake okey is never the indicator"));
    }
    ++named[*preset.indicator];
  }
  for (const Code code : preset.deck) ++named[code];
  for (int code = 0; code < kCodes; ++code) {
    if (named[code] > 2) {
      return absl::InvalidArgumentError(absl::StrCat(where, ": names ", named[code], " tiles ",
                                                     CodeName(static_cast<Code>(code)),
                                                     "; there are 2"));
    }
  }
  return absl::OkStatus();
}

OkeyDeal DealFromPreset(const DealPreset& preset, uint64_t seed, int players, int starter,
                        int starter_tiles) {
  std::array<int, kCodes> used{};
  auto take = [&](Code code) {
    const Tile tile = code == kFakeCode ? static_cast<Tile>(kFirstFakeOkey + used[code])
                                        : static_cast<Tile>(code * 2 + used[code]);
    ++used[code];
    return tile;
  };
  OkeyDeal deal;
  deal.hands.resize(players);
  for (size_t seat = 0; seat < preset.hands.size(); ++seat) {
    for (const Code code : preset.hands[seat]) deal.hands[seat].push_back(take(code));
  }
  std::optional<Tile> indicator;
  if (preset.indicator.has_value()) indicator = take(*preset.indicator);
  for (const Code code : preset.deck) deal.deck.push_back(take(code));
  std::vector<Tile> rest;
  for (int tile = 0; tile < kTiles; ++tile) {
    const Code code = CodeOf(static_cast<Tile>(tile));
    const int copy = code == kFakeCode ? tile - kFirstFakeOkey : tile % 2;
    if (copy >= used[code]) rest.push_back(static_cast<Tile>(tile));
  }
  Rng rng(seed);
  rng.Shuffle(rest.data(), static_cast<uint32_t>(rest.size()));
  size_t next = 0;
  for (int seat = 0; seat < players; ++seat) {
    if (!deal.hands[seat].empty()) continue;
    const size_t size = static_cast<size_t>(seat == starter ? starter_tiles : starter_tiles - 1);
    deal.hands[seat].assign(rest.begin() + next, rest.begin() + next + size);
    next += size;
  }
  if (!indicator.has_value()) {
    const auto it =
        std::find_if(rest.begin() + next, rest.end(), [](Tile tile) { return !IsFakeOkey(tile); });
    indicator = *it;
    rest.erase(it);
  }
  deal.indicator_tile = *indicator;
  deal.indicator = PrintedFace(*indicator);
  std::vector<Tile>& left = preset.exact_deck ? deal.out_of_play : deal.deck;
  left.insert(left.end(), rest.begin() + next, rest.end());
  return deal;
}

}  // namespace kahve::engine::okey

#ifndef KAHVE_ENGINE_OKEY_OKEY_DEAL_H_
#define KAHVE_ENGINE_OKEY_OKEY_DEAL_H_

// Dealing the okey family's tiles (RULES.md "Okey tiles", okey "Digital deal"): shuffle the 106
// tiles with the engine's own generator (the same seed gives the same deal on every machine), deal
// the starter one tile more than the others, then turn up the indicator: the next tile that is not
// a fake okey (fakes passed over stay in the deck, in place). The rest is the deck, drawn from its
// front; the indicator is never drawn (docs/engine.md, "The okey family").

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "engine/okey/okey_tiles.h"

namespace kahve::engine::okey {

struct OkeyDeal {
  Face indicator = 0;
  Tile indicator_tile = 0;
  // hands[seat]; the starter's holds `starter_tiles`, the others one fewer.
  std::vector<std::vector<Tile>> hands;
  // Drawn from the front.
  std::vector<Tile> deck;
  // A preset's exact deck leaves these out of play.
  std::vector<Tile> out_of_play;

  Face okey() const { return OkeyFaceFor(indicator); }
};

// Deals `players` hands from a deck shuffled by `seed`: `starter` gets `starter_tiles` (okey and
// okey51: 15; okey101: 22), every other seat one fewer.
OkeyDeal DealTiles(uint64_t seed, int players, int starter, int starter_tiles);

// Deals from `order` (every tile exactly once, dealt from the front): scenarios' preset deals.
OkeyDeal DealFromOrder(std::vector<Tile> order, int players, int starter, int starter_tiles);

// A fixed deal for scenarios, by tile code: each seat's hand in full or empty (dealt from what is
// left), the indicator or none, the top of the deck.
struct DealPreset {
  std::vector<std::vector<Code>> hands;  // one per seat, or fewer (the rest empty)
  std::optional<Code> indicator;
  std::vector<Code> deck;
  // The deck is exactly `deck`; what the hands and indicator leave is out of play.
  bool exact_deck = false;
};

// InvalidArgument when the preset names more copies of a tile than exist, a fake okey as the
// indicator, more hands than seats, or a hand of another size than the seat is dealt.
// `where` prefixes the messages ("deals[1]").
absl::Status CheckDealPreset(const DealPreset& preset, int players, int starter, int starter_tiles,
                             const std::string& where);

// Deals `preset` (checked): each name takes the first copy still free; the tiles it leaves
// unnamed are shuffled by `seed` and fill, in order, the empty hands, the indicator if unnamed
// (the first numbered tile), and the deck after the named deck tiles (out_of_play instead, with
// exact_deck).
OkeyDeal DealFromPreset(const DealPreset& preset, uint64_t seed, int players, int starter,
                        int starter_tiles);

}  // namespace kahve::engine::okey

#endif  // KAHVE_ENGINE_OKEY_OKEY_DEAL_H_

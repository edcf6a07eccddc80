#ifndef KAHVE_ENGINE_OKEY_OKEY_PROTO_H_
#define KAHVE_ENGINE_OKEY_OKEY_PROTO_H_

// The okey family's shared kahve.v1 edge: hints (RULES.md "okey51" table settings, built from what
// one seat may know: its hand and the melds on the table, sorted by the search the bots use), laid
// melds and places as clients see them, and preset deals.

#include <span>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "engine/okey/okey_deal.h"
#include "engine/okey/okey_melds.h"
#include "engine/okey/okey_reasons.h"
#include "kahve/v1/engine.pb.h"
#include "kahve/v1/okey.pb.h"

namespace kahve::engine::okey {

// A run or set on the table and its index in the table's list (pairs take no additions).
struct IndexedMeld {
  int index = 0;
  Meld meld;
};

v1::OkeyHints HintsFor(std::span<const Tile> hand, std::span<const IndexedMeld> table,
                       const Jokers& jokers);

// A laid meld as clients see it: each tile's name, an okey with the face it stands for.
v1::OkeyMeld MeldToProto(std::span<const PlacedTile> tiles, const Jokers& jokers);
v1::OkeyPlace PlaceToProto(AddPlace place);

// Tile names, sorted by code (colour, then number; fake okeys last): how hands are shown.
void AddSortedNames(std::span<const Tile> tiles,
                    google::protobuf::RepeatedPtrField<std::string>* out);

// What a deal's start says to everyone, for any ruleset's DealStarted message (the okey family's
// are alike field for field).
struct DealStart {
  int deal = 0;  // 1-based
  int starter = 0;
  Face indicator = 0;
  int deck_count = 0;
  std::vector<int> hand_counts;
};
template <typename DealStarted>
void FillDealStarted(const DealStart& start, const Jokers& jokers, DealStarted* out) {
  out->set_deal(start.deal);
  out->set_starter(start.starter);
  out->set_indicator(FaceName(start.indicator));
  out->set_okey(FaceName(jokers.okey()));
  out->set_deck_count(start.deck_count);
  for (const int count : start.hand_counts) out->add_hand_counts(count);
}

// A preset deal's tile names as codes; InvalidArgument naming the field (`where`.hands[1]...) for
// a name that is no tile. The counts and sizes are CheckDealPreset's to judge.
absl::StatusOr<DealPreset> DealPresetFromProto(const v1::OkeyDealPreset& proto,
                                               const std::string& where);

// The kahve.v1 rejection reason of a refusal.
v1::RejectionReason ReasonToProto(Reason reason);

// Whether the okey family refuses with `reason` only moves malformed in themselves (a name that
// is no tile, an empty lay or take, an addition with no place): Game::IsMalformed of all three.
bool IsMalformedReason(v1::RejectionReason reason);

}  // namespace kahve::engine::okey

#endif  // KAHVE_ENGINE_OKEY_OKEY_PROTO_H_

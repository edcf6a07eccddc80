#include "engine/okey/okey_proto.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "engine/okey/okey_arrangement.h"

namespace kahve::engine::okey {

void AddSortedNames(std::span<const Tile> tiles,
                    google::protobuf::RepeatedPtrField<std::string>* out) {
  std::vector<Code> codes;
  for (const Tile tile : tiles) codes.push_back(CodeOf(tile));
  std::sort(codes.begin(), codes.end());
  for (const Code code : codes) out->Add(CodeName(code));
}

v1::OkeyMeld MeldToProto(std::span<const PlacedTile> tiles, const Jokers& jokers) {
  v1::OkeyMeld meld;
  for (const PlacedTile& placed : tiles) {
    v1::OkeyPlacedTile* out = meld.add_tiles();
    out->set_tile(CodeName(CodeOf(placed.tile)));
    if (jokers.IsWild(placed.tile) && !placed.open_colour) {
      out->set_stands_for(FaceName(placed.stands_for));
    }
  }
  return meld;
}

v1::OkeyPlace PlaceToProto(AddPlace place) {
  switch (place) {
    case AddPlace::kRunLow:
      return v1::OKEY_PLACE_RUN_LOW;
    case AddPlace::kRunHigh:
      return v1::OKEY_PLACE_RUN_HIGH;
    case AddPlace::kSetColour:
      return v1::OKEY_PLACE_SET_COLOUR;
    case AddPlace::kReplaceWild:
      return v1::OKEY_PLACE_REPLACE_OKEY;
  }
  return v1::OKEY_PLACE_UNSPECIFIED;
}

v1::OkeyHints HintsFor(std::span<const Tile> hand, std::span<const IndexedMeld> table,
                       const Jokers& jokers) {
  v1::OkeyHints hints;
  std::array<uint8_t, kCodes> codes = CountCodes(hand);
  for (int c = 0; c < kCodes; ++c) {
    if (codes[c] == 0) continue;
    const Code code = static_cast<Code>(c);
    const Tile sample = SampleTile(code);
    v1::OkeyHints::TileTargets targets;
    bool penalty = false;
    for (const IndexedMeld& laid : table) {
      for (const AddPlace place : PlacesFor(laid.meld, sample, jokers)) {
        v1::OkeyAddition* addition = targets.add_additions();
        addition->set_tile(CodeName(code));
        addition->set_meld(laid.index);
        addition->set_place(PlaceToProto(place));
        penalty = penalty || place != AddPlace::kReplaceWild;
      }
    }
    if (penalty) hints.add_penalty_tiles(CodeName(code));
    if (targets.additions_size() > 0) {
      targets.set_tile(CodeName(code));
      *hints.add_targets() = std::move(targets);
    }
  }
  FaceCounts faces;
  for (const Tile tile : hand) faces.Add(tile, jokers);
  const Arrangement tidy = BestArrangement(faces, ArrangementGoal::kMostTiles);
  std::array<uint8_t, kCodes> loose = codes;
  for (int i = 0; i < tidy.meld_count; ++i) {
    const std::vector<PlacedTile> tiles = TilesOf(tidy.melds[i], jokers);
    for (const PlacedTile& placed : tiles) --loose[CodeOf(placed.tile)];
    *hints.add_groups() = MeldToProto(tiles, jokers);
  }
  // Loose tiles ascending by colour, then number; the fake okeys last.
  for (int c = 0; c < kCodes; ++c) {
    for (int i = 0; i < loose[c]; ++i) hints.add_loose(CodeName(static_cast<Code>(c)));
  }
  for (const auto& [first, second] : MaxPairs(codes, jokers)) {
    v1::OkeyPair* pair = hints.add_pairs();
    pair->set_first(CodeName(first));
    pair->set_second(CodeName(second));
  }
  return hints;
}

namespace {

absl::Status ParseCodes(const google::protobuf::RepeatedPtrField<std::string>& names,
                        const std::string& where, std::vector<Code>* out) {
  for (const std::string& name : names) {
    const std::optional<Code> code = ParseCode(name);
    if (!code.has_value()) {
      return absl::InvalidArgumentError(
          absl::StrCat(where, ": \"", name, "\" is no tile (R, B, K or Y and 1..13, or F)"));
    }
    out->push_back(*code);
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<DealPreset> DealPresetFromProto(const v1::OkeyDealPreset& proto,
                                               const std::string& where) {
  DealPreset preset;
  for (int seat = 0; seat < proto.hands_size(); ++seat) {
    KAHVE_RETURN_IF_ERROR(ParseCodes(proto.hands(seat).tiles(),
                                     absl::StrCat(where, ".hands[", seat, "]"),
                                     &preset.hands.emplace_back()));
  }
  if (!proto.indicator().empty()) {
    const std::optional<Code> code = ParseCode(proto.indicator());
    if (!code.has_value()) {
      return absl::InvalidArgumentError(
          absl::StrCat(where, ".indicator: \"", proto.indicator(), "\" is no tile"));
    }
    preset.indicator = *code;
  }
  KAHVE_RETURN_IF_ERROR(ParseCodes(proto.deck(), absl::StrCat(where, ".deck"), &preset.deck));
  preset.exact_deck = proto.exact_deck();
  return preset;
}

v1::RejectionReason ReasonToProto(Reason reason) {
  switch (reason) {
    case Reason::kNone:
      return v1::REJECTION_REASON_UNSPECIFIED;
    case Reason::kUnknownTile:
      return v1::OKEY_UNKNOWN_TILE;
    case Reason::kTileNotInHand:
      return v1::OKEY_TILE_NOT_IN_HAND;
    case Reason::kMustDraw:
      return v1::OKEY_MUST_DRAW;
    case Reason::kAlreadyDrawn:
      return v1::OKEY_ALREADY_DRAWN;
    case Reason::kNoDiscardToTake:
      return v1::OKEY_NO_DISCARD_TO_TAKE;
    case Reason::kDiscardNotUsed:
      return v1::OKEY_DISCARD_NOT_USED;
    case Reason::kInvalidMeld:
      return v1::OKEY_INVALID_MELD;
    case Reason::kOpeningTooLow:
      return v1::OKEY_OPENING_TOO_LOW;
    case Reason::kNotOpened:
      return v1::OKEY_NOT_OPENED;
    case Reason::kOpenedWithPairs:
      return v1::OKEY_OPENED_WITH_PAIRS;
    case Reason::kOpenedWithMelds:
      return v1::OKEY_OPENED_WITH_MELDS;
    case Reason::kTooFewPairs:
      return v1::OKEY_TOO_FEW_PAIRS;
    case Reason::kNotAPair:
      return v1::OKEY_NOT_A_PAIR;
    case Reason::kNoSuchMeld:
      return v1::OKEY_NO_SUCH_MELD;
    case Reason::kDoesNotFit:
      return v1::OKEY_DOES_NOT_FIT;
    case Reason::kMustKeepATile:
      return v1::OKEY_MUST_KEEP_A_TILE;
    case Reason::kNothingLaid:
      return v1::OKEY_NOTHING_LAID;
    case Reason::kBadStandIn:
      return v1::OKEY_BAD_STAND_IN;
    case Reason::kMissingPlace:
      return v1::OKEY_MISSING_PLACE;
    case Reason::kNotYourTurn:
      return v1::NOT_YOUR_TURN;
    case Reason::kNotAWin:
      return v1::OKEY_NOT_A_WINNING_HAND;
    case Reason::kTakeNeedsAWin:
      return v1::OKEY_TAKE_NEEDS_A_WIN;
    case Reason::kCannotShowIndicator:
      return v1::OKEY_CANNOT_SHOW_INDICATOR;
    case Reason::kGroupsNotTheHand:
      return v1::OKEY_GROUPS_NOT_THE_HAND;
  }
  return v1::REJECTION_REASON_UNSPECIFIED;
}

bool IsMalformedReason(v1::RejectionReason reason) {
  return reason == v1::OKEY_UNKNOWN_TILE || reason == v1::OKEY_NOTHING_LAID ||
         reason == v1::OKEY_MISSING_PLACE;
}

}  // namespace kahve::engine::okey

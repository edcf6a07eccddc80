#include "engine/okey_laying/okey_laying_codec.h"

#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "engine/okey/okey_proto.h"

namespace kahve::engine::okey_laying {
namespace {

using okey::Jokers;

std::optional<AddPlace> PlaceFromProto(v1::OkeyPlace place) {
  switch (place) {
    case v1::OKEY_PLACE_RUN_LOW:
      return AddPlace::kRunLow;
    case v1::OKEY_PLACE_RUN_HIGH:
      return AddPlace::kRunHigh;
    case v1::OKEY_PLACE_SET_COLOUR:
      return AddPlace::kSetColour;
    case v1::OKEY_PLACE_REPLACE_OKEY:
      return AddPlace::kReplaceWild;
    default:
      return std::nullopt;
  }
}

Refusal UnknownTile(std::string_view where, std::string_view name) {
  return {Reason::kUnknownTile,
          absl::StrCat(std::string(where), ": \"", std::string(name),
                       "\" is no tile (a colour R, B, K or Y and a number 1..13, or F)")};
}

Refusal DecodeTile(std::string_view where, std::string_view name, Code* code) {
  const std::optional<Code> parsed = ParseCode(name);
  if (!parsed.has_value()) return UnknownTile(where, name);
  *code = *parsed;
  return {};
}

Refusal DecodeMelds(const v1::OkeyMelds& proto, const Jokers& jokers, Action* action) {
  for (int m = 0; m < proto.melds_size(); ++m) {
    std::vector<PlacedTile>& tiles = action->melds.emplace_back();
    for (int t = 0; t < proto.melds(m).tiles_size(); ++t) {
      const v1::OkeyPlacedTile& placed = proto.melds(m).tiles(t);
      const std::string where = absl::StrCat("melds[", m, "].tiles[", t, "]");
      Code code = 0;
      if (Refusal refusal = DecodeTile(where, placed.tile(), &code);
          refusal.reason != Reason::kNone) {
        return refusal;
      }
      PlacedTile& out = tiles.emplace_back();
      out.tile = SampleTile(code);
      const bool wild = jokers.IsWild(out.tile);
      if (placed.stands_for().empty()) {
        // An okey with no stand-in keeps its colour open; CheckMeld refuses that in a run.
        out.open_colour = wild;
        continue;
      }
      const std::optional<Face> face = okey::ParseFace(placed.stands_for());
      if (!face.has_value()) {
        return UnknownTile(absl::StrCat(where, ".stands_for"), placed.stands_for());
      }
      out.stands_for = *face;
    }
  }
  return {};
}

Refusal DecodePairs(const v1::OkeyPairs& proto, Action* action) {
  for (int p = 0; p < proto.pairs_size(); ++p) {
    std::array<Code, 2>& pair = action->pairs.emplace_back();
    const std::string where = absl::StrCat("pairs[", p, "]");
    if (Refusal r = DecodeTile(where, proto.pairs(p).first(), &pair[0]);
        r.reason != Reason::kNone) {
      return r;
    }
    if (Refusal r = DecodeTile(where, proto.pairs(p).second(), &pair[1]);
        r.reason != Reason::kNone) {
      return r;
    }
  }
  return {};
}

Refusal DecodeAddition(const v1::OkeyAddition& proto, Action* action) {
  if (Refusal r = DecodeTile("add_tile", proto.tile(), &action->addition.tile);
      r.reason != Reason::kNone) {
    return r;
  }
  const std::optional<AddPlace> place = PlaceFromProto(proto.place());
  if (!place.has_value()) {
    return {Reason::kMissingPlace,
            "add_tile.place: set one of RUN_LOW, RUN_HIGH, SET_COLOUR, REPLACE_OKEY"};
  }
  action->addition.meld = proto.meld();
  action->addition.place = *place;
  return {};
}

// A take's further lays, each an Action of its own kind.
Refusal DecodeFurtherLays(const v1::OkeyLayingMove::TakeDiscard& take, const Jokers& jokers,
                          Action* action) {
  for (int i = 0; i < take.further_lays_size(); ++i) {
    const v1::OkeyLay& proto = take.further_lays(i);
    Action& lay = action->further.emplace_back();
    Refusal refusal;
    switch (proto.lay_case()) {
      case v1::OkeyLay::kLayMelds:
        lay.kind = ActionKind::kLayMelds;
        refusal = DecodeMelds(proto.lay_melds(), jokers, &lay);
        break;
      case v1::OkeyLay::kLayPairs:
        lay.kind = ActionKind::kLayPairs;
        refusal = DecodePairs(proto.lay_pairs(), &lay);
        break;
      case v1::OkeyLay::kAddTile:
        lay.kind = ActionKind::kAddTile;
        refusal = DecodeAddition(proto.add_tile(), &lay);
        break;
      case v1::OkeyLay::LAY_NOT_SET:
        refusal = {Reason::kNothingLaid, "sets none of lay_melds, lay_pairs, add_tile"};
        break;
    }
    if (refusal.reason != Reason::kNone) {
      refusal.message = absl::StrCat("take_discard.further_lays[", i, "]: ", refusal.message);
      return refusal;
    }
  }
  return {};
}

// A stands_for on a tile that is no okey in `melds` (`where` prefixes the field). Which tile is an
// okey depends on the deal, so this is asked only once every name of the move has parsed: a
// malformed part of the move is named first.
Refusal CheckStandIns(const v1::OkeyMelds& melds, const Jokers& jokers, std::string_view where) {
  for (int m = 0; m < melds.melds_size(); ++m) {
    for (int t = 0; t < melds.melds(m).tiles_size(); ++t) {
      const v1::OkeyPlacedTile& placed = melds.melds(m).tiles(t);
      if (placed.stands_for().empty() || jokers.IsWild(SampleTile(*ParseCode(placed.tile())))) {
        continue;
      }
      return {Reason::kBadStandIn,
              absl::StrCat(std::string(where), "melds[", m, "].tiles[", t,
                           "]: stands_for is for okeys; ", placed.tile(), " is not one")};
    }
  }
  return {};
}

// CheckStandIns of every meld a decoded move lays.
Refusal CheckMoveStandIns(const v1::OkeyLayingMove& move, const Jokers& jokers) {
  if (move.has_lay_melds()) return CheckStandIns(move.lay_melds(), jokers, "");
  if (!move.has_take_discard()) return {};
  const v1::OkeyLayingMove::TakeDiscard& take = move.take_discard();
  Refusal refusal = CheckStandIns(take.lay_melds(), jokers, "take_discard.");
  for (int i = 0; i < take.further_lays_size() && refusal.reason == Reason::kNone; ++i) {
    refusal = CheckStandIns(take.further_lays(i).lay_melds(), jokers,
                            absl::StrCat("take_discard.further_lays[", i, "]."));
  }
  return refusal;
}

void MeldsToProto(const std::vector<std::vector<PlacedTile>>& melds, const Jokers& jokers,
                  v1::OkeyMelds* proto) {
  for (const std::vector<PlacedTile>& tiles : melds) {
    *proto->add_melds() = okey::MeldToProto(tiles, jokers);
  }
}

void PairsToProto(const std::vector<std::array<Code, 2>>& pairs, v1::OkeyPairs* proto) {
  for (const auto& [first, second] : pairs) {
    v1::OkeyPair* pair = proto->add_pairs();
    pair->set_first(CodeName(first));
    pair->set_second(CodeName(second));
  }
}

void AdditionToProto(const Addition& addition, v1::OkeyAddition* proto) {
  proto->set_tile(CodeName(addition.tile));
  proto->set_meld(addition.meld);
  proto->set_place(okey::PlaceToProto(addition.place));
}

// One further lay of a take, by its own kind.
void LayToProto(const Action& lay, const Jokers& jokers, v1::OkeyLay* proto) {
  switch (lay.kind) {
    case ActionKind::kLayMelds:
      MeldsToProto(lay.melds, jokers, proto->mutable_lay_melds());
      break;
    case ActionKind::kLayPairs:
      PairsToProto(lay.pairs, proto->mutable_lay_pairs());
      break;
    case ActionKind::kAddTile:
      AdditionToProto(lay.addition, proto->mutable_add_tile());
      break;
    default:
      break;
  }
}

// The move's action with every name parsed, or why a part of it is malformed.
Refusal DecodeNames(const v1::OkeyLayingMove& move, const Jokers& jokers, Action* action) {
  switch (move.action_case()) {
    case v1::OkeyLayingMove::kDraw:
      action->kind = ActionKind::kDraw;
      return {};
    case v1::OkeyLayingMove::kTakeDiscard: {
      action->kind = ActionKind::kTakeDiscard;
      const v1::OkeyLayingMove::TakeDiscard& take = move.take_discard();
      Refusal refusal;
      switch (take.use_case()) {
        case v1::OkeyLayingMove::TakeDiscard::kLayMelds:
          action->use = ActionKind::kLayMelds;
          refusal = DecodeMelds(take.lay_melds(), jokers, action);
          break;
        case v1::OkeyLayingMove::TakeDiscard::kLayPairs:
          action->use = ActionKind::kLayPairs;
          refusal = DecodePairs(take.lay_pairs(), action);
          break;
        case v1::OkeyLayingMove::TakeDiscard::kAddTile:
          action->use = ActionKind::kAddTile;
          refusal = DecodeAddition(take.add_tile(), action);
          break;
        case v1::OkeyLayingMove::TakeDiscard::USE_NOT_SET:
          return {Reason::kNothingLaid,
                  "take_discard: set its use (lay_melds, lay_pairs or add_tile); a taken discard "
                  "reaches the table in the same move"};
      }
      if (refusal.reason != Reason::kNone) return refusal;
      return DecodeFurtherLays(take, jokers, action);
    }
    case v1::OkeyLayingMove::kLayMelds:
      action->kind = ActionKind::kLayMelds;
      return DecodeMelds(move.lay_melds(), jokers, action);
    case v1::OkeyLayingMove::kLayPairs:
      action->kind = ActionKind::kLayPairs;
      return DecodePairs(move.lay_pairs(), action);
    case v1::OkeyLayingMove::kAddTile:
      action->kind = ActionKind::kAddTile;
      return DecodeAddition(move.add_tile(), action);
    case v1::OkeyLayingMove::kDiscard:
      action->kind = ActionKind::kDiscard;
      return DecodeTile("discard", move.discard().tile(), &action->tile);
    case v1::OkeyLayingMove::ACTION_NOT_SET:
      break;
  }
  return {Reason::kNothingLaid, "no action"};
}

}  // namespace

absl::StatusOr<Preset> PresetFromProto(const v1::OkeyLayingPreset& proto, const Rules& rules) {
  Preset preset;
  if (proto.deals_size() > rules.deals) {
    return absl::InvalidArgumentError(
        absl::StrCat("preset.deals: ", proto.deals_size(), " deals for a game of ", rules.deals));
  }
  for (int d = 0; d < proto.deals_size(); ++d) {
    KAHVE_ASSIGN_OR_RETURN(
        DealPreset deal,
        okey::DealPresetFromProto(proto.deals(d), absl::StrCat("preset.deals[", d, "]")));
    preset.deals.push_back(std::move(deal));
  }
  KAHVE_RETURN_IF_ERROR(ValidatePreset(preset, rules));
  return preset;
}

Refusal DecodeMove(const v1::OkeyLayingMove& move, const Jokers& jokers, Action* action) {
  Refusal refusal = DecodeNames(move, jokers, action);
  if (refusal.reason != Reason::kNone) return refusal;
  return CheckMoveStandIns(move, jokers);
}

v1::OkeyLayingMove ActionToProto(const Action& action, const Jokers& jokers) {
  v1::OkeyLayingMove move;
  v1::OkeyLayingMove* okey = &move;
  const auto fill_lay = [&](ActionKind kind, v1::OkeyMelds* melds, v1::OkeyPairs* pairs,
                            v1::OkeyAddition* addition) {
    if (kind == ActionKind::kLayMelds) MeldsToProto(action.melds, jokers, melds);
    if (kind == ActionKind::kLayPairs) PairsToProto(action.pairs, pairs);
    if (kind == ActionKind::kAddTile) AdditionToProto(action.addition, addition);
  };
  switch (action.kind) {
    case ActionKind::kDraw:
      okey->mutable_draw();
      break;
    case ActionKind::kTakeDiscard: {
      v1::OkeyLayingMove::TakeDiscard* take = okey->mutable_take_discard();
      if (action.use == ActionKind::kLayMelds) {
        fill_lay(action.use, take->mutable_lay_melds(), nullptr, nullptr);
      } else if (action.use == ActionKind::kLayPairs) {
        fill_lay(action.use, nullptr, take->mutable_lay_pairs(), nullptr);
      } else {
        fill_lay(action.use, nullptr, nullptr, take->mutable_add_tile());
      }
      for (const Action& lay : action.further) LayToProto(lay, jokers, take->add_further_lays());
      break;
    }
    case ActionKind::kLayMelds:
      fill_lay(action.kind, okey->mutable_lay_melds(), nullptr, nullptr);
      break;
    case ActionKind::kLayPairs:
      fill_lay(action.kind, nullptr, okey->mutable_lay_pairs(), nullptr);
      break;
    case ActionKind::kAddTile:
      fill_lay(action.kind, nullptr, nullptr, okey->mutable_add_tile());
      break;
    case ActionKind::kDiscard:
      okey->mutable_discard()->set_tile(CodeName(action.tile));
      break;
  }
  return move;
}

}  // namespace kahve::engine::okey_laying

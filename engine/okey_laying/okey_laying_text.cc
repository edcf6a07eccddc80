#include "engine/okey_laying/okey_laying_text.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "engine/core/ruleset_text.h"
#include "engine/okey/okey_text.h"

namespace kahve::engine::okey_laying {
namespace {

using okey::AdditionText;
using okey::HandText;
using okey::MeldText;
using okey::PairText;
using okey::TableMeldText;
using okey::TilesText;

std::string Melds(const v1::OkeyMelds& melds) {
  std::vector<std::string> parts;
  for (const v1::OkeyMeld& meld : melds.melds()) parts.push_back(MeldText(meld));
  return absl::StrCat("lays ", absl::StrJoin(parts, " | "));
}

std::string Pairs(const v1::OkeyPairs& pairs) {
  std::vector<std::string> parts;
  for (const v1::OkeyPair& pair : pairs.pairs()) parts.push_back(PairText(pair));
  return absl::StrCat("lays pairs ", absl::StrJoin(parts, " | "));
}

std::string Lay(const v1::OkeyLay& lay) {
  if (lay.has_lay_melds()) return Melds(lay.lay_melds());
  if (lay.has_lay_pairs()) return Pairs(lay.lay_pairs());
  if (lay.has_add_tile()) return absl::StrCat("adds ", AdditionText(lay.add_tile()));
  return "(no lay)";
}

std::string TakeDiscard(const v1::OkeyLayingMove::TakeDiscard& take) {
  std::vector<std::string> parts = {"takes the discard"};
  if (take.has_lay_melds()) parts.push_back(Melds(take.lay_melds()));
  if (take.has_lay_pairs()) parts.push_back(Pairs(take.lay_pairs()));
  if (take.has_add_tile()) parts.push_back(absl::StrCat("adds ", AdditionText(take.add_tile())));
  for (const v1::OkeyLay& lay : take.further_lays()) parts.push_back(Lay(lay));
  return absl::StrJoin(parts, ", then ");
}

const char* FinishText(v1::OkeyLayingFinish finish) {
  switch (finish) {
    case v1::OKEY_FINISH_FROM_HAND:
      return "finished from the hand";
    case v1::OKEY_FINISH_PAIRS:
      return "finished with pairs";
    case v1::OKEY_FINISH_OKEY_DISCARD:
      return "finished discarding an okey";
    case v1::OKEY_FINISH_DECK_EXHAUSTED:
      return "the deck ran out";
    default:
      return "ended";
  }
}

const char* PenaltyText(v1::OkeyPenaltyKind kind) {
  switch (kind) {
    case v1::OKEY_PENALTY_TILE_ADDED:
      return "a tile added to its meld";
    case v1::OKEY_PENALTY_OKEY_TAKEN:
      return "an okey taken from its meld";
    case v1::OKEY_PENALTY_PENALTY_TILE:
      return "discarding a tile that fits the table";
    case v1::OKEY_PENALTY_DISCARD_TAKEN:
      return "its discard taken";
    case v1::OKEY_PENALTY_OKEY_DISCARDED:
      return "discarding an okey";
    default:
      return "a penalty";
  }
}

const char* OpenedText(v1::OkeyOpened opened) {
  switch (opened) {
    case v1::OKEY_OPENED_MELDS:
      return "melds";
    case v1::OKEY_OPENED_PAIRS:
      return "pairs";
    default:
      return "-";
  }
}

std::string DealEnded(const v1::OkeyLayingEvent::DealEnded& ended) {
  std::string text = absl::StrCat("deal ", ended.deal(), " ends: ", FinishText(ended.finish()));
  if (ended.finisher() >= 0) absl::StrAppend(&text, " by ", SeatText(ended.finisher()));
  absl::StrAppend(&text, ", multiplier ", ended.multiplier(),
                  ended.one_turn() ? ", in one turn" : "");
  for (int seat = 0; seat < ended.seats_size(); ++seat) {
    const auto& end = ended.seats(seat);
    absl::StrAppend(&text, "\n", SeatText(seat), " held [", TilesText(end.hand()), "], opened ",
                    OpenedText(end.opened()), ": settlement ", end.settlement(), " + penalties ",
                    end.penalties(), " = ", end.deal_score(), ", total ", end.total());
  }
  return text;
}

}  // namespace

std::string MoveText(const v1::OkeyLayingMove& move) {
  switch (move.action_case()) {
    case v1::OkeyLayingMove::kDraw:
      return "draws from the deck";
    case v1::OkeyLayingMove::kTakeDiscard:
      return TakeDiscard(move.take_discard());
    case v1::OkeyLayingMove::kLayMelds:
      return Melds(move.lay_melds());
    case v1::OkeyLayingMove::kLayPairs:
      return Pairs(move.lay_pairs());
    case v1::OkeyLayingMove::kAddTile:
      return absl::StrCat("adds ", AdditionText(move.add_tile()));
    case v1::OkeyLayingMove::kDiscard:
      return absl::StrCat("discards ", move.discard().tile());
    case v1::OkeyLayingMove::ACTION_NOT_SET:
      break;
  }
  return "(no action)";
}

std::string EventText(const v1::Event& event, const v1::OkeyLayingEvent& laying) {
  const std::string seat = SeatText(event.has_seat() ? event.seat() : -1);
  switch (laying.event_case()) {
    case v1::OkeyLayingEvent::kDealStarted: {
      const auto& deal = laying.deal_started();
      return absl::StrCat("deal ", deal.deal(), " starts, ", SeatText(deal.starter()), " first; ",
                          okey::IndicatorText(deal.indicator(), deal.okey()), "; deck ",
                          deal.deck_count(), "; hands ", PerSeatText(deal.hand_counts()));
    }
    case v1::OkeyLayingEvent::kTilesDealt:
      return absl::StrCat(seat, " is dealt ", HandText(laying.tiles_dealt().tiles()));
    case v1::OkeyLayingEvent::kDrewFromDeck:
      return absl::StrCat(seat, " draws from the deck (", laying.drew_from_deck().deck_count(),
                          " left)");
    case v1::OkeyLayingEvent::kTileDrawn:
      return absl::StrCat(seat, " drew ", laying.tile_drawn().tile());
    case v1::OkeyLayingEvent::kDiscardTaken:
      return absl::StrCat(seat, " takes ", laying.discard_taken().tile(), " discarded by ",
                          SeatText(laying.discard_taken().discarder()));
    case v1::OkeyLayingEvent::kMeldsLaid: {
      const auto& laid = laying.melds_laid();
      std::vector<std::string> melds;
      for (const v1::OkeyTableMeld& meld : laid.melds()) melds.push_back(TableMeldText(meld));
      std::string text = absl::StrCat(seat, laid.opening() ? " opens with " : " lays ",
                                      absl::StrJoin(melds, " | "));
      if (laid.opening_sum() > 0) absl::StrAppend(&text, "; sum ", laid.opening_sum());
      return text;
    }
    case v1::OkeyLayingEvent::kTileAdded: {
      const auto& added = laying.tile_added();
      std::string text = absl::StrCat(seat, " adds ", AdditionText(added.addition()), ": ",
                                      TableMeldText(added.meld()));
      if (!added.okey_taken().empty())
        absl::StrAppend(&text, "; takes the okey ", added.okey_taken());
      return text;
    }
    case v1::OkeyLayingEvent::kTileDiscarded:
      return absl::StrCat(seat, " discards ", laying.tile_discarded().tile(), " (",
                          laying.tile_discarded().hand_count(), " in hand)");
    case v1::OkeyLayingEvent::kPenalty: {
      const auto& penalty = laying.penalty();
      return absl::StrCat(seat, " takes a penalty of ", penalty.points(), " for ",
                          PenaltyText(penalty.kind()), " (by ", SeatText(penalty.by()), ")");
    }
    case v1::OkeyLayingEvent::kDealEnded:
      return DealEnded(laying.deal_ended());
    case v1::OkeyLayingEvent::kDealVoided:
      return absl::StrCat("deal ", laying.deal_voided().deal(),
                          " is void (the fourth seat opened with pairs); it is dealt again");
    case v1::OkeyLayingEvent::EVENT_NOT_SET:
      break;
  }
  return "";
}

std::vector<std::string> ViewLines(const v1::View& view, const v1::OkeyLayingView& laying) {
  std::vector<std::string> lines;
  lines.push_back(absl::StrCat("deal ", laying.deal(), " of ", laying.deals(), ", ",
                               okey::IndicatorText(laying.indicator(), laying.okey()), "; deck ",
                               laying.deck_count(), "; opening needs ", laying.opening_needs()));
  if (view.seat() >= 0) lines.push_back(absl::StrCat("your hand ", HandText(laying.my_hand())));
  std::vector<std::string> opened;
  for (int seat = 0; seat < laying.opened_size(); ++seat) {
    opened.push_back(absl::StrCat(seat, ":", OpenedText(laying.opened(seat))));
  }
  lines.push_back(absl::StrCat("hands ", PerSeatText(laying.hand_counts()), "; opened ",
                               absl::StrJoin(opened, " ")));
  std::vector<std::string> melds;
  for (const v1::OkeyTableMeld& meld : laying.table()) melds.push_back(TableMeldText(meld));
  lines.push_back(absl::StrCat("table ", melds.empty() ? "-" : absl::StrJoin(melds, " | ")));
  std::vector<std::string> piles;
  for (int seat = 0; seat < laying.discards_size(); ++seat) {
    piles.push_back(absl::StrCat(seat, ":[", TilesText(laying.discards(seat).tiles()), "]"));
  }
  lines.push_back(absl::StrCat("discards ", absl::StrJoin(piles, " ")));
  lines.push_back(absl::StrCat("penalties ", PerSeatText(laying.penalties()), "; totals ",
                               PerSeatText(laying.totals())));
  return lines;
}

}  // namespace kahve::engine::okey_laying

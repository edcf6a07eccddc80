#include "engine/okey_classic/okey_classic_text.h"

#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "engine/okey/okey_text.h"

namespace kahve::engine::okey_classic {
namespace {

using okey::HandText;
using okey::MeldText;
using okey::PairText;
using okey::TilesText;

std::string Settings(const v1::GameSettings& settings) {
  const v1::OkeySettings& okey = settings.okey();
  std::vector<std::string> parts = {absl::StrCat(okey.players(), " players")};
  if (okey.partners()) parts.push_back("partners");
  if (okey.indicator_last_tile()) parts.push_back("indicator is the last tile");
  if (okey.elimination()) parts.push_back("elimination");
  if (okey.single_colour_doubles()) {
    parts.push_back(okey.single_colour_red_black_only() ? "red/black single colour doubles"
                                                        : "single colour doubles");
  }
  if (okey.max_deals() > 0)
    parts.push_back(absl::StrCat("at most ", Counted(okey.max_deals(), "deal")));
  parts.push_back(absl::StrCat("first starter ", SeatText(okey.first_starter())));
  return absl::StrJoin(parts, ", ");
}

std::string Win(const v1::OkeyWin& win) {
  std::string text = absl::StrCat("wins, discarding ", win.discard());
  if (win.seven_pairs()) absl::StrAppend(&text, ", with seven pairs");
  std::vector<std::string> groups;
  for (const v1::OkeyMeld& group : win.groups()) groups.push_back(MeldText(group));
  if (!groups.empty()) absl::StrAppend(&text, ", showing ", absl::StrJoin(groups, " | "));
  return text;
}

std::string Move(const v1::Move& move) {
  const v1::OkeyMove& okey = move.okey();
  switch (okey.action_case()) {
    case v1::OkeyMove::kDraw:
      return "draws from the deck";
    case v1::OkeyMove::kTakeDiscard:
      return okey.take_discard().has_win()
                 ? absl::StrCat("takes the discard and ", Win(okey.take_discard().win()))
                 : "takes the discard";
    case v1::OkeyMove::kDiscard:
      return absl::StrCat("discards ", okey.discard().tile());
    case v1::OkeyMove::kWin:
      return Win(okey.win());
    case v1::OkeyMove::kShowIndicator:
      return "shows the indicator's twin (gosterme)";
    case v1::OkeyMove::ACTION_NOT_SET:
      break;
  }
  return "(no action)";
}

std::string Won(const std::string& seat, const v1::OkeyEvent::Won& won) {
  std::string text = absl::StrCat(seat, " wins discarding ", won.discard());
  if (won.seven_pairs()) absl::StrAppend(&text, ", seven pairs");
  if (won.okey_discard()) absl::StrAppend(&text, ", the okey discarded");
  if (won.single_colour()) absl::StrAppend(&text, ", one colour");
  absl::StrAppend(&text, "; each loser loses ", won.points());
  std::vector<std::string> groups;
  for (const v1::OkeyMeld& group : won.groups()) groups.push_back(MeldText(group));
  for (const v1::OkeyPair& pair : won.pairs()) groups.push_back(PairText(pair));
  if (!groups.empty()) absl::StrAppend(&text, "; shows ", absl::StrJoin(groups, " | "));
  return text;
}

std::string Event(const v1::Event& event) {
  const v1::OkeyEvent& okey = event.okey();
  const std::string seat = SeatText(event.has_seat() ? event.seat() : -1);
  switch (okey.event_case()) {
    case v1::OkeyEvent::kDealStarted: {
      const auto& deal = okey.deal_started();
      return absl::StrCat("deal ", deal.deal(), " starts, ", SeatText(deal.starter()), " first; ",
                          okey::IndicatorText(deal.indicator(), deal.okey()), "; deck ",
                          deal.deck_count(), "; hands ", PerSeatText(deal.hand_counts()));
    }
    case v1::OkeyEvent::kTilesDealt:
      return absl::StrCat(seat, " is dealt ", HandText(okey.tiles_dealt().tiles()));
    case v1::OkeyEvent::kDrewFromDeck:
      return absl::StrCat(seat, " draws from the deck (", okey.drew_from_deck().deck_count(),
                          " left)");
    case v1::OkeyEvent::kTileDrawn:
      return absl::StrCat(seat, " drew ", okey.tile_drawn().tile());
    case v1::OkeyEvent::kDiscardTaken:
      return absl::StrCat(seat, " takes ", okey.discard_taken().tile(), " discarded by ",
                          SeatText(okey.discard_taken().discarder()));
    case v1::OkeyEvent::kTileDiscarded:
      return absl::StrCat(seat, " discards ", okey.tile_discarded().tile());
    case v1::OkeyEvent::kIndicatorShown:
      return absl::StrCat(seat, " shows ", okey.indicator_shown().tile(), ", the indicator's twin");
    case v1::OkeyEvent::kWon:
      return Won(seat, okey.won());
    case v1::OkeyEvent::kPointsLost:
      return absl::StrCat(seat, " loses ", okey.points_lost().points(), " points, ",
                          okey.points_lost().left(), " left");
    case v1::OkeyEvent::kDealEnded: {
      const auto& ended = okey.deal_ended();
      return absl::StrCat("deal ", ended.deal(), " ends, ",
                          ended.winner() < 0 ? std::string("the deck ran out, no score")
                                             : absl::StrCat(SeatText(ended.winner()), " won"),
                          "; points ", PerSeatText(ended.points()));
    }
    case v1::OkeyEvent::kSeatEliminated:
      return absl::StrCat(seat, " is out, ranked ", okey.seat_eliminated().rank());
    case v1::OkeyEvent::EVENT_NOT_SET:
      break;
  }
  return "";
}

std::vector<std::string> View(const v1::View& view) {
  const v1::OkeyView& okey = view.okey();
  std::vector<std::string> lines;
  lines.push_back(absl::StrCat("deal ", okey.deal(), ", ",
                               okey::IndicatorText(okey.indicator(), okey.okey()), "; deck ",
                               okey.deck_count(), "; points ", PerSeatText(okey.points())));
  if (view.seat() >= 0) lines.push_back(absl::StrCat("your hand ", HandText(okey.my_hand())));
  lines.push_back(absl::StrCat("hands ", PerSeatText(okey.hand_counts())));
  // Piles show what the view shows: a seat its own and the previous seat's in full, others' tops.
  std::vector<std::string> piles;
  for (int seat = 0; seat < okey.discards_size(); ++seat) {
    const v1::OkeyView::Pile& pile = okey.discards(seat);
    // Oldest first: the tiles the view does not show lie under those it shows.
    const int under = pile.count() - pile.tiles_size();
    piles.push_back(absl::StrCat(seat, ":[", under > 0 ? absl::StrCat("(", under, " under) ") : "",
                                 TilesText(pile.tiles()), "]"));
  }
  lines.push_back(absl::StrCat("discards ", absl::StrJoin(piles, " ")));
  return lines;
}

}  // namespace

const RulesetText& Text() {
  static const RulesetText kText{
      .settings = &Settings, .move = &Move, .event = &Event, .view = &View};
  return kText;
}

}  // namespace kahve::engine::okey_classic

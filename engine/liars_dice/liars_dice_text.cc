#include "engine/liars_dice/liars_dice_text.h"

#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace kahve::engine::liars_dice {
namespace {

std::string Bid(const v1::LiarsDiceBid& bid) {
  return absl::StrCat(bid.quantity(), " x ", bid.face());
}

std::string Dice(const google::protobuf::RepeatedField<int32_t>& dice) {
  return absl::StrCat("[", absl::StrJoin(dice, " "), "]");
}

std::string Settings(const v1::GameSettings& settings) {
  const v1::LiarsDiceSettings& dice = settings.liars_dice();
  std::string text = absl::StrCat(dice.players(), " players, ", dice.dice_per_player(),
                                  dice.dice_per_player() == 1 ? " die" : " dice", " each");
  if (dice.max_rounds() > 0) absl::StrAppend(&text, ", at most ", dice.max_rounds(), " rounds");
  return text;
}

std::string Move(const v1::Move& move) {
  const v1::LiarsDiceMove& dice = move.liars_dice();
  if (dice.has_bid()) return absl::StrCat("bids ", Bid(dice.bid()));
  if (dice.has_challenge()) return "challenges the last bid";
  if (dice.has_declare_putana()) return "declares Putana";
  return "(no action)";
}

std::string Reveal(const v1::LiarsDiceEvent::DiceRevealed& reveal) {
  std::vector<std::string> seats;
  for (int seat = 0; seat < reveal.dice_size(); ++seat) {
    seats.push_back(absl::StrCat(seat, ":", Dice(reveal.dice(seat).dice())));
  }
  return absl::StrCat("dice shown: ", absl::StrJoin(seats, " "), "; ", reveal.counted(),
                      " count for the bid, which ", reveal.bid_stood() ? "stood" : "fell");
}

std::string Event(const v1::Event& event) {
  const v1::LiarsDiceEvent& dice = event.liars_dice();
  const std::string seat = SeatText(event.has_seat() ? event.seat() : -1);
  switch (dice.event_case()) {
    case v1::LiarsDiceEvent::kRoundStarted:
      return absl::StrCat("round ", dice.round_started().round(), " starts, ",
                          SeatText(dice.round_started().starter()), " bids first; dice per seat ",
                          PerSeatText(dice.round_started().dice_counts()));
    case v1::LiarsDiceEvent::kDiceRolled:
      return absl::StrCat(seat, " rolled ", Dice(dice.dice_rolled().dice()));
    case v1::LiarsDiceEvent::kPutanaDeclared:
      return absl::StrCat(seat, " declares Putana: the face is fixed this round");
    case v1::LiarsDiceEvent::kBidMade:
      return absl::StrCat(seat, " bids ", Bid(dice.bid_made().bid()));
    case v1::LiarsDiceEvent::kChallenged:
      return absl::StrCat(seat, " challenges ", SeatText(dice.challenged().bidder()), "'s bid ",
                          Bid(dice.challenged().bid()));
    case v1::LiarsDiceEvent::kDiceRevealed:
      return Reveal(dice.dice_revealed());
    case v1::LiarsDiceEvent::kDieLost:
      return absl::StrCat(seat, " loses a die, ", dice.die_lost().dice_left(), " left");
    case v1::LiarsDiceEvent::kSeatEliminated:
      return absl::StrCat(seat, " is out, ranked ", dice.seat_eliminated().rank());
    case v1::LiarsDiceEvent::EVENT_NOT_SET:
      break;
  }
  return "";
}

std::vector<std::string> View(const v1::View& view) {
  const v1::LiarsDiceView& dice = view.liars_dice();
  std::vector<std::string> lines;
  std::string table =
      absl::StrCat("round ", dice.round(), "; dice per seat ", PerSeatText(dice.dice_counts()),
                   " (", dice.dice_on_table(), " on the table)");
  if (dice.putana_round()) absl::StrAppend(&table, "; a Putana round");
  lines.push_back(table);
  if (view.seat() >= 0) lines.push_back(absl::StrCat("your dice ", Dice(dice.my_dice())));
  if (dice.bids().empty()) {
    lines.push_back("no bid yet this round");
  } else {
    const v1::LiarsDiceView::PlacedBid& last = dice.bids(dice.bids_size() - 1);
    lines.push_back(absl::StrCat("current bid ", Bid(last.bid()), " by ", SeatText(last.seat())));
  }
  return lines;
}

}  // namespace

const RulesetText& Text() {
  static const RulesetText kText{
      .settings = &Settings, .move = &Move, .event = &Event, .view = &View};
  return kText;
}

}  // namespace kahve::engine::liars_dice

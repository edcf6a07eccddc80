#include "tools/kahve/table_bot.h"

#include <algorithm>

namespace kahve::tools {
namespace {

namespace ld = engine::liars_dice;

// A challenge this often when one is allowed: about three moves a round.
constexpr uint32_t kChallengePercent = 35;
// A raise is drawn from this many of the lowest legal bids.
constexpr int kLowestRaises = 3;

}  // namespace

void BotTableState::FromView(const v1::View& view) {
  const v1::LiarsDiceView& dice_view = view.liars_dice();
  dice.assign(dice_view.dice_counts().begin(), dice_view.dice_counts().end());
  current = {};
  if (dice_view.bids_size() > 0) {
    const v1::LiarsDiceBid& last = dice_view.bids(dice_view.bids_size() - 1).bid();
    current = {last.quantity(), last.face()};
  }
  putana_round = dice_view.putana_round();
  over = view.over();
  to_act = !over && view.to_act_size() > 0 ? view.to_act(0) : -1;
}

void BotTableState::Apply(const v1::Event& event) {
  if (event.has_game_over()) {
    over = true;
    to_act = -1;
    return;
  }
  const v1::LiarsDiceEvent& dice_event = event.liars_dice();
  const int seat = event.has_seat() ? event.seat() : -1;
  const int seats = static_cast<int>(dice.size());
  switch (dice_event.event_case()) {
    case v1::LiarsDiceEvent::kRoundStarted:
      dice.assign(dice_event.round_started().dice_counts().begin(),
                  dice_event.round_started().dice_counts().end());
      current = {};
      putana_round = false;
      to_act = dice_event.round_started().starter();
      break;
    case v1::LiarsDiceEvent::kBidMade:
      current = {dice_event.bid_made().bid().quantity(), dice_event.bid_made().bid().face()};
      // The next seat still in the game, as the engine passes the turn.
      to_act = -1;
      for (int step = 1; seat >= 0 && step <= seats; ++step) {
        const int next = (seat + step) % seats;
        if (dice[next] > 0) {
          to_act = next;
          break;
        }
      }
      break;
    case v1::LiarsDiceEvent::kDieLost:
      if (seat >= 0 && seat < seats) dice[seat] = dice_event.die_lost().dice_left();
      break;
    case v1::LiarsDiceEvent::kPutanaDeclared:
      putana_round = true;
      break;
    default:
      break;  // nothing the next move depends on
  }
}

v1::Move ChooseMove(const BotTableState& state, engine::Rng& rng) {
  int on_table = 0;
  for (int count : state.dice) on_table += count;
  const ld::BiddingState bidding{.current = state.current,
                                 .putana_round = state.putana_round,
                                 .dice_on_table = on_table,
                                 .may_declare_putana = false};
  ld::Action actions[ld::kMaxActions];
  const int count = ld::LegalActions(bidding, actions);
  // LegalActions lists the challenge first, then bids in ascending order.
  const int first_bid = std::find_if(actions, actions + count, ld::IsBid) - actions;
  const bool may_challenge = first_bid > 0;
  v1::Move move;
  v1::LiarsDiceMove* dice_move = move.mutable_liars_dice();
  if (first_bid == count || (may_challenge && rng.Below(100) < kChallengePercent)) {
    dice_move->mutable_challenge();
    return move;
  }
  const int choices = std::min(kLowestRaises, count - first_bid);
  const ld::Bid bid = ld::ActionBid(actions[first_bid + rng.Below(choices)]);
  dice_move->mutable_bid()->set_quantity(bid.quantity);
  dice_move->mutable_bid()->set_face(bid.face);
  return move;
}

}  // namespace kahve::tools

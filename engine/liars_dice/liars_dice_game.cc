#include "engine/liars_dice/liars_dice_game.h"

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "engine/core/state_game.h"
#include "engine/liars_dice/liars_dice_bots.h"

namespace kahve::engine::liars_dice {
namespace {

std::string BidText(Bid bid) { return absl::StrCat(bid.quantity, "x", bid.face); }

v1::RejectionReason ToProto(Reason reason) {
  switch (reason) {
    case Reason::kNone:
      return v1::REJECTION_REASON_UNSPECIFIED;
    case Reason::kQuantityOutOfRange:
      return v1::LIARS_DICE_QUANTITY_OUT_OF_RANGE;
    case Reason::kQuantityAboveDice:
      return v1::LIARS_DICE_QUANTITY_ABOVE_DICE;
    case Reason::kFaceOutOfRange:
      return v1::LIARS_DICE_FACE_OUT_OF_RANGE;
    case Reason::kNotARaise:
      return v1::LIARS_DICE_NOT_A_RAISE;
    case Reason::kOpeningOnes:
      return v1::LIARS_DICE_OPENING_ONES;
    case Reason::kNothingToChallenge:
      return v1::LIARS_DICE_NOTHING_TO_CHALLENGE;
    case Reason::kPutanaNotAllowed:
      return v1::LIARS_DICE_PUTANA_NOT_ALLOWED;
    case Reason::kPutanaFaceFixed:
      return v1::LIARS_DICE_PUTANA_FACE_FIXED;
    case Reason::kConversionTooLow:
      return v1::LIARS_DICE_CONVERSION_TOO_LOW;
  }
  return v1::REJECTION_REASON_UNSPECIFIED;
}

// A message naming only public facts: the bid, the standing bid, the dice on the table.
std::string Explain(Reason reason, const BiddingState& bidding, Bid bid) {
  const Bid current = bidding.current;
  switch (reason) {
    case Reason::kQuantityOutOfRange:
      return absl::StrCat("quantity must be at least 1, got ", bid.quantity);
    case Reason::kQuantityAboveDice:
      return absl::StrCat("quantity ", bid.quantity, " exceeds the ", bidding.dice_on_table,
                          " dice on the table");
    case Reason::kFaceOutOfRange:
      return absl::StrCat("face must be 1..6, got ", bid.face);
    case Reason::kNotARaise:
      return absl::StrCat(BidText(bid), " does not beat ", BidText(current),
                          ": bid more of the face, a higher face, or both");
    case Reason::kOpeningOnes:
      return "the first bid of a round may not be ones";
    case Reason::kNothingToChallenge:
      return "there is no bid to challenge yet";
    case Reason::kPutanaNotAllowed:
      return "only the player just reduced to one die may declare Putana, before the first bid";
    case Reason::kPutanaFaceFixed:
      return absl::StrCat("in a Putana round the face stays ", current.face);
    case Reason::kConversionTooLow:
      if (bid.face == 1) {
        return absl::StrCat("to ones from ", BidText(current), " needs at least ",
                            (current.quantity + 1) / 2, " ones");
      }
      return absl::StrCat("from ", BidText(current), " needs at least ", 2 * current.quantity + 1,
                          " of another face");
    case Reason::kNone:
      break;
  }
  return "";
}

class LiarsDiceGame final : public StateGame<State, Action> {
 public:
  LiarsDiceGame(v1::GameSettings settings, v1::Deal deal, const Settings& typed,
                const Preset* preset)
      : StateGame(std::move(settings), std::move(deal), typed.players) {
    EventBuffer events;
    state_.emplace(typed, this->deal().seed(), preset, &events);
    set_deal_events(ConvertEvents(events));
  }
  LiarsDiceGame(const LiarsDiceGame&) = default;

  v1::Result Result() const override;
  std::unique_ptr<Game> Clone() const override { return std::make_unique<LiarsDiceGame>(*this); }

 protected:
  std::vector<Action> LegalActionsAt(int seat) const override {
    if (seat != state_->to_act()) return {};
    Action legal[kMaxActions];
    const int count = state_->LegalActions(legal);
    return std::vector<Action>(legal, legal + count);
  }
  v1::Move MoveOf(const Action& action) const override { return ActionToMove(action); }
  Action BotActionAt(BotKind bot, int seat, Rng& rng) const override {
    return ChooseAction(bot, state_->ViewFor(seat), rng);
  }
  MoveOutcome DoApply(int seat, const v1::Move& move) override;
  bool IsOwnMove(const v1::Move& move) const override { return move.has_liars_dice(); }
  // A quantity below 1 or a face outside 1..6: wrong whatever the state.
  bool IsMalformed(v1::RejectionReason reason) const override {
    return reason == v1::LIARS_DICE_QUANTITY_OUT_OF_RANGE ||
           reason == v1::LIARS_DICE_FACE_OUT_OF_RANGE;
  }
  v1::View DoView(int seat) const override;
  // The reveal decides everything after a challenge; a roll is chance.
  bool DecidedByHiddenInformation(const v1::Event& event) const override {
    return event.liars_dice().has_dice_revealed() || event.liars_dice().has_dice_rolled();
  }

 private:
  // The action a well-formed move stands for, or the reason it is refused now.
  std::pair<Action, Reason> Decode(const v1::LiarsDiceMove& move, Bid* bid) const;
  std::vector<v1::Event> ConvertEvents(const EventBuffer& events) const;
  v1::LiarsDiceEvent::DiceRevealed RevealProto() const;

  // Every settled round's dice left per seat, for Result's rounds (a function of the history).
  std::vector<std::vector<int>> dice_left_by_round_;
};

std::pair<Action, Reason> LiarsDiceGame::Decode(const v1::LiarsDiceMove& move, Bid* bid) const {
  switch (move.action_case()) {
    case v1::LiarsDiceMove::kChallenge:
      return {kChallenge, state_->Check(kChallenge)};
    case v1::LiarsDiceMove::kDeclarePutana:
      return {kDeclarePutana, state_->Check(kDeclarePutana)};
    case v1::LiarsDiceMove::kBid: {
      *bid = Bid{move.bid().quantity(), move.bid().face()};
      // Checked as numbers first: a wild quantity must never reach the action encoding.
      const Reason reason = CheckBid(state_->bidding(), *bid);
      if (reason != Reason::kNone) return {0, reason};
      return {BidAction(bid->quantity, bid->face), Reason::kNone};
    }
    case v1::LiarsDiceMove::ACTION_NOT_SET:
      break;
  }
  return {0, Reason::kNone};
}

MoveOutcome LiarsDiceGame::DoApply(int seat, const v1::Move& move) {
  const v1::LiarsDiceMove& dice_move = move.liars_dice();
  if (dice_move.action_case() == v1::LiarsDiceMove::ACTION_NOT_SET) {
    return Rejected(v1::MISSING_ACTION, "the move sets none of bid, challenge, declare_putana");
  }
  Bid bid;
  const auto [action, reason] = Decode(dice_move, &bid);
  if (reason != Reason::kNone) {
    return Rejected(ToProto(reason), Explain(reason, state_->bidding(), bid));
  }
  (void)seat;  // the base class checked that `seat` is the seat to act
  EventBuffer events;
  const int rounds_before = state_->rounds_completed();
  state_->Apply(action, &events);
  if (state_->rounds_completed() > rounds_before) {
    // A challenge settled the round: its scores are the dice each seat keeps.
    std::vector<int>& dice_left = dice_left_by_round_.emplace_back();
    for (int s = 0; s < num_seats(); ++s) dice_left.push_back(state_->dice_count(s));
  }
  return Accepted(ConvertEvents(events));
}

v1::LiarsDiceEvent::DiceRevealed LiarsDiceGame::RevealProto() const {
  v1::LiarsDiceEvent::DiceRevealed reveal;
  for (int seat = 0; seat < state_->players(); ++seat) {
    auto* dice = reveal.add_dice();
    for (int i = 0; i < state_->revealed_count(seat); ++i)
      dice->add_dice(state_->revealed_dice(seat)[i]);
  }
  reveal.set_counted(state_->reveal_counted());
  reveal.set_bid_stood(state_->reveal_bid_stood());
  return reveal;
}

std::vector<v1::Event> LiarsDiceGame::ConvertEvents(const EventBuffer& events) const {
  // The state's kGameOver closes a move's events; the shared conversion writes the game's end.
  int own = events.size;
  if (own > 0 && events.items[own - 1].kind == EventKind::kGameOver) --own;
  return EventsOf(absl::MakeConstSpan(events.items.data(), own),
                  [&](const Event& event, v1::Event& proto) {
                    v1::LiarsDiceEvent* dice_event = proto.mutable_liars_dice();
                    switch (event.kind) {
                      case EventKind::kRoundStarted: {
                        auto* started = dice_event->mutable_round_started();
                        started->set_round(event.value);
                        started->set_starter(event.seat);
                        for (int seat = 0; seat < state_->players(); ++seat) {
                          started->add_dice_counts(state_->dice_count(seat));
                        }
                        break;
                      }
                      case EventKind::kDiceRolled: {
                        // Events of one move hold at most one roll, the current one.
                        proto.set_private_to(event.seat);
                        auto* rolled = dice_event->mutable_dice_rolled();
                        for (int i = 0; i < state_->dice_count(event.seat); ++i) {
                          rolled->add_dice(state_->dice(event.seat)[i]);
                        }
                        break;
                      }
                      case EventKind::kPutanaDeclared:
                        dice_event->mutable_putana_declared();
                        break;
                      case EventKind::kBidMade: {
                        auto* made = dice_event->mutable_bid_made()->mutable_bid();
                        made->set_quantity(event.bid.quantity);
                        made->set_face(event.bid.face);
                        break;
                      }
                      case EventKind::kChallenged: {
                        auto* challenged = dice_event->mutable_challenged();
                        challenged->set_bidder(event.other);
                        challenged->mutable_bid()->set_quantity(event.bid.quantity);
                        challenged->mutable_bid()->set_face(event.bid.face);
                        break;
                      }
                      case EventKind::kDiceRevealed:
                        *dice_event->mutable_dice_revealed() = RevealProto();
                        break;
                      case EventKind::kDieLost:
                        dice_event->mutable_die_lost()->set_dice_left(event.value);
                        break;
                      case EventKind::kSeatEliminated:
                        dice_event->mutable_seat_eliminated()->set_rank(event.value);
                        break;
                      case EventKind::kGameOver:
                        break;  // left out above
                    }
                  });
}

v1::View LiarsDiceGame::DoView(int seat) const {
  v1::View view;
  v1::LiarsDiceView* dice = view.mutable_liars_dice();
  dice->set_round(state_->round());
  dice->set_starter(state_->starter());
  if (seat >= 0) {
    for (int i = 0; i < state_->dice_count(seat); ++i) dice->add_my_dice(state_->dice(seat)[i]);
  }
  for (int other = 0; other < num_seats(); ++other) {
    dice->add_dice_counts(state_->dice_count(other));
    dice->add_putana_used(state_->putana_used(other));
  }
  dice->set_dice_on_table(state_->bidding().dice_on_table);
  for (const PlacedBid& placed : state_->bids()) {
    auto* bid = dice->add_bids();
    bid->set_seat(placed.seat);
    bid->mutable_bid()->set_quantity(placed.bid.quantity);
    bid->mutable_bid()->set_face(placed.bid.face);
  }
  dice->set_putana_round(state_->bidding().putana_round);
  dice->set_putana_offered(state_->bidding().may_declare_putana);
  if (state_->has_reveal()) *dice->mutable_last_reveal() = RevealProto();
  return view;
}

v1::Result LiarsDiceGame::Result() const {
  v1::Result result;
  const auto ranks = state_->Ranks();
  int in_play = 0;
  for (int seat = 0; seat < num_seats(); ++seat) {
    v1::Result::SeatResult* entry = result.add_seats();
    entry->set_seat(seat);
    entry->set_rank(ranks[seat]);
    entry->set_score(state_->dice_count(seat));
    entry->set_team(seat);
    in_play += state_->dice_count(seat) > 0 ? 1 : 0;
  }
  result.set_ending(in_play == 1 ? "last_player_standing" : "round_limit");
  for (size_t round = 0; round < dice_left_by_round_.size(); ++round) {
    v1::Result::Round* scores = result.add_rounds();
    scores->set_round(static_cast<int>(round) + 1);
    for (const int dice : dice_left_by_round_[round]) scores->add_seat_scores(dice);
  }
  return result;
}

}  // namespace

absl::StatusOr<Settings> SettingsFromProto(const v1::LiarsDiceSettings& proto) {
  Settings settings;
  if (proto.has_players()) settings.players = proto.players();
  if (proto.has_dice_per_player()) settings.dice_per_player = proto.dice_per_player();
  settings.max_rounds = proto.max_rounds();
  KAHVE_RETURN_IF_ERROR(ValidateSettings(settings));
  return settings;
}

void FillDefaults(v1::GameSettings& settings) {
  v1::LiarsDiceSettings& dice = *settings.mutable_liars_dice();
  const Settings defaults;
  if (!dice.has_players()) dice.set_players(defaults.players);
  if (!dice.has_dice_per_player()) dice.set_dice_per_player(defaults.dice_per_player);
}

Seating SeatingOf(const v1::GameSettings& settings) {
  return Seating{.preferred = settings.liars_dice().players(), .min = kMinPlayers};
}

void WithPlayers(v1::GameSettings& settings, int players) {
  settings.mutable_liars_dice()->set_players(players);
}

absl::StatusOr<Preset> PresetFromProto(const v1::LiarsDicePreset& proto, const Settings& settings) {
  Preset preset;
  if (proto.has_first_bidder()) {
    if (proto.first_bidder() < 0 || proto.first_bidder() >= settings.players) {
      return absl::InvalidArgumentError(absl::StrCat("preset.first_bidder must be in 0..",
                                                     settings.players - 1, ", got ",
                                                     proto.first_bidder()));
    }
    preset.first_bidder = proto.first_bidder();
  }
  for (int round = 0; round < proto.rolls_size(); ++round) {
    const v1::LiarsDiceRoll& roll = proto.rolls(round);
    if (roll.seats_size() > settings.players) {
      return absl::InvalidArgumentError(absl::StrCat("preset.rolls[", round, "] has ",
                                                     roll.seats_size(), " seats for ",
                                                     settings.players, " players"));
    }
    auto& seats = preset.rolls.emplace_back();
    for (int seat = 0; seat < roll.seats_size(); ++seat) {
      const auto& dice = roll.seats(seat).dice();
      if (dice.size() > settings.dice_per_player) {
        return absl::InvalidArgumentError(absl::StrCat("preset.rolls[", round, "].seats[", seat,
                                                       "] has more than ", settings.dice_per_player,
                                                       " dice"));
      }
      for (int face : dice) {
        if (face < 1 || face > kFaces) {
          return absl::InvalidArgumentError(absl::StrCat(
              "preset.rolls[", round, "].seats[", seat, "] holds face ", face, "; faces are 1..6"));
        }
      }
      seats.emplace_back(dice.begin(), dice.end());
    }
  }
  return preset;
}

v1::Move BidMove(int quantity, int face) {
  v1::Move move;
  auto* bid = move.mutable_liars_dice()->mutable_bid();
  bid->set_quantity(quantity);
  bid->set_face(face);
  return move;
}

v1::Move ChallengeMove() {
  v1::Move move;
  move.mutable_liars_dice()->mutable_challenge();
  return move;
}

v1::Move DeclarePutanaMove() {
  v1::Move move;
  move.mutable_liars_dice()->mutable_declare_putana();
  return move;
}

v1::Move ActionToMove(Action action) {
  if (action == kChallenge) return ChallengeMove();
  if (action == kDeclarePutana) return DeclarePutanaMove();
  const Bid bid = ActionBid(action);
  return BidMove(bid.quantity, bid.face);
}

absl::StatusOr<std::unique_ptr<Game>> NewGame(const v1::GameSettings& settings,
                                              const v1::Deal& deal) {
  KAHVE_ASSIGN_OR_RETURN(const Settings typed, SettingsFromProto(settings.liars_dice()));
  if (deal.preset_case() != v1::Deal::kLiarsDice &&
      deal.preset_case() != v1::Deal::PRESET_NOT_SET) {
    return absl::InvalidArgumentError("deal.preset is not a liars_dice preset");
  }
  KAHVE_ASSIGN_OR_RETURN(const Preset preset, PresetFromProto(deal.liars_dice(), typed));
  // The stored settings carry the defaults, so a table's settings read the same everywhere.
  v1::GameSettings canonical;
  v1::LiarsDiceSettings* stored = canonical.mutable_liars_dice();
  stored->set_players(typed.players);
  stored->set_dice_per_player(typed.dice_per_player);
  stored->set_max_rounds(typed.max_rounds);
  const Preset* used = deal.has_liars_dice() ? &preset : nullptr;
  return std::unique_ptr<Game>(new LiarsDiceGame(std::move(canonical), deal, typed, used));
}

}  // namespace kahve::engine::liars_dice

// A laying okey behind the engine interface: moves in, events, views and results out (kahve.v1).

#include "engine/okey_laying/okey_laying_game.h"

#include <algorithm>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "engine/core/state_game.h"
#include "engine/okey/okey_proto.h"
#include "engine/okey_laying/okey_laying_bots.h"
#include "engine/okey_laying/okey_laying_codec.h"
#include "engine/okey_laying/okey_laying_moves.h"

namespace kahve::engine::okey_laying {
namespace {

v1::OkeyOpened OpenedToProto(Opened opened) {
  switch (opened) {
    case Opened::kMelds:
      return v1::OKEY_OPENED_MELDS;
    case Opened::kPairs:
      return v1::OKEY_OPENED_PAIRS;
    case Opened::kNo:
      break;
  }
  return v1::OKEY_OPENED_NONE;
}

v1::OkeyLayingFinish FinishToProto(Finish finish) {
  switch (finish) {
    case Finish::kFromHand:
      return v1::OKEY_FINISH_FROM_HAND;
    case Finish::kPairs:
      return v1::OKEY_FINISH_PAIRS;
    case Finish::kOkeyDiscard:
      return v1::OKEY_FINISH_OKEY_DISCARD;
    case Finish::kDeckExhausted:
      return v1::OKEY_FINISH_DECK_EXHAUSTED;
  }
  return v1::OKEY_FINISH_UNSPECIFIED;
}

// Result.Round.finish: how a finished deal was finished; empty for a deck exhausted.
std::string_view FinishName(Finish finish) {
  switch (finish) {
    case Finish::kFromHand:
      return "from_hand";
    case Finish::kPairs:
      return "pairs";
    case Finish::kOkeyDiscard:
      return "okey_discard";
    case Finish::kDeckExhausted:
      break;
  }
  return "";
}

v1::OkeyPenaltyKind PenaltyToProto(PenaltyKind kind) {
  switch (kind) {
    case PenaltyKind::kTileAdded:
      return v1::OKEY_PENALTY_TILE_ADDED;
    case PenaltyKind::kOkeyTaken:
      return v1::OKEY_PENALTY_OKEY_TAKEN;
    case PenaltyKind::kPenaltyTile:
      return v1::OKEY_PENALTY_PENALTY_TILE;
    case PenaltyKind::kDiscardTaken:
      return v1::OKEY_PENALTY_DISCARD_TAKEN;
    case PenaltyKind::kOkeyDiscarded:
      return v1::OKEY_PENALTY_OKEY_DISCARDED;
  }
  return v1::OKEY_PENALTY_UNSPECIFIED;
}

class LayingGame final : public StateGame<State, Action> {
 public:
  LayingGame(v1::GameSettings settings, v1::Deal deal, const Rules& rules, const Preset* preset,
             const LayingOneofs& oneofs)
      : StateGame(std::move(settings), std::move(deal), kPlayers), oneofs_(oneofs) {
    EventLog events;
    state_.emplace(rules, this->deal().seed(), preset, &events);
    set_deal_events(ConvertEvents(events));
  }
  LayingGame(const LayingGame&) = default;

  v1::Result Result() const override;
  std::unique_ptr<Game> Clone() const override { return std::make_unique<LayingGame>(*this); }
  absl::StatusOr<v1::Hints> Hints(int seat) const override;

 protected:
  std::vector<Action> LegalActionsAt(int seat) const override {
    if (seat != state_->to_act()) return {};
    return LegalActions(SeatView(*state_, seat));
  }
  v1::Move MoveOf(const Action& action) const override {
    v1::Move move;
    *(move.*oneofs_.mutable_move)() = ActionToProto(action, state_->jokers());
    return move;
  }
  Action BotActionAt(BotKind bot, int seat, Rng& rng) const override {
    return ChooseAction(bot, SeatView(*state_, seat), rng);
  }
  MoveOutcome DoApply(int seat, const v1::Move& move) override;
  bool IsOwnMove(const v1::Move& move) const override { return (move.*oneofs_.has_move)(); }
  bool IsMalformed(v1::RejectionReason reason) const override {
    return okey::IsMalformedReason(reason);
  }
  v1::View DoView(int seat) const override;
  // A draw, a new deal and a deal's end (every hand shown) depend on what was hidden.
  bool DecidedByHiddenInformation(const v1::Event& event) const override {
    const v1::OkeyLayingEvent& okey = (event.*oneofs_.event)();
    return okey.has_tile_drawn() || okey.has_deal_started() || okey.has_tiles_dealt() ||
           okey.has_deal_ended();
  }

 private:
  std::vector<v1::Event> ConvertEvents(const EventLog& events) const;
  // Meld `index` of `table`, its okeys read with `jokers`.
  static v1::OkeyTableMeld TableMeldProto(const std::vector<TableMeld>& table, int index,
                                          const okey::Jokers& jokers);

  LayingOneofs oneofs_;
};

MoveOutcome LayingGame::DoApply(int seat, const v1::Move& move) {
  const v1::OkeyLayingMove& okey_move = (move.*oneofs_.move)();
  if (okey_move.action_case() == v1::OkeyLayingMove::ACTION_NOT_SET) {
    return Rejected(v1::MISSING_ACTION,
                    "the move sets none of draw, take_discard, lay_melds, lay_pairs, add_tile, "
                    "discard");
  }
  Action action;
  Refusal refusal = DecodeMove(okey_move, state_->jokers(), &action);
  if (refusal.reason == Reason::kNone) refusal = state_->Check(action);
  if (refusal.reason != Reason::kNone) {
    return Rejected(okey::ReasonToProto(refusal.reason), std::move(refusal.message));
  }
  (void)seat;  // the base class checked that `seat` is the seat to act
  EventLog events;
  state_->Apply(action, &events);
  return Accepted(ConvertEvents(events));
}

v1::OkeyTableMeld LayingGame::TableMeldProto(const std::vector<TableMeld>& table, int index,
                                             const okey::Jokers& jokers) {
  const TableMeld& laid = table[index];
  v1::OkeyTableMeld proto;
  proto.set_index(index);
  proto.set_owner(laid.owner);
  proto.set_kind(laid.pair                          ? v1::OKEY_PAIR
                 : laid.meld.kind == MeldKind::kRun ? v1::OKEY_RUN
                                                    : v1::OKEY_SET);
  *proto.mutable_tiles() = okey::MeldToProto(laid.tiles, jokers).tiles();
  proto.set_value(laid.Value(jokers));
  return proto;
}

std::vector<v1::Event> LayingGame::ConvertEvents(const EventLog& events) const {
  // A move that voids the deal lays its melds on the table the void swept away: until the
  // DealVoided event, they are read from what the void kept of it.
  const bool voids = std::any_of(events.items.begin(), events.items.end(), [](const Event& event) {
    return event.kind == EventKind::kDealVoided;
  });
  const std::vector<TableMeld>* table = voids ? &state_->voided().table : &state_->table();
  const okey::Jokers* jokers = voids ? &state_->voided().jokers : &state_->jokers();
  return EventsOf(absl::MakeConstSpan(events.items), [&](const Event& event, v1::Event& proto) {
    v1::OkeyLayingEvent* okey = (proto.*oneofs_.mutable_event)();
    switch (event.kind) {
      case EventKind::kDealStarted: {
        okey::DealStart start{.deal = event.value + 1,
                              .starter = state_->starter(),
                              .indicator = state_->indicator(),
                              .deck_count = state_->deck_count()};
        for (int seat = 0; seat < kPlayers; ++seat) {
          start.hand_counts.push_back(static_cast<int>(state_->hand(seat).size()));
        }
        okey::FillDealStarted(start, state_->jokers(), okey->mutable_deal_started());
        break;
      }
      case EventKind::kTilesDealt:
        // A deal's events end its move, so the hand is still as dealt.
        proto.set_private_to(event.seat);
        okey::AddSortedNames(state_->hand(event.seat),
                             okey->mutable_tiles_dealt()->mutable_tiles());
        break;
      case EventKind::kDrewFromDeck:
        okey->mutable_drew_from_deck()->set_deck_count(event.value);
        break;
      case EventKind::kTileDrawn:
        proto.set_private_to(event.seat);
        okey->mutable_tile_drawn()->set_tile(CodeName(event.code));
        break;
      case EventKind::kDiscardTaken:
        okey->mutable_discard_taken()->set_tile(CodeName(event.code));
        okey->mutable_discard_taken()->set_discarder(event.other);
        break;
      case EventKind::kMeldsLaid: {
        auto* laid = okey->mutable_melds_laid();
        for (int i = event.first; i < event.first + event.count; ++i) {
          *laid->add_melds() = TableMeldProto(*table, i, *jokers);
        }
        laid->set_opening(event.flag);
        laid->set_opening_sum(event.value);
        break;
      }
      case EventKind::kTileAdded: {
        auto* added = okey->mutable_tile_added();
        added->mutable_addition()->set_tile(CodeName(event.addition.tile));
        added->mutable_addition()->set_meld(event.addition.meld);
        added->mutable_addition()->set_place(okey::PlaceToProto(event.addition.place));
        *added->mutable_meld() = TableMeldProto(*table, event.first, *jokers);
        if (event.flag) added->set_okey_taken(okey::FaceName(jokers->okey()));
        break;
      }
      case EventKind::kTileDiscarded:
        okey->mutable_tile_discarded()->set_tile(CodeName(event.code));
        okey->mutable_tile_discarded()->set_hand_count(event.value);
        break;
      case EventKind::kPenalty: {
        auto* penalty = okey->mutable_penalty();
        penalty->set_kind(PenaltyToProto(event.penalty));
        penalty->set_points(event.value);
        penalty->set_by(event.other);
        break;
      }
      case EventKind::kDealEnded: {
        const DealRecord& record = state_->records()[event.value];
        auto* ended = okey->mutable_deal_ended();
        ended->set_deal(event.value + 1);
        ended->set_finish(FinishToProto(record.finish));
        ended->set_finisher(record.finisher);
        ended->set_multiplier(record.multiplier);
        ended->set_one_turn(record.one_turn);
        for (int seat = 0; seat < kPlayers; ++seat) {
          auto* end = ended->add_seats();
          for (const Code code : record.hands[seat]) end->add_hand(CodeName(code));
          end->set_opened(OpenedToProto(record.opened[seat]));
          end->set_settlement(record.settlement[seat]);
          end->set_penalties(record.penalties[seat]);
          end->set_deal_score(record.scores[seat]);
          end->set_total(record.totals[seat]);
        }
        break;
      }
      case EventKind::kDealVoided:
        okey->mutable_deal_voided()->set_deal(event.value + 1);
        table = &state_->table();
        jokers = &state_->jokers();
        break;
    }
  });
}

v1::View LayingGame::DoView(int seat) const {
  v1::View view;
  const Rules& settings = state_->rules();
  v1::OkeyLayingView* okey = (view.*oneofs_.mutable_view)();
  // After the last deal, `deal()` counts one past it.
  okey->set_deal(std::min(state_->deal(), settings.deals - 1) + 1);
  okey->set_deals(settings.deals);
  okey->set_starter(state_->starter());
  okey->set_indicator(okey::FaceName(state_->indicator()));
  okey->set_okey(okey::FaceName(state_->jokers().okey()));
  okey->set_teams(settings.teams);
  okey->set_hints(settings.hints);
  okey->set_doubling(settings.doubling);
  if (seat >= 0) okey::AddSortedNames(state_->hand(seat), okey->mutable_my_hand());
  for (int other = 0; other < kPlayers; ++other) {
    okey->add_hand_counts(static_cast<int>(state_->hand(other).size()));
    auto* pile = okey->add_discards();
    for (const Tile tile : state_->discards(other)) pile->add_tiles(CodeName(CodeOf(tile)));
    okey->add_opened(OpenedToProto(state_->opened(other)));
    okey->add_penalties(state_->penalties(other));
    okey->add_totals(state_->total(other));
  }
  okey->set_deck_count(state_->deck_count());
  if (const std::optional<Tile> taken = state_->takeable(); taken.has_value()) {
    okey->set_takeable_discard(CodeName(CodeOf(*taken)));
  }
  for (int i = 0; i < static_cast<int>(state_->table().size()); ++i) {
    *okey->add_table() = TableMeldProto(state_->table(), i, state_->jokers());
  }
  okey->set_opening_needs(state_->OpeningNeeds());
  okey->set_drawn(!state_->over() && state_->drawn());
  for (const DealRecord& record : state_->records()) {
    auto* scores = okey->add_deal_scores();
    for (const int score : record.scores) scores->add_scores(score);
  }
  return view;
}

v1::Result LayingGame::Result() const {
  v1::Result result;
  const auto ranks = state_->Ranks();
  const bool teams = state_->rules().teams;
  for (int seat = 0; seat < kPlayers; ++seat) {
    v1::Result::SeatResult* entry = result.add_seats();
    entry->set_seat(seat);
    entry->set_rank(ranks[seat]);
    entry->set_score(state_->total(seat));
    entry->set_team(teams ? seat % 2 : seat);
  }
  result.set_ending("deals_played");
  const auto& records = state_->records();
  for (size_t deal = 0; deal < records.size(); ++deal) {
    v1::Result::Round* round = result.add_rounds();
    round->set_round(static_cast<int>(deal) + 1);
    for (const int score : records[deal].scores) round->add_seat_scores(score);
    round->set_ending(records[deal].finish == Finish::kDeckExhausted ? "deck_exhausted"
                                                                     : "finished");
    round->set_finish(std::string(FinishName(records[deal].finish)));
  }
  return result;
}

absl::StatusOr<v1::Hints> LayingGame::Hints(int seat) const {
  if (!state_->rules().hints) {
    return absl::FailedPreconditionError("hints are off at this table");
  }
  if (seat < 0 || seat >= kPlayers) {
    return absl::FailedPreconditionError("hints are for a seat's hand; a spectator has none");
  }
  if (state_->over()) return absl::FailedPreconditionError("the game is over");
  std::vector<okey::IndexedMeld> table;
  for (int i = 0; i < static_cast<int>(state_->table().size()); ++i) {
    if (!state_->table()[i].pair) table.push_back({i, state_->table()[i].meld});
  }
  v1::Hints hints;
  *(hints.*oneofs_.mutable_hints)() = okey::HintsFor(state_->hand(seat), table, state_->jokers());
  return hints;
}

}  // namespace

absl::StatusOr<std::unique_ptr<Game>> NewLayingGame(v1::GameSettings canonical,
                                                    const v1::Deal& deal, const Rules& rules,
                                                    const LayingOneofs& oneofs) {
  if (deal.preset_case() != oneofs.preset_case && deal.preset_case() != v1::Deal::PRESET_NOT_SET) {
    return absl::InvalidArgumentError(
        absl::StrCat("deal.preset is not an ", std::string(oneofs.ruleset), " preset"));
  }
  KAHVE_ASSIGN_OR_RETURN(const Preset preset, PresetFromProto((deal.*oneofs.preset)(), rules));
  const Preset* used = deal.preset_case() == oneofs.preset_case ? &preset : nullptr;
  return std::unique_ptr<Game>(new LayingGame(std::move(canonical), deal, rules, used, oneofs));
}

}  // namespace kahve::engine::okey_laying

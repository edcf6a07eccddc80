// Classic okey behind the engine interface: the only file of the ruleset that speaks kahve.v1.

#include "engine/okey_classic/okey_classic_game.h"

#include <algorithm>
#include <optional>
#include <utility>

#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "engine/core/seating.h"
#include "engine/core/state_game.h"
#include "engine/okey/okey_proto.h"
#include "engine/okey_classic/okey_classic_moves.h"

namespace kahve::engine::okey_classic {
namespace {

using okey::CodeName;
using okey::ParseCode;

MoveOutcome Unknown(const std::string& where, const std::string& name) {
  return Rejected(
      v1::OKEY_UNKNOWN_TILE,
      absl::StrCat(where, ": \"", name, "\" is no tile (R, B, K or Y and 1..13, or F)"));
}

// The claim a move makes, or the refusal of a tile name that names no tile.
std::optional<MoveOutcome> DecodeWin(const v1::OkeyWin& proto, WinClaim* claim) {
  const std::optional<Code> discard = ParseCode(proto.discard());
  if (!discard.has_value()) return Unknown("win.discard", proto.discard());
  claim->discard = *discard;
  claim->seven_pairs = proto.seven_pairs();
  for (int g = 0; g < proto.groups_size(); ++g) {
    std::vector<Code>& group = claim->groups.emplace_back();
    for (int t = 0; t < proto.groups(g).tiles_size(); ++t) {
      const std::string& name = proto.groups(g).tiles(t).tile();
      const std::optional<Code> code = ParseCode(name);
      if (!code.has_value())
        return Unknown(absl::StrCat("win.groups[", g, "].tiles[", t, "]"), name);
      group.push_back(*code);
    }
  }
  return std::nullopt;
}

void WinToProto(const WinClaim& claim, v1::OkeyWin* proto) {
  proto->set_discard(CodeName(claim.discard));
  proto->set_seven_pairs(claim.seven_pairs);
  for (const auto& group : claim.groups) {
    v1::OkeyMeld* meld = proto->add_groups();
    for (const Code code : group) meld->add_tiles()->set_tile(CodeName(code));
  }
}

class OkeyGame final : public StateGame<State, Action> {
 public:
  OkeyGame(v1::GameSettings settings, v1::Deal deal, const Settings& typed, const Preset* preset)
      : StateGame(std::move(settings), std::move(deal), typed.players) {
    EventLog events;
    state_.emplace(typed, this->deal().seed(), preset, &events);
    set_deal_events(ConvertEvents(events));
  }
  OkeyGame(const OkeyGame&) = default;

  v1::Result Result() const override;
  std::unique_ptr<Game> Clone() const override { return std::make_unique<OkeyGame>(*this); }

 protected:
  // Not only the seat to act may have actions: gösterme is out of turn.
  std::vector<Action> LegalActionsAt(int seat) const override {
    return LegalActions(SeatView(*state_, seat));
  }
  v1::Move MoveOf(const Action& action) const override { return ActionToMove(action); }
  Action BotActionAt(BotKind bot, int seat, Rng& rng) const override {
    return ChooseAction(bot, SeatView(*state_, seat), rng);
  }
  MoveOutcome DoApply(int seat, const v1::Move& move) override;
  bool IsOwnMove(const v1::Move& move) const override { return move.has_okey(); }
  bool IsMalformed(v1::RejectionReason reason) const override {
    return okey::IsMalformedReason(reason);
  }
  bool MayActOutOfTurn(int /*seat*/, const v1::Move& move) const override {
    return move.okey().has_show_indicator();
  }
  v1::View DoView(int seat) const override;
  bool DecidedByHiddenInformation(const v1::Event& event) const override {
    const v1::OkeyEvent& okey = event.okey();
    return okey.has_tile_drawn() || okey.has_deal_started() || okey.has_tiles_dealt() ||
           okey.has_won() || okey.has_deal_ended();
  }

 private:
  static v1::Move ActionToMove(const Action& action);
  std::vector<v1::Event> ConvertEvents(const EventLog& events) const;
};

v1::Move OkeyGame::ActionToMove(const Action& action) {
  v1::Move move;
  v1::OkeyMove* okey = move.mutable_okey();
  switch (action.kind) {
    case ActionKind::kDraw:
      okey->mutable_draw();
      break;
    case ActionKind::kTakeDiscard:
      okey->mutable_take_discard();
      if (action.with_win) WinToProto(action.win, okey->mutable_take_discard()->mutable_win());
      break;
    case ActionKind::kDiscard:
      okey->mutable_discard()->set_tile(CodeName(action.tile));
      break;
    case ActionKind::kWin:
      WinToProto(action.win, okey->mutable_win());
      break;
    case ActionKind::kShowIndicator:
      okey->mutable_show_indicator();
      break;
  }
  return move;
}

MoveOutcome OkeyGame::DoApply(int seat, const v1::Move& move) {
  const v1::OkeyMove& okey = move.okey();
  Action action;
  switch (okey.action_case()) {
    case v1::OkeyMove::kDraw:
      action.kind = ActionKind::kDraw;
      break;
    case v1::OkeyMove::kTakeDiscard:
      action.kind = ActionKind::kTakeDiscard;
      action.with_win = okey.take_discard().has_win();
      if (action.with_win) {
        if (auto refused = DecodeWin(okey.take_discard().win(), &action.win)) return *refused;
      }
      break;
    case v1::OkeyMove::kDiscard: {
      action.kind = ActionKind::kDiscard;
      const std::optional<Code> tile = ParseCode(okey.discard().tile());
      if (!tile.has_value()) return Unknown("discard", okey.discard().tile());
      action.tile = *tile;
      break;
    }
    case v1::OkeyMove::kWin:
      action.kind = ActionKind::kWin;
      if (auto refused = DecodeWin(okey.win(), &action.win)) return *refused;
      break;
    case v1::OkeyMove::kShowIndicator:
      action.kind = ActionKind::kShowIndicator;
      break;
    case v1::OkeyMove::ACTION_NOT_SET:
      return Rejected(v1::MISSING_ACTION,
                      "the move sets none of draw, take_discard, discard, win, show_indicator");
  }
  Refusal refusal = state_->Check(seat, action);
  if (refusal.reason != Reason::kNone) {
    return Rejected(okey::ReasonToProto(refusal.reason), std::move(refusal.message));
  }
  EventLog events;
  state_->Apply(seat, action, &events);
  return Accepted(ConvertEvents(events));
}

std::vector<v1::Event> OkeyGame::ConvertEvents(const EventLog& events) const {
  const okey::Jokers& jokers = state_->jokers();
  return EventsOf(absl::MakeConstSpan(events.items), [&](const Event& event, v1::Event& proto) {
    v1::OkeyEvent* okey = proto.mutable_okey();
    switch (event.kind) {
      case EventKind::kDealStarted: {
        okey::DealStart start{.deal = event.value + 1,
                              .starter = state_->starter(),
                              .indicator = state_->indicator(),
                              .deck_count = state_->deck_count()};
        for (int seat = 0; seat < num_seats(); ++seat) {
          start.hand_counts.push_back(static_cast<int>(state_->hand(seat).size()));
        }
        okey::FillDealStarted(start, jokers, okey->mutable_deal_started());
        break;
      }
      case EventKind::kTilesDealt:
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
      case EventKind::kTileDiscarded:
        okey->mutable_tile_discarded()->set_tile(CodeName(event.code));
        break;
      case EventKind::kIndicatorShown:
        okey->mutable_indicator_shown()->set_tile(okey::FaceName(state_->indicator()));
        break;
      case EventKind::kWon: {
        // A win ends its deal: its record is the last before any next deal began.
        const DealRecord& record = state_->records()[event.value];
        auto* won = okey->mutable_won();
        won->set_discard(CodeName(record.claim.discard));
        won->set_seven_pairs(record.claim.seven_pairs);
        won->set_okey_discard(record.okey_discard);
        won->set_single_colour(record.single_colour);
        won->set_points(record.points);
        for (const auto& group : record.claim.groups) {
          v1::OkeyMeld* meld = won->add_groups();
          for (const Code code : group) meld->add_tiles()->set_tile(CodeName(code));
        }
        break;
      }
      case EventKind::kPointsLost:
        okey->mutable_points_lost()->set_points(event.value);
        okey->mutable_points_lost()->set_left(event.other);
        break;
      case EventKind::kDealEnded: {
        auto* ended = okey->mutable_deal_ended();
        ended->set_deal(event.value + 1);
        ended->set_winner(event.seat);
        const DealRecord& record = state_->records()[event.value];
        for (int seat = 0; seat < num_seats(); ++seat) ended->add_points(record.points_after[seat]);
        break;
      }
      case EventKind::kSeatEliminated:
        okey->mutable_seat_eliminated()->set_rank(event.value);
        break;
    }
  });
}

v1::View OkeyGame::DoView(int seat) const {
  v1::View view;
  v1::OkeyView* okey = view.mutable_okey();
  okey->set_deal(state_->deal() + (state_->over() ? 0 : 1));
  okey->set_starter(state_->starter());
  okey->set_indicator(okey::FaceName(state_->indicator()));
  okey->set_okey(okey::FaceName(state_->jokers().okey()));
  if (seat >= 0) okey::AddSortedNames(state_->hand(seat), okey->mutable_my_hand());
  // The seat before the viewer: its pile is the one the viewer takes from.
  const int players = num_seats();
  const int previous = seat >= 0 ? state_->PreviousInPlay(seat) : -1;
  for (int other = 0; other < players; ++other) {
    okey->add_hand_counts(static_cast<int>(state_->hand(other).size()));
    const std::vector<Tile>& pile = state_->discards(other);
    auto* shown = okey->add_discards();
    shown->set_count(static_cast<int>(pile.size()));
    if (other == seat || other == previous) {
      for (const Tile tile : pile) shown->add_tiles(CodeName(CodeOf(tile)));
    } else if (!pile.empty()) {
      shown->add_tiles(CodeName(CodeOf(pile.back())));
    }
    okey->add_points(state_->points(other));
    okey->add_in_play(state_->in_play(other));
  }
  okey->set_deck_count(state_->deck_count());
  if (const std::optional<Tile> taken = state_->takeable(); taken.has_value()) {
    okey->set_takeable_discard(CodeName(CodeOf(*taken)));
  }
  okey->set_drawn(!state_->over() && state_->drawn());
  okey->set_may_show_indicator(seat >= 0 && state_->MayShowIndicator(seat));
  *okey->mutable_settings() = settings().okey();
  return view;
}

v1::Result OkeyGame::Result() const {
  v1::Result result;
  const auto ranks = state_->Ranks();
  const Settings& settings = state_->settings();
  for (int seat = 0; seat < num_seats(); ++seat) {
    v1::Result::SeatResult* entry = result.add_seats();
    entry->set_seat(seat);
    entry->set_rank(ranks[seat]);
    entry->set_score(state_->points(seat));
    entry->set_team(settings.partners ? TeamOf(seat) : seat);
  }
  bool exhausted = false;
  for (int seat = 0; seat < num_seats(); ++seat) exhausted = exhausted || state_->points(seat) <= 0;
  result.set_ending(exhausted ? "points_exhausted" : "deal_limit");
  const auto& records = state_->records();
  for (size_t deal = 0; deal < records.size(); ++deal) {
    v1::Result::Round* round = result.add_rounds();
    round->set_round(static_cast<int>(deal) + 1);
    for (int seat = 0; seat < num_seats(); ++seat) {
      round->add_seat_scores(records[deal].points_after[seat]);
    }
    round->set_ending(records[deal].winner >= 0 ? "won" : "deck_exhausted");
  }
  return result;
}

}  // namespace

absl::StatusOr<Settings> SettingsFromProto(const v1::OkeySettings& proto) {
  Settings settings;
  if (proto.has_players()) settings.players = proto.players();
  settings.first_starter = proto.first_starter();
  settings.indicator_last_tile = proto.indicator_last_tile();
  settings.partners = proto.partners();
  settings.elimination = proto.elimination();
  settings.single_colour = proto.single_colour_doubles();
  settings.red_black_only = proto.single_colour_red_black_only();
  settings.max_deals = proto.max_deals();
  KAHVE_RETURN_IF_ERROR(ValidateSettings(settings));
  return settings;
}

void FillDefaults(v1::GameSettings& settings) {
  v1::OkeySettings& okey = *settings.mutable_okey();
  if (!okey.has_players()) okey.set_players(Settings{}.players);
}

Seating SeatingOf(const v1::GameSettings& settings) {
  return Seating{.preferred = settings.okey().players(), .min = settings.okey().players()};
}

void FillSimDefaults(v1::GameSettings& settings) { settings.mutable_okey()->set_max_deals(10); }

absl::StatusOr<std::unique_ptr<Game>> NewGame(const v1::GameSettings& settings,
                                              const v1::Deal& deal) {
  KAHVE_ASSIGN_OR_RETURN(const Settings typed, SettingsFromProto(settings.okey()));
  if (deal.preset_case() != v1::Deal::kOkey && deal.preset_case() != v1::Deal::PRESET_NOT_SET) {
    return absl::InvalidArgumentError("deal.preset is not an okey preset");
  }
  Preset preset;
  for (int d = 0; d < deal.okey().deals_size(); ++d) {
    KAHVE_ASSIGN_OR_RETURN(
        DealPreset one,
        okey::DealPresetFromProto(deal.okey().deals(d), absl::StrCat("preset.deals[", d, "]")));
    preset.deals.push_back(std::move(one));
  }
  KAHVE_RETURN_IF_ERROR(ValidatePreset(preset, typed));
  v1::GameSettings canonical;
  v1::OkeySettings* stored = canonical.mutable_okey();
  *stored = settings.okey();
  stored->set_players(typed.players);
  const Preset* used = deal.has_okey() ? &preset : nullptr;
  return std::unique_ptr<Game>(new OkeyGame(std::move(canonical), deal, typed, used));
}

absl::StatusOr<SimSummary> Simulate(const SimOptions& options) {
  KAHVE_ASSIGN_OR_RETURN(const Settings settings, SettingsFromProto(options.settings.okey()));
  State state(settings, GameSeed(options.seed, 0));
  return RunSimulation<BotKind>(
      "okey", options, settings.players, &ParseBotKind,
      [&](uint64_t seed, const BotKind* bots, Rng& bot_rng, std::vector<int>& ranks) {
        state.Reset(seed);
        int64_t moves = 0;
        while (!state.over()) {
          const int seat = state.to_act();
          state.Apply(seat, ChooseAction(bots[seat], SeatView(state, seat), bot_rng), nullptr);
          ++moves;
        }
        const auto final_ranks = state.Ranks();
        ranks.assign(final_ranks.begin(), final_ranks.begin() + settings.players);
        return moves;
      });
}

}  // namespace kahve::engine::okey_classic

#include "engine/mexican_train/mexican_train_game.h"

#include <algorithm>
#include <optional>
#include <utility>

#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "engine/core/state_game.h"
#include "engine/mexican_train/mexican_train.h"
#include "engine/mexican_train/mexican_train_bots.h"

namespace kahve::engine::mexican_train {
namespace {

v1::RejectionReason ReasonToProto(Reason reason) {
  switch (reason) {
    case Reason::kNone:
      break;
    case Reason::kNotInHand:
      return v1::MEXICAN_TRAIN_NOT_IN_HAND;
    case Reason::kNoSuchTrain:
      return v1::MEXICAN_TRAIN_NO_SUCH_TRAIN;
    case Reason::kDoesNotMatch:
      return v1::MEXICAN_TRAIN_DOES_NOT_MATCH;
    case Reason::kFirstTurnOwnTrainOnly:
      return v1::MEXICAN_TRAIN_FIRST_TURN_OWN_TRAIN;
    case Reason::kTrainClosed:
      return v1::MEXICAN_TRAIN_TRAIN_CLOSED;
    case Reason::kBoundByDouble:
      return v1::MEXICAN_TRAIN_BOUND_BY_DOUBLE;
    case Reason::kMustPlay:
      return v1::MEXICAN_TRAIN_MUST_PLAY;
    case Reason::kMustDraw:
      return v1::MEXICAN_TRAIN_MUST_DRAW;
    case Reason::kAlreadyDrew:
      return v1::MEXICAN_TRAIN_ALREADY_DREW;
    case Reason::kBoneyardEmpty:
      return v1::MEXICAN_TRAIN_BONEYARD_EMPTY;
    case Reason::kMayNotDraw:
      return v1::MEXICAN_TRAIN_NO_DRAW_IN_FIRST_TURN;
    case Reason::kNothingPlayedYet:
      return v1::MEXICAN_TRAIN_NOTHING_PLAYED_YET;
    case Reason::kNotInFirstTurn:
      return v1::MEXICAN_TRAIN_NOT_IN_FIRST_TURN;
    case Reason::kFirstTurnStarted:
      return v1::MEXICAN_TRAIN_FIRST_TURN_STARTED;
  }
  return v1::REJECTION_REASON_UNSPECIFIED;
}

void AddSortedNames(std::vector<TileId> tiles,
                    google::protobuf::RepeatedPtrField<std::string>* out) {
  std::sort(tiles.begin(), tiles.end());
  for (const TileId tile : tiles) out->Add(TileName(tile));
}

v1::Move ActionToMove(const Action& action) {
  v1::Move move;
  v1::MexicanTrainMove* train = move.mutable_mexican_train();
  switch (action.kind) {
    case ActionKind::kPlay:
      train->mutable_play()->set_tile(TileName(action.tile));
      train->mutable_play()->set_train(action.train);
      break;
    case ActionKind::kDraw:
      train->mutable_draw();
      break;
    case ActionKind::kPass:
      train->mutable_pass();
      break;
    case ActionKind::kEndFirstTurn:
      train->mutable_end_first_turn();
      break;
  }
  return move;
}

class MexicanTrainGame final : public StateGame<State, Action> {
 public:
  MexicanTrainGame(v1::GameSettings settings, v1::Deal deal, const Settings& typed,
                   const Preset* preset)
      : StateGame(std::move(settings), std::move(deal), typed.players) {
    EventLog events;
    state_.emplace(typed, this->deal().seed(), preset, &events);
    set_deal_events(ConvertEvents(events));
  }
  MexicanTrainGame(const MexicanTrainGame&) = default;

  v1::Result Result() const override;
  std::unique_ptr<Game> Clone() const override { return std::make_unique<MexicanTrainGame>(*this); }
  absl::StatusOr<v1::Hints> Hints(int seat) const override;

 protected:
  std::vector<Action> LegalActionsAt(int seat) const override {
    if (seat != state_->to_act()) return {};
    return state_->LegalActions();
  }
  v1::Move MoveOf(const Action& action) const override { return ActionToMove(action); }
  Action BotActionAt(BotKind bot, int seat, Rng& rng) const override {
    return ChooseAction(bot, SeatView(*state_, seat), rng);
  }
  MoveOutcome DoApply(int seat, const v1::Move& move) override;
  bool IsOwnMove(const v1::Move& move) const override { return move.has_mexican_train(); }
  // A tile name that names no tile, a train of no seat: wrong whatever the state.
  bool IsMalformed(v1::RejectionReason reason) const override {
    return reason == v1::MEXICAN_TRAIN_UNKNOWN_TILE || reason == v1::MEXICAN_TRAIN_NO_SUCH_TRAIN;
  }
  v1::View DoView(int seat) const override;
  // A draw, a new round and a round's end (every hand shown) depend on what was hidden.
  bool DecidedByHiddenInformation(const v1::Event& event) const override {
    const v1::MexicanTrainEvent& train = event.mexican_train();
    return train.has_tile_drawn() || train.has_round_started() || train.has_tiles_dealt() ||
           train.has_round_ended();
  }

 private:
  std::vector<v1::Event> ConvertEvents(const EventLog& events) const;
};

MoveOutcome MexicanTrainGame::DoApply(int seat, const v1::Move& move) {
  (void)seat;  // the base class checked that `seat` is the seat to act
  const v1::MexicanTrainMove& proto = move.mexican_train();
  Action action;
  switch (proto.action_case()) {
    case v1::MexicanTrainMove::kPlay: {
      const std::optional<TileId> tile = ParseTile(proto.play().tile());
      if (!tile.has_value()) {
        return Rejected(
            v1::MEXICAN_TRAIN_UNKNOWN_TILE,
            absl::StrCat("play.tile: \"", proto.play().tile(),
                         "\" is no tile (two pips 0..12, the lower first, as \"3-12\")"));
      }
      action = {.kind = ActionKind::kPlay, .tile = *tile, .train = proto.play().train()};
      break;
    }
    case v1::MexicanTrainMove::kDraw:
      action.kind = ActionKind::kDraw;
      break;
    case v1::MexicanTrainMove::kPass:
      action.kind = ActionKind::kPass;
      break;
    case v1::MexicanTrainMove::kEndFirstTurn:
      action.kind = ActionKind::kEndFirstTurn;
      break;
    case v1::MexicanTrainMove::ACTION_NOT_SET:
      return Rejected(v1::MISSING_ACTION, "the move sets none of play, draw, pass, end_first_turn");
  }
  Refusal refusal = state_->Check(action);
  if (refusal.reason != Reason::kNone) {
    return Rejected(ReasonToProto(refusal.reason), std::move(refusal.message));
  }
  EventLog events;
  state_->Apply(action, &events);
  return Accepted(ConvertEvents(events));
}

std::vector<v1::Event> MexicanTrainGame::ConvertEvents(const EventLog& events) const {
  return EventsOf(absl::MakeConstSpan(events.items), [&](const Event& event, v1::Event& proto) {
    v1::MexicanTrainEvent* train = proto.mutable_mexican_train();
    switch (event.kind) {
      case EventKind::kRoundStarted: {
        // A round's events end its move, so the state still shows the round as dealt.
        auto* started = train->mutable_round_started();
        started->set_round(event.value + 1);
        started->set_engine(TileName(IdOf(state_->engine(), state_->engine())));
        started->set_owner(state_->engine_owner());
        started->set_boneyard_count(state_->boneyard_count());
        for (int seat = 0; seat < state_->players(); ++seat) {
          started->add_hand_counts(static_cast<int>(state_->hand(seat).size()));
          started->add_search_draws(state_->search_draws()[seat]);
        }
        break;
      }
      case EventKind::kTilesDealt:
        proto.set_private_to(event.seat);
        AddSortedNames(state_->hand(event.seat), train->mutable_tiles_dealt()->mutable_tiles());
        break;
      case EventKind::kTilePlayed: {
        auto* played = train->mutable_tile_played();
        played->set_tile(TileName(event.tile));
        played->set_train(event.train);
        played->set_end(event.value);
        played->set_hand_count(event.hand_count);
        break;
      }
      case EventKind::kDrew:
        train->mutable_drew()->set_boneyard_count(event.value);
        break;
      case EventKind::kTileDrawn:
        proto.set_private_to(event.seat);
        train->mutable_tile_drawn()->set_tile(TileName(event.tile));
        break;
      case EventKind::kPassed:
        train->mutable_passed();
        break;
      case EventKind::kFirstTurnEnded:
        train->mutable_first_turn_ended();
        break;
      case EventKind::kRoundEnded: {
        const RoundRecord& record = state_->records()[event.value];
        auto* ended = train->mutable_round_ended();
        ended->set_round(event.value + 1);
        ended->set_went_out(record.went_out);
        for (int seat = 0; seat < state_->players(); ++seat) {
          auto* end = ended->add_seats();
          AddSortedNames(record.hands[seat], end->mutable_hand());
          end->set_penalty(record.penalties[seat]);
          end->set_total(record.totals[seat]);
        }
        break;
      }
    }
  });
}

v1::View MexicanTrainGame::DoView(int seat) const {
  v1::View view;
  v1::MexicanTrainView* train = view.mutable_mexican_train();
  // After the last round, round() counts one past it.
  train->set_round(std::min(state_->round(), kRounds - 1) + 1);
  if (!state_->over()) {
    train->set_engine(TileName(IdOf(state_->engine(), state_->engine())));
    train->set_engine_owner(state_->engine_owner());
    if (seat >= 0) AddSortedNames(state_->hand(seat), train->mutable_my_hand());
    for (int other = 0; other < state_->players(); ++other) {
      train->add_hand_counts(static_cast<int>(state_->hand(other).size()));
    }
    train->set_boneyard_count(state_->boneyard_count());
    auto fill = [&](int index, v1::MexicanTrainView::Train* out) {
      const Train& laid = state_->train(index);
      for (const TileId tile : laid.tiles) out->add_tiles(TileName(tile));
      out->set_end(laid.end);
      out->set_marked(laid.marked);
    };
    for (int other = 0; other < state_->players(); ++other) fill(other, train->add_trains());
    fill(kMexicanTrain, train->mutable_mexican());
    for (const int open : state_->open_doubles()) train->add_open_doubles(open);
    train->set_first_turn(state_->in_first_turns());
    train->set_drew(state_->drew());
    train->set_bound(state_->bound());
  }
  for (int other = 0; other < state_->players(); ++other) train->add_totals(state_->total(other));
  for (const RoundRecord& record : state_->records()) {
    auto* scores = train->add_rounds_played();
    for (const int penalty : record.penalties) scores->add_penalties(penalty);
  }
  return view;
}

// Always on: the seed's tables offer a hint, drawn from the seat's own view like the bots' moves.
absl::StatusOr<v1::Hints> MexicanTrainGame::Hints(int seat) const {
  if (seat < 0 || seat >= state_->players()) {
    return absl::FailedPreconditionError("hints are for a seat's hand; a spectator has none");
  }
  if (state_->over()) return absl::FailedPreconditionError("the game is over");
  const SeatView view(*state_, seat);
  v1::Hints hints;
  v1::MexicanTrainHints* train = hints.mutable_mexican_train();
  for (const Action& action : view.LegalActions()) {
    *train->add_legal() = ActionToMove(action).mexican_train();
  }
  if (view.to_act()) {
    // The heuristic bot draws on its Rng only to pick between moves that are not plays, of which
    // a turn offers one at a time; a fixed seed keeps the hint stable.
    Rng rng(0);
    *train->mutable_suggested() =
        ActionToMove(ChooseAction(BotKind::kHeuristic, view, rng)).mexican_train();
  }
  for (const TileId tile : LongestChain(view.hand(), view.train(seat).end)) {
    train->add_own_train_plan(TileName(tile));
  }
  return hints;
}

v1::Result MexicanTrainGame::Result() const {
  v1::Result result;
  const std::vector<int> ranks = state_->Ranks();
  for (int seat = 0; seat < state_->players(); ++seat) {
    v1::Result::SeatResult* entry = result.add_seats();
    entry->set_seat(seat);
    entry->set_rank(ranks[seat]);
    entry->set_score(state_->total(seat));
    entry->set_team(seat);
  }
  result.set_ending("rounds_played");
  const auto& records = state_->records();
  for (size_t r = 0; r < records.size(); ++r) {
    v1::Result::Round* round = result.add_rounds();
    round->set_round(static_cast<int>(r) + 1);
    for (const int penalty : records[r].penalties) round->add_seat_scores(penalty);
    round->set_ending(records[r].went_out >= 0 ? "went_out" : "blocked");
  }
  return result;
}

absl::StatusOr<Settings> SettingsFromProto(const v1::MexicanTrainSettings& proto) {
  Settings settings;
  if (proto.has_players()) settings.players = proto.players();
  KAHVE_RETURN_IF_ERROR(ValidateSettings(settings));
  return settings;
}

absl::StatusOr<Preset> PresetFromProto(const v1::MexicanTrainPreset& proto,
                                       const Settings& settings) {
  if (proto.rounds_size() > kRounds) {
    return absl::InvalidArgumentError(
        absl::StrCat("preset.rounds: ", proto.rounds_size(), " rounds for a match of 13"));
  }
  Preset preset;
  auto parse = [](const std::string& name, const std::string& where) -> absl::StatusOr<TileId> {
    const std::optional<TileId> tile = ParseTile(name);
    if (!tile.has_value()) {
      return absl::InvalidArgumentError(absl::StrCat(where, ": \"", name, "\" is no tile"));
    }
    return *tile;
  };
  for (int r = 0; r < proto.rounds_size(); ++r) {
    RoundPreset& round = preset.rounds.emplace_back();
    for (int h = 0; h < proto.rounds(r).hands_size(); ++h) {
      std::vector<TileId>& hand = round.hands.emplace_back();
      for (const std::string& name : proto.rounds(r).hands(h).tiles()) {
        KAHVE_ASSIGN_OR_RETURN(const TileId tile,
                               parse(name, absl::StrCat("preset.rounds[", r, "].hands[", h, "]")));
        hand.push_back(tile);
      }
    }
    for (const std::string& name : proto.rounds(r).draws()) {
      KAHVE_ASSIGN_OR_RETURN(const TileId tile,
                             parse(name, absl::StrCat("preset.rounds[", r, "].draws")));
      round.draws.push_back(tile);
    }
  }
  KAHVE_RETURN_IF_ERROR(ValidatePreset(preset, settings));
  return preset;
}

}  // namespace

void FillDefaults(v1::GameSettings& settings) {
  v1::MexicanTrainSettings& train = *settings.mutable_mexican_train();
  if (!train.has_players()) train.set_players(Settings{}.players);
}

Seating SeatingOf(const v1::GameSettings& settings) {
  const int players = settings.mexican_train().players();
  return Seating{.preferred = players, .min = players};
}

absl::StatusOr<std::unique_ptr<Game>> NewGame(const v1::GameSettings& settings,
                                              const v1::Deal& deal) {
  KAHVE_ASSIGN_OR_RETURN(const Settings typed, SettingsFromProto(settings.mexican_train()));
  if (deal.preset_case() != v1::Deal::kMexicanTrain &&
      deal.preset_case() != v1::Deal::PRESET_NOT_SET) {
    return absl::InvalidArgumentError("deal.preset is not a mexican_train preset");
  }
  KAHVE_ASSIGN_OR_RETURN(const Preset preset, PresetFromProto(deal.mexican_train(), typed));
  v1::GameSettings canonical;
  canonical.mutable_mexican_train()->set_players(typed.players);
  const Preset* used = deal.has_mexican_train() ? &preset : nullptr;
  return std::unique_ptr<Game>(new MexicanTrainGame(std::move(canonical), deal, typed, used));
}

absl::StatusOr<SimSummary> Simulate(const SimOptions& options) {
  KAHVE_ASSIGN_OR_RETURN(const Settings settings,
                         SettingsFromProto(options.settings.mexican_train()));
  return RunSimulation<BotKind>(
      "mexican_train", options, settings.players, &ParseBotKind,
      [&](uint64_t seed, const BotKind* bots, Rng& bot_rng, std::vector<int>& ranks) {
        State state(settings, seed);
        int64_t moves = 0;
        while (!state.over()) {
          const int seat = state.to_act();
          state.Apply(ChooseAction(bots[seat], SeatView(state, seat), bot_rng));
          ++moves;
        }
        ranks = state.Ranks();
        return moves;
      });
}

}  // namespace kahve::engine::mexican_train

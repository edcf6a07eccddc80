// What participants may see and who may act as which seat: tokens, snapshots, seat statuses, and
// the records kept once the game is over (resumed streams: table_session_resume.cc).

#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "engine/core/check.h"
#include "engine/core/registry.h"
#include "services/table/deal_commitment.h"
#include "services/table/seat_tokens.h"
#include "services/table/table_session.h"

namespace kahve::table {

absl::StatusOr<int> TableSession::SeatOf(std::string_view seat_token) const {
  if (seat_token.empty()) return engine::kSpectator;
  const std::string digest = SeatTokenSha256(seat_token);
  // Every seat is compared, so the time taken does not tell which seat came close.
  int found = -1;
  for (int index = 0; index < num_seats(); ++index) {
    const bool same = SameDigest(digest, seats_[index].token_sha256);
    if (same && !seats_[index].is_bot()) found = index;
  }
  if (found < 0) return absl::PermissionDeniedError("the seat token opens no seat at this table");
  return found;
}

absl::Status TableSession::CheckPlayer(int seat, std::string_view subject) const {
  if (seat == engine::kSpectator) return absl::OkStatus();
  if (seat < 0 || seat >= num_seats()) {
    return absl::InvalidArgumentError(absl::StrCat("seat ", seat, " is not a seat here"));
  }
  if (seats_[seat].is_bot() || seats_[seat].player_id != subject) {
    return absl::PermissionDeniedError("the seat token belongs to another player");
  }
  return absl::OkStatus();
}

std::vector<v1::SeatStatus> TableSession::SeatStatuses() const {
  std::vector<v1::SeatStatus> statuses;
  const std::vector<int> to_act = game_->SeatsToAct();
  for (int index = 0; index < num_seats(); ++index) {
    const Seat& seat = seats_[index];
    v1::SeatStatus& status = statuses.emplace_back();
    status.set_seat(index);
    status.set_player_id(seat.player_id);
    if (seat.is_bot()) status.set_bot_kind(seat.bot_kind);
    status.set_connected(seat.streams > 0);
    status.set_away(seat.away);
    status.set_resigned(seat.resigned);
    // Only a turn the player is meant to play has a deadline worth showing.
    const std::optional<absl::Time> deadline = TurnDeadline(index);
    if (deadline.has_value() && !seat.away && !seat.resigned) {
      *status.mutable_turn_deadline() = ToTimestamp(*deadline);
    }
  }
  return statuses;
}

RecipientView TableSession::ViewFor(int seat) const {
  RecipientView view = RecipientViewOf(*game_, seat);
  // A closed table takes no more moves, whatever its game would allow.
  if (closed_.has_value()) view.legal_moves.Clear();
  return view;
}

void TableSession::AddLiveViews(AppliedEntry& applied) const {
  for (size_t index = 0; index < view_watchers_.size(); ++index) {
    if (view_watchers_[index] == 0) continue;
    applied.live_views.resize(view_watchers_.size());
    applied.live_views[index] = ViewFor(static_cast<int>(index) - 1);
  }
}

const v1::DealCommitment* TableSession::commitment() const {
  return created_.has_commitment() ? &created_.commitment() : nullptr;
}

std::optional<v1::DealReveal> TableSession::reveal() const {
  if (!over() || !created_.has_commitment()) return std::nullopt;
  // CheckCreated made sure the salt is 64 hex digits.
  return Reveal(created_.commitment().source(), absl::HexStringToBytes(created_.deal_salt()),
                created_.deal());
}

v1::TableUpdate TableSession::SnapshotFor(int seat) const {
  v1::TableUpdate update;
  update.set_seq(seq_);
  *update.mutable_at() = ToTimestamp(last_at_);
  v1::Snapshot* snapshot = update.mutable_snapshot();
  RecipientView now = ViewFor(seat);
  *snapshot->mutable_view() = std::move(now.view);
  *snapshot->mutable_legal_moves() = std::move(now.legal_moves);
  for (v1::SeatStatus& status : SeatStatuses()) *snapshot->add_seats() = std::move(status);
  *snapshot->mutable_options() = created_.options();
  snapshot->set_seq(seq_);
  snapshot->set_over(over());
  if (game_->IsOver()) *snapshot->mutable_result() = game_->Result();
  if (closed_.has_value()) *snapshot->mutable_closed() = *closed_;
  if (practice()) *snapshot->mutable_practice() = PracticeState();
  if (commitment() != nullptr) *snapshot->mutable_commitment() = *commitment();
  if (std::optional<v1::DealReveal> revealed = reveal()) *snapshot->mutable_reveal() = *revealed;
  return update;
}

std::vector<SeatOutcome> TableSession::SeatOutcomes() const {
  std::vector<SeatOutcome> outcomes;
  for (int index = 0; index < num_seats(); ++index) {
    const Seat& seat = seats_[index];
    SeatOutcome& outcome = outcomes.emplace_back();
    outcome.seat = index;
    outcome.player_id = seat.player_id;
    outcome.bot_seat = seat.is_bot();
    outcome.resigned = seat.resigned;
    outcome.away_at_end = seat.away;
    outcome.human_moves = seat.human_moves;
    outcome.bot_moves = seat.bot_moves;
  }
  return outcomes;
}

int TableSession::SeatedPlayers() const {
  if (over()) return 0;
  int players = 0;
  for (const Seat& seat : seats_) {
    if (!seat.is_bot() && !seat.resigned) ++players;
  }
  return players;
}

v1::TableSummary TableSession::Summary() const {
  v1::TableSummary summary;
  summary.set_table_id(table_id());
  summary.set_match_id(match_id());
  absl::StatusOr<const engine::Ruleset*> ruleset = engine::RulesetOf(game_->settings());
  if (ruleset.ok()) summary.set_ruleset(std::string((*ruleset)->id));
  for (v1::SeatStatus& status : SeatStatuses()) *summary.add_seats() = std::move(status);
  summary.set_seq(seq_);
  summary.set_over(over());
  *summary.mutable_created_at() = ToTimestamp(created_at_);
  summary.set_practice(practice());
  if (commitment() != nullptr) *summary.mutable_commitment() = *commitment();
  return summary;
}

v1::Replay TableSession::ReplayRecord() const {
  v1::Replay replay;
  replay.set_table_id(table_id());
  replay.set_match_id(match_id());
  *replay.mutable_settings() = game_->settings();
  *replay.mutable_deal() = game_->deal();
  // The events are not kept as the game goes: the moves in force, played again on a new game of
  // the deal, give them (a game is a pure function of its deal and moves).
  absl::StatusOr<std::unique_ptr<engine::Game>> again =
      engine::NewGame(created_.settings(), created_.deal());
  KAHVE_CHECK(again.ok(), "the table's own settings and deal make a game");
  for (const v1::Event& event : (*again)->deal_events()) *replay.add_deal_events() = event;
  for (const v1::ReplayMove& move : moves_) {
    v1::ReplayMove& record = *replay.add_moves();
    record = move;
    engine::MoveOutcome outcome = (*again)->Apply(move.seat(), move.move());
    KAHVE_CHECK(outcome.accepted, "a move in force applies again on the same deal");
    for (v1::Event& event : outcome.events) *record.add_events() = std::move(event);
  }
  if (game_->IsOver()) *replay.mutable_result() = game_->Result();
  if (closed_.has_value()) *replay.mutable_closed() = *closed_;
  *replay.mutable_seats() = created_.seats();
  if (commitment() != nullptr) *replay.mutable_commitment() = *commitment();
  if (std::optional<v1::DealReveal> revealed = reveal()) *replay.mutable_reveal() = *revealed;
  return replay;
}

}  // namespace kahve::table

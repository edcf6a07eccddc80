#include "services/table/table_session.h"

#include <algorithm>
#include <utility>

#include "absl/strings/str_cat.h"
#include "google/protobuf/util/message_differencer.h"
#include "services/common/status.h"
#include "services/common/time.h"
#include "services/table/table_setup.h"

// Applying entries, playing and resigning. Presence and clocks are in table_session_clock.cc,
// what participants see in table_session_views.cc.

namespace kahve::table {

absl::StatusOr<std::unique_ptr<TableSession>> TableSession::Create(
    const v1::TableLogEntry& created) {
  absl::StatusOr<std::unique_ptr<engine::Game>> game = CheckCreated(created);
  if (!game.ok()) return game.status();
  const absl::Time created_at = FromTimestamp(created.at());
  const std::string takeover_kind = TakeoverBotKind(**game);
  std::vector<Seat> seats(created.created().seats_size());
  for (int index = 0; index < static_cast<int>(seats.size()); ++index) {
    const v1::SeatSpec& spec = created.created().seats(index);
    Seat& seat = seats[index];
    seat.player_id = spec.player_id();
    seat.bot_kind = spec.has_bot_kind() ? spec.bot_kind() : takeover_kind;
    seat.token_sha256 = created.created().seat_token_sha256(index);
    seat.disconnected_since = created_at;
  }
  std::unique_ptr<TableSession> session(
      new TableSession(created.created(), created_at, *std::move(game), std::move(seats)));
  session->RestartTurnClocks(created);
  return session;
}

TableSession::TableSession(v1::TableCreated created, absl::Time created_at,
                           std::unique_ptr<engine::Game> game, std::vector<Seat> seats)
    : created_(std::move(created)),
      created_at_(created_at),
      game_(std::move(game)),
      seats_(std::move(seats)),
      view_watchers_(seats_.size() + 1, 0),
      last_at_(created_at) {}

std::optional<v1::Result> TableSession::result() const {
  if (!game_->IsOver()) return std::nullopt;
  return game_->Result();
}

absl::Status TableSession::Replay(const v1::TableLogEntry& entry) {
  absl::StatusOr<AppliedEntry> applied = ApplyEntry(entry, /*rejection=*/nullptr);
  if (!applied.ok()) {
    return absl::Status(applied.status().code(),
                        absl::StrCat("log entry ", entry.seq(), " of table ", table_id(),
                                     " does not apply: ", applied.status().message()));
  }
  return absl::OkStatus();
}

absl::StatusOr<AppliedEntry> TableSession::ApplyEntry(const v1::TableLogEntry& entry,
                                                      v1::Rejection* rejection) {
  if (entry.seq() != seq_ + 1) {
    return absl::InvalidArgumentError(
        absl::StrCat("seq: expected ", seq_ + 1, ", got ", entry.seq()));
  }
  if (!entry.has_at() || !common::IsValidTimestamp(entry.at())) {
    return absl::InvalidArgumentError("at: must be a valid timestamp");
  }
  // A closed table takes nothing more, whatever the entry.
  if (closed_.has_value()) return absl::FailedPreconditionError("the table is closed");
  AppliedEntry applied;
  if (entry.has_move()) {
    absl::StatusOr<AppliedEntry> move = ApplyMove(entry, rejection);
    if (!move.ok()) return move.status();
    applied = *std::move(move);
  } else if (entry.has_seat_change()) {
    // A finished game logs nothing more; a move after the end gets the engine's GAME_OVER.
    if (game_->IsOver()) return absl::FailedPreconditionError("the game is over");
    absl::Status check = CheckSeatChange(entry.seat_change());
    if (!check.ok()) return check;
    ApplySeatChange(entry.seat_change(), entry.seq());
    applied.entry = entry;
  } else if (entry.has_practice()) {
    absl::StatusOr<AppliedEntry> practice = ApplyPractice(entry);
    if (!practice.ok()) return practice.status();
    applied = *std::move(practice);
  } else if (entry.has_closed()) {
    if (!practice()) return absl::FailedPreconditionError("only a practice table closes early");
    if (game_->IsOver()) return absl::FailedPreconditionError("the game is over");
    closed_ = entry.closed();
    closed_seq_ = entry.seq();
    applied.entry = entry;
    // Nothing more will be played: the deal may be shown.
    applied.reveal = reveal();
  } else {
    return absl::InvalidArgumentError(
        "entry: only moves, seat changes, practice changes and a closing follow the creation");
  }
  seq_ = entry.seq();
  last_at_ = FromTimestamp(entry.at());
  RestartTurnClocks(entry);
  Record(applied);
  AddLiveViews(applied);
  return applied;
}

absl::StatusOr<AppliedEntry> TableSession::ApplyMove(const v1::TableLogEntry& entry,
                                                     v1::Rejection* rejection) {
  const v1::MovePlayed& played = entry.move();
  const int seat = played.seat();
  if (seat < 0 || seat >= num_seats()) {
    return absl::InvalidArgumentError(absl::StrCat("move.seat: ", seat, " is not a seat here"));
  }
  if (!played.by_bot()) {
    absl::Status playable = CheckPlayableSeat(seat);
    if (!playable.ok()) return playable;
  } else if (played.bot_reason().empty()) {
    return absl::InvalidArgumentError("move.bot_reason: a bot move names its reason");
  }
  // Bots wait too: NextDue plans no move while paused.
  if (paused_) return absl::FailedPreconditionError("the table is paused; Resume to play on");
  if (!played.request_id().empty() && requests_.count({seat, played.request_id()}) > 0) {
    return absl::AlreadyExistsError("move.request_id: already used by an earlier move");
  }
  engine::MoveOutcome outcome = game_->Apply(seat, played.move());
  if (!outcome.accepted) {
    if (rejection != nullptr) *rejection = outcome.rejection;
    // The engine says which code: INVALID_ARGUMENT for a move malformed in itself, else
    // FAILED_PRECONDITION (STYLE.md).
    return absl::Status(outcome.code, outcome.rejection.message());
  }
  v1::ReplayMove& record = moves_.emplace_back();
  record.set_seat(seat);
  *record.mutable_move() = played.move();
  record.set_by_bot(played.by_bot());
  record.set_bot_reason(played.bot_reason());
  move_request_ids_.push_back(played.request_id());
  CountMove(record);
  // A new decision of the player replaces what could have been played again.
  if (!played.by_bot()) redo_.clear();
  if (!played.request_id().empty()) Remember(seat, played, entry.seq(), outcome.events);

  AppliedEntry applied;
  applied.entry = entry;
  if (seats_[seat].turn_started.has_value()) {
    applied.decision_time = FromTimestamp(entry.at()) - *seats_[seat].turn_started;
  }
  applied.events = std::move(outcome.events);
  applied.result = result();
  applied.reveal = reveal();
  applied.to_act = game_->SeatsToAct();
  return applied;
}

absl::Status TableSession::CheckSeatChange(const v1::SeatChange& change) const {
  const int index = change.seat();
  if (index < 0 || index >= num_seats()) {
    return absl::InvalidArgumentError(
        absl::StrCat("seat_change.seat: ", index, " is not a seat here"));
  }
  const Seat& seat = seats_[index];
  if (seat.is_bot()) {
    return absl::FailedPreconditionError(absl::StrCat("seat ", index, " is a bot seat"));
  }
  if (seat.resigned) {
    return absl::FailedPreconditionError(absl::StrCat("seat ", index, " has resigned"));
  }
  switch (change.kind()) {
    case v1::SeatChange::AWAY:
      if (seat.away) return absl::FailedPreconditionError("the seat is already away");
      return absl::OkStatus();
    case v1::SeatChange::BACK:
      if (!seat.away) return absl::FailedPreconditionError("the seat is not away");
      return absl::OkStatus();
    case v1::SeatChange::RESIGNED:
      return absl::OkStatus();
    default:
      return absl::InvalidArgumentError("seat_change.kind: must be AWAY, BACK or RESIGNED");
  }
}

void TableSession::ApplySeatChange(const v1::SeatChange& change, uint64_t seq) {
  Seat& seat = seats_[change.seat()];
  switch (change.kind()) {
    case v1::SeatChange::AWAY:
      seat.away = true;
      break;
    case v1::SeatChange::BACK:
      seat.away = false;
      break;
    case v1::SeatChange::RESIGNED:
      seat.resigned = true;
      seat.resigned_seq = seq;
      // The bots play a resigned practice game out; no one is left to resume it.
      paused_ = false;
      break;
    default:
      break;
  }
}

void TableSession::CountMove(const v1::ReplayMove& move) {
  Seat& mover = seats_[move.seat()];
  ++(move.by_bot() ? mover.bot_moves : mover.human_moves);
}

void TableSession::Record(AppliedEntry applied) {
  recent_.push_back(std::move(applied));
  if (recent_.size() > kRecentEntries) recent_.pop_front();
}

// Every decision gets the full turn time: a seat's clock starts when it becomes a seat to act, and
// restarts after each of its own moves if it still acts (a Liar's dice loser opening the next
// round, okey51's several moves in one turn).
void TableSession::RestartTurnClocks(const v1::TableLogEntry& entry) {
  const absl::Time at = FromTimestamp(entry.at());
  // After a resume, undo or redo every seat to act starts afresh: a bot waits its delay again.
  if (entry.has_practice()) {
    for (Seat& seat : seats_) seat.turn_started.reset();
  }
  const std::vector<int> to_act = game_->SeatsToAct();
  for (int index = 0; index < num_seats(); ++index) {
    Seat& seat = seats_[index];
    if (!std::binary_search(to_act.begin(), to_act.end(), index)) {
      seat.turn_started.reset();
    } else if (!seat.turn_started.has_value() ||
               (entry.has_move() && entry.move().seat() == index)) {
      seat.turn_started = at;
    }
  }
}

void TableSession::Remember(int seat, const v1::MovePlayed& move, uint64_t seq,
                            const std::vector<v1::Event>& events) {
  RequestKey key{seat, move.request_id()};
  RememberedRequest& remembered = requests_[key];
  remembered.move = move.move();
  remembered.seq = seq;
  remembered.visible_events = engine::VisibleTo(events, seat);
  request_order_.push_back(std::move(key));
  if (request_order_.size() > kRememberedRequests) {
    requests_.erase(request_order_.front());
    request_order_.pop_front();
  }
}

absl::Status TableSession::CheckPlayableSeat(int seat) const {
  if (seat == engine::kSpectator) return absl::PermissionDeniedError("a spectator cannot play");
  if (seat < 0 || seat >= num_seats()) {
    return absl::InvalidArgumentError(absl::StrCat("seat ", seat, " is not a seat here"));
  }
  if (seats_[seat].is_bot()) {
    return absl::PermissionDeniedError(absl::StrCat("seat ", seat, " is a bot seat"));
  }
  if (seats_[seat].resigned) {
    return absl::FailedPreconditionError(absl::StrCat("seat ", seat, " has resigned"));
  }
  return absl::OkStatus();
}

absl::Status TableSession::CheckExpectedSeq(std::optional<uint64_t> expected_seq) const {
  if (!expected_seq.has_value() || *expected_seq == seq_) return absl::OkStatus();
  v1::StaleSeq stale;
  stale.set_table_seq(seq_);
  stale.set_expected_seq(*expected_seq);
  return common::WithDetail(
      absl::AbortedError(
          absl::StrCat("expected_seq: the table is at seq ", seq_, ", not ", *expected_seq)),
      stale);
}

v1::TableLogEntry TableSession::NewEntry(absl::Time now) const {
  v1::TableLogEntry entry;
  entry.set_seq(seq_ + 1);
  *entry.mutable_at() = ToTimestamp(now);
  return entry;
}

PlayResult TableSession::Play(int seat, const v1::Move& move, const std::string& request_id,
                              std::optional<uint64_t> expected_seq, bool dry_run, absl::Time now) {
  PlayResult result;
  result.seq = seq_;
  if (seat < 0 || seat >= num_seats()) {
    result.status = CheckPlayableSeat(seat);
    return result;
  }
  if (request_id.size() > kMaxRequestIdLength) {
    result.status = absl::InvalidArgumentError(
        absl::StrCat("request_id: at most ", kMaxRequestIdLength, " characters"));
    return result;
  }
  // A retry is answered before any other check: its expected_seq was right when first sent, and
  // its seat may have resigned since.
  const auto remembered =
      dry_run || request_id.empty() ? requests_.end() : requests_.find({seat, request_id});
  if (remembered != requests_.end()) {
    if (!google::protobuf::util::MessageDifferencer::Equals(remembered->second.move, move)) {
      // The earlier move is the caller's own: naming it tells nothing hidden.
      v1::RequestIdPlayed earlier;
      earlier.set_request_id(request_id);
      earlier.set_seq(remembered->second.seq);
      *earlier.mutable_move() = remembered->second.move;
      result.status = common::WithDetail(
          absl::AlreadyExistsError(absl::StrCat("request_id: already used for another move (seq ",
                                                remembered->second.seq, ")")),
          earlier);
      return result;
    }
    result.seq = remembered->second.seq;
    result.events = remembered->second.visible_events;
    result.duplicate = true;
    return result;
  }
  result.status = CheckPlayableSeat(seat);
  if (!result.status.ok()) return result;
  result.status = CheckExpectedSeq(expected_seq);
  if (!result.status.ok()) return result;
  if (dry_run) return DryRun(seat, move);

  v1::TableLogEntry entry = NewEntry(now);
  v1::MovePlayed* played = entry.mutable_move();
  played->set_seat(seat);
  *played->mutable_move() = move;
  played->set_request_id(request_id);
  v1::Rejection rejection;
  absl::StatusOr<AppliedEntry> applied = ApplyEntry(entry, &rejection);
  if (!applied.ok()) {
    result.status = applied.status();
    if (rejection.reason() != v1::REJECTION_REASON_UNSPECIFIED) result.rejection = rejection;
    return result;
  }
  result.seq = seq_;
  result.events = engine::VisibleTo(applied->events, seat);
  result.applied = *std::move(applied);
  return result;
}

PlayResult TableSession::DryRun(int seat, const v1::Move& move) const {
  PlayResult result;
  result.seq = seq_;
  engine::MoveOutcome outcome = game_->DryRun(seat, move);
  if (!outcome.accepted) {
    result.status = absl::Status(outcome.code, outcome.rejection.message());
    result.rejection = outcome.rejection;
    return result;
  }
  result.events = engine::VisibleTo(outcome.events, seat);
  result.preview_truncated = outcome.preview_truncated;
  return result;
}

absl::StatusOr<ResignResult> TableSession::Resign(int seat, absl::Time now) {
  if (seat >= 0 && seat < num_seats() && seats_[seat].resigned) {
    return ResignResult{seats_[seat].resigned_seq, std::nullopt};
  }
  if (closed_.has_value() && closed_->reason() == v1::TableClosed::PRACTICE_RESIGNED) {
    return ResignResult{closed_seq_, std::nullopt};
  }
  absl::Status playable = CheckPlayableSeat(seat);
  if (!playable.ok()) return playable;
  if (practice()) {
    // Bots playing out a game nobody watches would only fill the log.
    absl::StatusOr<AppliedEntry> closing = Close(v1::TableClosed::PRACTICE_RESIGNED, now);
    if (!closing.ok()) return closing.status();
    return ResignResult{seq_, *std::move(closing)};
  }
  v1::TableLogEntry entry = NewEntry(now);
  entry.mutable_seat_change()->set_seat(seat);
  entry.mutable_seat_change()->set_kind(v1::SeatChange::RESIGNED);
  absl::StatusOr<AppliedEntry> applied = ApplyEntry(entry, nullptr);
  if (!applied.ok()) return applied.status();
  return ResignResult{seq_, *std::move(applied)};
}

absl::StatusOr<AppliedEntry> TableSession::Close(v1::TableClosed::Reason reason, absl::Time now) {
  v1::TableLogEntry entry = NewEntry(now);
  entry.mutable_closed()->set_reason(reason);
  return ApplyEntry(entry, nullptr);
}

}  // namespace kahve::table

// Presence and time: when a seat counts as away, when its turn runs out, and the bot moves that
// follow. Every rule reads the caller's `now`; nothing here reads a clock.

#include <algorithm>
#include <utility>

#include "engine/core/check.h"
#include "engine/core/rng.h"
#include "services/table/table_session.h"

namespace kahve::table {

absl::Duration TableSession::bot_delay() const {
  return absl::Milliseconds(created_.options().bot_delay_ms());
}

absl::Duration TableSession::away_grace() const {
  const int seconds = created_.options().away_grace_seconds();
  return absl::Seconds(seconds > 0 ? seconds : kDefaultAwayGraceSeconds);
}

std::optional<absl::Time> TableSession::TurnDeadline(int seat) const {
  const Seat& state = seats_[seat];
  const int turn_seconds = created_.options().turn_seconds();
  // A practice table waits for its player: no turn limit.
  if (turn_seconds <= 0 || practice() || state.is_bot() || !state.turn_started.has_value())
    return std::nullopt;
  return *state.turn_started + absl::Seconds(turn_seconds);
}

void TableSession::RestartClocks(absl::Time now) {
  for (Seat& seat : seats_) {
    seat.disconnected_since = now;
    if (seat.turn_started.has_value()) seat.turn_started = now;
  }
}

std::optional<AppliedEntry> TableSession::StreamOpened(int seat, bool with_view,
                                                       absl::Time now) {
  if (seat < engine::kSpectator || seat >= num_seats()) return std::nullopt;
  if (with_view) ++view_watchers_[seat + 1];
  if (seat == engine::kSpectator) return std::nullopt;
  ++seats_[seat].streams;
  if (!seats_[seat].away || seats_[seat].resigned || over()) return std::nullopt;
  v1::TableLogEntry entry = NewEntry(now);
  entry.mutable_seat_change()->set_seat(seat);
  entry.mutable_seat_change()->set_kind(v1::SeatChange::BACK);
  absl::StatusOr<AppliedEntry> applied = ApplyEntry(entry, nullptr);
  KAHVE_CHECK(applied.ok(), "an away seat of a running game may come back");
  return *std::move(applied);
}

void TableSession::StreamClosed(int seat, bool with_view, absl::Time now) {
  if (seat < engine::kSpectator || seat >= num_seats()) return;
  if (with_view && view_watchers_[seat + 1] > 0) --view_watchers_[seat + 1];
  if (seat == engine::kSpectator || seats_[seat].streams == 0) return;
  if (--seats_[seat].streams == 0) seats_[seat].disconnected_since = now;
}

std::string TableSession::TakeoverReason(int seat, absl::Time now) const {
  const Seat& state = seats_[seat];
  if (state.is_bot()) return kReasonBotSeat;
  if (state.resigned) return kReasonResigned;
  if (state.away) return kReasonAway;
  const std::optional<absl::Time> deadline = TurnDeadline(seat);
  if (deadline.has_value() && now >= *deadline) return kReasonTimeout;
  return "";
}

absl::Time TableSession::NextDeadline() const {
  if (over() || paused_) return absl::InfiniteFuture();
  absl::Time next = absl::InfiniteFuture();
  for (const Seat& seat : seats_) {
    // A practice table's player is never away: the game waits for them.
    if (!seat.is_bot() && !seat.resigned && !seat.away && seat.streams == 0 && !practice()) {
      next = std::min(next, seat.disconnected_since + away_grace());
    }
  }
  for (int seat : game_->SeatsToAct()) {
    const Seat& state = seats_[seat];
    if (state.is_bot() || state.resigned || state.away) {
      // Due the bot delay after the seat began to act.
      next = std::min(next, state.turn_started.value_or(last_at_) + bot_delay());
    } else if (const std::optional<absl::Time> deadline = TurnDeadline(seat)) {
      next = std::min(next, *deadline);
    }
  }
  return next;
}

std::optional<v1::TableLogEntry> TableSession::NextDue(absl::Time now) const {
  if (paused_) return std::nullopt;
  for (int index = 0; index < num_seats(); ++index) {
    const Seat& seat = seats_[index];
    if (seat.is_bot() || seat.resigned || seat.away || seat.streams > 0 || practice()) continue;
    if (now < seat.disconnected_since + away_grace()) continue;
    v1::TableLogEntry entry = NewEntry(now);
    entry.mutable_seat_change()->set_seat(index);
    entry.mutable_seat_change()->set_kind(v1::SeatChange::AWAY);
    return entry;
  }
  for (int seat : game_->SeatsToAct()) {
    const std::string reason = TakeoverReason(seat, now);
    if (reason.empty()) continue;
    if (reason != kReasonTimeout &&
        now < seats_[seat].turn_started.value_or(last_at_) + bot_delay()) {
      continue;
    }
    // Repeatable for the log's sake, and different for every move and seat.
    const uint64_t bot_seed =
        engine::DeriveSeed(engine::DeriveSeed(game_->deal().seed(), game_->move_number()), seat);
    absl::StatusOr<v1::Move> move = game_->BotMove(seat, seats_[seat].bot_kind, bot_seed);
    KAHVE_CHECK(move.ok(), "a bot of the ruleset moves for a seat that may act");
    v1::TableLogEntry entry = NewEntry(now);
    v1::MovePlayed* played = entry.mutable_move();
    played->set_seat(seat);
    *played->mutable_move() = *std::move(move);
    played->set_by_bot(true);
    played->set_bot_reason(reason);
    return entry;
  }
  return std::nullopt;
}

std::vector<AppliedEntry> TableSession::Due(absl::Time now) {
  std::vector<AppliedEntry> due;
  while (!over() && due.size() < kMaxEntriesPerDue) {
    std::optional<v1::TableLogEntry> entry = NextDue(now);
    if (!entry.has_value()) break;
    absl::StatusOr<AppliedEntry> applied = ApplyEntry(*entry, nullptr);
    KAHVE_CHECK(applied.ok(), "an entry the session chose applies to it");
    due.push_back(*std::move(applied));
  }
  return due;
}

}  // namespace kahve::table

// Practice tables: pause and resume, undo and redo. An undo is logged as one entry and carried out
// by replaying the game from its deal without the moves it takes back, so replaying the log after
// a restart takes back exactly the same moves; a redo plays the same moves again.

#include <utility>

#include "absl/strings/str_cat.h"
#include "base/status_macros.h"
#include "engine/core/registry.h"
#include "services/table/table_session.h"

namespace kahve::table {

const char* PracticeKindName(v1::PracticeChange::Kind kind) {
  switch (kind) {
    case v1::PracticeChange::PAUSED:
      return "pause";
    case v1::PracticeChange::RESUMED:
      return "resume";
    case v1::PracticeChange::UNDONE:
      return "undo";
    case v1::PracticeChange::REDONE:
      return "redo";
    default:
      return "";
  }
}

v1::PracticeState TableSession::PracticeState() const {
  v1::PracticeState state;
  state.set_paused(paused_);
  int undoable = 0;
  for (const v1::ReplayMove& move : moves_) undoable += move.by_bot() ? 0 : 1;
  state.set_undoable(undoable);
  state.set_redoable(static_cast<int>(redo_.size()));
  return state;
}

int TableSession::UndoCount() const {
  for (size_t index = moves_.size(); index > 0; --index) {
    if (!moves_[index - 1].by_bot()) return static_cast<int>(moves_.size() - index + 1);
  }
  return 0;
}

absl::StatusOr<PracticeResult> TableSession::Practice(int seat, v1::PracticeChange::Kind kind,
                                                      std::optional<uint64_t> expected_seq,
                                                      absl::Time now) {
  absl::Status playable = CheckPlayableSeat(seat);
  if (!playable.ok()) return playable;
  if (!practice()) {
    return absl::FailedPreconditionError(
        absl::StrCat("table ", table_id(), " is not a practice table"));
  }
  KAHVE_RETURN_IF_ERROR(CheckExpectedSeq(expected_seq));
  const bool no_change = (kind == v1::PracticeChange::PAUSED && paused_) ||
                         (kind == v1::PracticeChange::RESUMED && !paused_);
  if (no_change && !over()) return PracticeResult{seq_, std::nullopt};
  v1::TableLogEntry entry = NewEntry(now);
  v1::PracticeChange* change = entry.mutable_practice();
  change->set_kind(kind);
  if (kind == v1::PracticeChange::UNDONE) change->set_moves(UndoCount());
  if (kind == v1::PracticeChange::REDONE && !redo_.empty()) {
    change->set_moves(static_cast<int>(redo_.back().size()));
  }
  absl::StatusOr<AppliedEntry> applied = ApplyEntry(entry, nullptr);
  if (!applied.ok()) return applied.status();
  return PracticeResult{seq_, *std::move(applied)};
}

absl::StatusOr<AppliedEntry> TableSession::ApplyPractice(const v1::TableLogEntry& entry) {
  const v1::PracticeChange& change = entry.practice();
  if (!practice()) return absl::FailedPreconditionError("practice: not a practice table");
  // What a recipient sees is derived on applying, never stored.
  if (change.has_view() || change.has_state() || change.to_act_size() > 0) {
    return absl::InvalidArgumentError("practice: view, state and to_act are not logged");
  }
  const char* name = PracticeKindName(change.kind());
  if (*name == '\0') {
    return absl::InvalidArgumentError("practice.kind: must be PAUSED, RESUMED, UNDONE or REDONE");
  }
  if (over()) {
    return absl::FailedPreconditionError(absl::StrCat("the game is over; nothing to ", name));
  }
  for (const Seat& seat : seats_) {
    if (!seat.is_bot() && seat.resigned) {
      return absl::FailedPreconditionError(
          absl::StrCat("the player resigned; the bots play the game out (no ", name, ")"));
    }
  }
  AppliedEntry applied;
  applied.entry = entry;
  switch (change.kind()) {
    case v1::PracticeChange::PAUSED:
    case v1::PracticeChange::RESUMED: {
      const bool pause = change.kind() == v1::PracticeChange::PAUSED;
      if (paused_ == pause) {
        return absl::FailedPreconditionError(pause ? "already paused" : "not paused");
      }
      if (change.moves() != 0) return absl::InvalidArgumentError("practice.moves: must be 0");
      paused_ = pause;
      break;
    }
    case v1::PracticeChange::UNDONE: {
      const int count = UndoCount();
      if (count == 0) {
        return absl::FailedPreconditionError("nothing to undo: the player has not moved yet");
      }
      if (change.moves() != count) {
        return absl::InvalidArgumentError(
            absl::StrCat("practice.moves: ", change.moves(), ", but an undo takes back ", count));
      }
      std::vector<v1::ReplayMove> taken(moves_.end() - count, moves_.end());
      std::vector<RequestKey> forgotten;
      for (size_t index = moves_.size() - count; index < moves_.size(); ++index) {
        const std::string& request_id = move_request_ids_[index];
        if (!request_id.empty()) forgotten.emplace_back(moves_[index].seat(), request_id);
      }
      absl::Status rebuilt = Rebuild(moves_.size() - count);
      if (!rebuilt.ok()) return rebuilt;
      // A move taken back is no longer the answer to its request id: the id may play again.
      for (const RequestKey& key : forgotten) requests_.erase(key);
      applied.taken_back = taken;
      redo_.push_back(std::move(taken));
      break;
    }
    case v1::PracticeChange::REDONE: {
      if (redo_.empty()) return absl::FailedPreconditionError("nothing to redo");
      if (change.moves() != static_cast<int>(redo_.back().size())) {
        return absl::InvalidArgumentError(absl::StrCat(
            "practice.moves: ", change.moves(), ", but a redo plays again ", redo_.back().size()));
      }
      absl::Status played = PlayAgain(redo_.back());
      if (!played.ok()) return played;
      redo_.pop_back();
      break;
    }
    default:
      break;
  }
  if (change.kind() == v1::PracticeChange::UNDONE || change.kind() == v1::PracticeChange::REDONE) {
    applied.to_act = game_->SeatsToAct();
    applied.result = result();
    for (int recipient = engine::kSpectator; recipient < num_seats(); ++recipient) {
      applied.views.push_back(game_->View(recipient));
    }
  }
  applied.practice = PracticeState();
  return applied;
}

absl::Status TableSession::Rebuild(size_t keep) {
  absl::StatusOr<std::unique_ptr<engine::Game>> game =
      engine::NewGame(created_.settings(), created_.deal());
  if (!game.ok()) return game.status();
  for (size_t index = 0; index < keep; ++index) {
    const v1::ReplayMove& move = moves_[index];
    if (!(*game)->Apply(move.seat(), move.move()).accepted) {
      // The same moves from the same deal: the game is a pure function of them.
      return absl::InternalError(absl::StrCat("move ", index, " no longer applies on rebuilding"));
    }
  }
  game_ = *std::move(game);
  moves_.resize(keep);
  move_request_ids_.resize(keep);
  for (Seat& seat : seats_) seat.human_moves = seat.bot_moves = 0;
  for (const v1::ReplayMove& move : moves_) CountMove(move);
  return absl::OkStatus();
}

absl::Status TableSession::PlayAgain(const std::vector<v1::ReplayMove>& moves) {
  std::unique_ptr<engine::Game> game = game_->Clone();
  for (const v1::ReplayMove& move : moves) {
    if (!game->Apply(move.seat(), move.move()).accepted) {
      return absl::InternalError("a move taken back no longer applies");
    }
  }
  game_ = std::move(game);
  for (const v1::ReplayMove& move : moves) {
    moves_.push_back(move);
    move_request_ids_.emplace_back();  // forgotten on undo; a redo is no answer to them
    CountMove(move);
  }
  return absl::OkStatus();
}

}  // namespace kahve::table

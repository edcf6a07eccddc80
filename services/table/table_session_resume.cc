// Resuming a stream: the kept entries a client missed, and for streams with_view the view the
// seat had after each of them.

#include <utility>

#include "absl/strings/str_cat.h"
#include "engine/core/registry.h"
#include "services/table/table_session.h"

namespace kahve::table {
namespace {

bool IsPractice(const AppliedEntry& applied, v1::PracticeChange::Kind kind) {
  return applied.entry.has_practice() && applied.entry.practice().kind() == kind;
}

}  // namespace

absl::StatusOr<std::optional<std::vector<v1::TableUpdate>>> TableSession::ResumeFor(
    int seat, uint64_t after_seq, bool with_view) const {
  if (after_seq > seq_) {
    return absl::OutOfRangeError(
        absl::StrCat("after_seq: ", after_seq, " is ahead of the table's seq ", seq_));
  }
  std::vector<v1::TableUpdate> updates;
  if (after_seq == seq_) return updates;
  // The ring holds consecutive seqs ending at seq_; the client needs after_seq + 1 onwards.
  if (recent_.empty() || recent_.front().entry.seq() > after_seq + 1) return std::nullopt;
  std::vector<const AppliedEntry*> missed;
  for (const AppliedEntry& applied : recent_) {
    if (applied.entry.seq() <= after_seq) continue;
    missed.push_back(&applied);
    updates.push_back(UpdateFor(applied, seat));
  }
  // Should the views not rebuild, a snapshot is always right.
  if (with_view && !AttachPastViews(seat, missed, updates).ok()) return std::nullopt;
  return updates;
}

// Live streams get views computed as each entry applies; they are not kept (a view per entry and
// recipient would cost more memory than the entries). So they are computed again: the moves in
// force only grow by moves and redos and shrink by undos, so walking the missed entries back from
// the moves in force now gives those before the first of them. From there a new game of the deal
// plays the entries forward, and the seat's view is taken after each.
absl::Status TableSession::AttachPastViews(int seat, const std::vector<const AppliedEntry*>& missed,
                                           std::vector<v1::TableUpdate>& updates) const {
  std::vector<v1::ReplayMove> in_force = moves_;
  std::vector<std::vector<v1::ReplayMove>> redone(missed.size());
  for (size_t index = missed.size(); index-- > 0;) {
    const AppliedEntry& applied = *missed[index];
    if (applied.entry.has_move()) {
      if (in_force.empty()) return absl::InternalError("a kept move is not in force");
      in_force.pop_back();
    } else if (IsPractice(applied, v1::PracticeChange::UNDONE)) {
      in_force.insert(in_force.end(), applied.taken_back.begin(), applied.taken_back.end());
    } else if (IsPractice(applied, v1::PracticeChange::REDONE)) {
      const size_t count = static_cast<size_t>(applied.entry.practice().moves());
      if (count > in_force.size()) return absl::InternalError("a kept redo is not in force");
      redone[index].assign(in_force.end() - count, in_force.end());
      in_force.resize(in_force.size() - count);
    }
  }
  absl::StatusOr<std::unique_ptr<engine::Game>> game =
      engine::NewGame(created_.settings(), created_.deal());
  if (!game.ok()) return game.status();
  auto play = [&game, &in_force](const v1::ReplayMove& move) {
    in_force.push_back(move);
    return (*game)->Apply(move.seat(), move.move()).accepted;
  };
  std::vector<v1::ReplayMove> before = std::move(in_force);
  in_force.clear();
  for (const v1::ReplayMove& move : before) {
    if (!play(move)) return absl::InternalError("a move in force no longer applies");
  }
  for (size_t index = 0; index < missed.size(); ++index) {
    const AppliedEntry& applied = *missed[index];
    bool applies = true;
    if (applied.entry.has_move()) {
      v1::ReplayMove move;
      move.set_seat(applied.entry.move().seat());
      *move.mutable_move() = applied.entry.move().move();
      applies = play(move);
    } else if (IsPractice(applied, v1::PracticeChange::UNDONE)) {
      // As the session undoes: the game dealt again without the moves taken back.
      if (applied.taken_back.size() > in_force.size()) {
        return absl::InternalError("a kept undo takes back more than was in force");
      }
      in_force.resize(in_force.size() - applied.taken_back.size());
      before = std::move(in_force);
      in_force.clear();
      game = engine::NewGame(created_.settings(), created_.deal());
      if (!game.ok()) return game.status();
      for (const v1::ReplayMove& move : before) applies = applies && play(move);
    } else if (IsPractice(applied, v1::PracticeChange::REDONE)) {
      for (const v1::ReplayMove& move : redone[index]) applies = applies && play(move);
    }
    if (!applies) return absl::InternalError("a kept entry no longer applies");
    RecipientView view = RecipientViewOf(**game, seat);
    // After a closing the table takes no more moves, whatever its game would allow.
    if (applied.entry.has_closed()) view.legal_moves.Clear();
    AttachView(view, updates[index]);
  }
  if (in_force.size() != moves_.size()) {
    return absl::InternalError("the kept entries do not lead to the moves in force");
  }
  return absl::OkStatus();
}

}  // namespace kahve::table

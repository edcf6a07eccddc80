#ifndef KAHVE_SERVICES_TABLE_TABLE_UPDATES_H_
#define KAHVE_SERVICES_TABLE_TABLE_UPDATES_H_

// What a table sends each participant: log entries turned into TableUpdates, filtered so that no
// recipient ever receives another seat's private events.

#include <optional>
#include <vector>

#include "absl/time/time.h"
#include "engine/core/game.h"
#include "google/protobuf/timestamp.pb.h"
#include "kahve/v1/engine.pb.h"
#include "kahve/v1/fairness.pb.h"
#include "kahve/v1/table.pb.h"

namespace kahve::table {

// What one recipient (a seat, or engine::kSpectator) may see of the state, and the seat's legal
// moves (none for a spectator or a seat that may not act).
struct RecipientView {
  v1::View view;
  google::protobuf::RepeatedPtrField<v1::Move> legal_moves;
};

// `seat`'s (or engine::kSpectator's) view of `game` and its legal moves.
RecipientView RecipientViewOf(const engine::Game& game, int seat);

// A log entry the session has applied, with what applying it caused.
struct AppliedEntry {
  // The record to persist (and, once durable, to broadcast).
  v1::TableLogEntry entry;
  // Every event of a move, for every audience; empty for a seat change. Never send these
  // unfiltered: UpdateFor does the filtering.
  std::vector<v1::Event> events;
  // Set when the entry ended the game.
  std::optional<v1::Result> result;
  // Set with `result` at a table with a deal commitment: the seed material, public from then on.
  std::optional<v1::DealReveal> reveal;
  // After a move, an undo or a redo: the seats that may act next (public, sent to everyone).
  std::vector<int> to_act;
  // A practice change: the table's practice state afterwards, and after an undo or redo every
  // recipient's view (index: seat + 1, the spectator's first).
  std::optional<v1::PracticeState> practice;
  std::vector<v1::View> views;
  // An undo: the moves it took back (the player's decision and the bot moves after it), so that a
  // resume can tell the moves in force before it (TableSession::ResumeFor).
  std::vector<v1::ReplayMove> taken_back;
  // For streams opened with_view: the view right after this entry of each recipient such a stream
  // serves (index: seat + 1; empty for the others). Live only: never kept for resumes.
  std::vector<std::optional<RecipientView>> live_views;
  // A move by a seat whose turn clock ran: how long it had been able to act (kahve_turn_seconds).
  std::optional<absl::Duration> decision_time;
};

// The update `recipient` (a seat, or engine::kSpectator) receives for `applied`: a MoveApplied with
// only the events it may see (engine::IsVisibleTo), and the result and reveal of the move that ends
// the game; or the SeatChange as it is.
v1::TableUpdate UpdateFor(const AppliedEntry& applied, int recipient);
// Sets update.view and update.legal_moves (streams opened with_view).
void AttachView(const RecipientView& view, v1::TableUpdate& update);

google::protobuf::Timestamp ToTimestamp(absl::Time time);
absl::Time FromTimestamp(const google::protobuf::Timestamp& timestamp);

}  // namespace kahve::table

#endif  // KAHVE_SERVICES_TABLE_TABLE_UPDATES_H_

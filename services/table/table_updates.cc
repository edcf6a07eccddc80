#include "services/table/table_updates.h"

#include "engine/core/game.h"

namespace kahve::table {

v1::TableUpdate UpdateFor(const AppliedEntry& applied, int recipient) {
  const v1::TableLogEntry& entry = applied.entry;
  v1::TableUpdate update;
  update.set_seq(entry.seq());
  *update.mutable_at() = entry.at();
  if (entry.has_seat_change()) {
    *update.mutable_seat_change() = entry.seat_change();
  } else if (entry.has_closed()) {
    *update.mutable_closed() = entry.closed();
  } else if (entry.has_move()) {
    v1::MoveApplied* move = update.mutable_move();
    move->set_seat(entry.move().seat());
    move->set_by_bot(entry.move().by_bot());
    move->set_bot_reason(entry.move().bot_reason());
    for (const v1::Event& event : applied.events) {
      if (engine::IsVisibleTo(event, recipient)) *move->add_events() = event;
    }
    if (applied.result.has_value()) *move->mutable_result() = *applied.result;
    if (applied.reveal.has_value()) *move->mutable_reveal() = *applied.reveal;
    for (const int seat : applied.to_act) move->add_to_act(seat);
  } else if (entry.has_practice()) {
    v1::PracticeChange* change = update.mutable_practice();
    *change = entry.practice();
    if (applied.practice.has_value()) *change->mutable_state() = *applied.practice;
    const size_t index = static_cast<size_t>(recipient + 1);
    if (index < applied.views.size()) *change->mutable_view() = applied.views[index];
    if (!applied.views.empty()) {
      for (const int seat : applied.to_act) change->add_to_act(seat);
    }
  }
  return update;
}

RecipientView RecipientViewOf(const engine::Game& game, int seat) {
  RecipientView view{.view = game.View(seat), .legal_moves = {}};
  if (seat == engine::kSpectator) return view;
  for (v1::Move& move : game.LegalMoves(seat)) *view.legal_moves.Add() = std::move(move);
  return view;
}

void AttachView(const RecipientView& view, v1::TableUpdate& update) {
  *update.mutable_view() = view.view;
  *update.mutable_legal_moves() = view.legal_moves;
}

google::protobuf::Timestamp ToTimestamp(absl::Time time) {
  const int64_t seconds = absl::ToUnixSeconds(time);
  google::protobuf::Timestamp timestamp;
  timestamp.set_seconds(seconds);
  timestamp.set_nanos(
      static_cast<int32_t>((time - absl::FromUnixSeconds(seconds)) / absl::Nanoseconds(1)));
  return timestamp;
}

absl::Time FromTimestamp(const google::protobuf::Timestamp& timestamp) {
  return absl::FromUnixSeconds(timestamp.seconds()) + absl::Nanoseconds(timestamp.nanos());
}

}  // namespace kahve::table

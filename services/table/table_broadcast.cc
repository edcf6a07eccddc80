#include "services/table/table_broadcast.h"

#include <algorithm>
#include <utility>

namespace kahve::table {

void StartStream(LiveTable& table, UpdateStream* stream) {
  // Membership first, comparing the pointer only: a stream that was disconnected (and freed)
  // before the table became durable is gone from the list, and must not be read.
  if (std::find(table.streams.begin(), table.streams.end(), stream) == table.streams.end()) return;
  if (stream->started) return;
  stream->started = true;
  stream->sent_through = table.session->seq();
  if (stream->after_seq.has_value()) {
    auto missed = table.session->ResumeFor(stream->seat(), *stream->after_seq, stream->with_view);
    if (missed.ok() && missed->has_value()) {
      for (v1::TableUpdate& update : **missed) stream->SendInitial(std::move(update));
      // A finished game's stream ends after its result (the last missed update).
      if (table.session->over()) stream->End(grpc::Status::OK);
      return;
    }
  }
  stream->SendInitial(table.session->SnapshotFor(stream->seat()));
  if (table.session->over()) stream->End(grpc::Status::OK);
}

void Broadcast(LiveTable& table, const AppliedEntry& applied) {
  for (UpdateStream* stream : table.streams) {
    if (!stream->started || stream->sent_through >= applied.entry.seq()) continue;
    v1::TableUpdate update = UpdateFor(applied, stream->seat());
    const size_t recipient = static_cast<size_t>(stream->seat() + 1);
    if (stream->with_view && recipient < applied.live_views.size() &&
        applied.live_views[recipient].has_value()) {
      AttachView(*applied.live_views[recipient], update);
    }
    stream->Send(std::move(update));
    stream->sent_through = applied.entry.seq();
    // No update follows the result (or the closing): the stream is over, as Connect promises.
    if (applied.result.has_value() || applied.entry.has_closed()) stream->End(grpc::Status::OK);
  }
}

}  // namespace kahve::table

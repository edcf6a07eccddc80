#ifndef KAHVE_SERVICES_TABLE_TABLE_BROADCAST_H_
#define KAHVE_SERVICES_TABLE_TABLE_BROADCAST_H_

// What a table's streams are sent (docs/table.md, "A table's life"): each stream's first messages
// once the table is durable, then every durable entry as its recipient may see it, in seq order.
// Both run with the table's lock held, the lock every stream's Send and Disconnect take.

#include "absl/base/thread_annotations.h"
#include "services/table/live_table.h"
#include "services/table/table_updates.h"
#include "services/table/update_stream.h"

namespace kahve::table {

// The first message(s) of `stream`, a stream of `table` not started yet, once the table is
// durable: the updates missed after its after_seq when they are still kept, else a snapshot. A
// stream no longer among the table's (it ended before the table became durable) is left alone.
void StartStream(LiveTable& table, UpdateStream* stream) ABSL_EXCLUSIVE_LOCKS_REQUIRED(table.mu);

// Sends the durable entry `applied` to every started stream of `table` that has not had it, as
// its seat may see it (with the view, for streams that asked); a stream ends after the game's
// last update.
void Broadcast(LiveTable& table, const AppliedEntry& applied)
    ABSL_EXCLUSIVE_LOCKS_REQUIRED(table.mu);

}  // namespace kahve::table

#endif  // KAHVE_SERVICES_TABLE_TABLE_BROADCAST_H_

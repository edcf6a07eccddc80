#ifndef KAHVE_SERVICES_TABLE_LIVE_TABLE_H_
#define KAHVE_SERVICES_TABLE_LIVE_TABLE_H_

// One table as its host keeps it (TableHost's, and only its files touch one).

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"
#include "services/table/table_session.h"
#include "services/table/update_stream.h"

namespace kahve::table {

struct LiveTable {
  absl::Mutex mu;
  std::unique_ptr<TableSession> session ABSL_GUARDED_BY(mu);
  std::string table_id;
  std::string ruleset;
  // Identifies the creation request, for answering CreateTable retries.
  std::string create_fingerprint;
  absl::Time created_at;
  // The owner epoch this host holds the table at; every append carries it (the log's fence).
  int64_t owner_epoch = 1;
  // A practice table's player and seat (empty and -1 otherwise).
  std::string practice_player;
  int practice_seat = -1;
  // Every entry up to this seq is committed; the session may be ahead by what is in flight.
  uint64_t durable_seq ABSL_GUARDED_BY(mu) = 0;
  std::vector<UpdateStream*> streams ABSL_GUARDED_BY(mu);
  // Run once durable_seq catches up with the session (views and snapshots wait for that).
  std::vector<std::function<void(absl::Status)>> waiters ABSL_GUARDED_BY(mu);
  absl::Time scheduled_at ABSL_GUARDED_BY(mu) = absl::InfiniteFuture();
  absl::Time finished_at ABSL_GUARDED_BY(mu) = absl::InfiniteFuture();
  // Counted in TableHost::finished_in_memory_ (over, and not yet forgotten).
  bool counted_finished ABSL_GUARDED_BY(mu) = false;
  // A write to the log was refused: the table takes nothing more until reloaded.
  bool broken ABSL_GUARDED_BY(mu) = false;
  // What this table adds to kahve_players_at_tables now (CountPlayers keeps it current).
  int players_counted ABSL_GUARDED_BY(mu) = 0;
};

}  // namespace kahve::table

#endif  // KAHVE_SERVICES_TABLE_LIVE_TABLE_H_

#ifndef KAHVE_SERVICES_TABLE_LIVE_TABLE_H_
#define KAHVE_SERVICES_TABLE_LIVE_TABLE_H_

// One table as its host keeps it (TableHost's, and only its files touch one).

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <utility>
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
  // Answers to callers, deferred under the lock (AfterUnlock) and run once it is released
  // (TableLock): no caller's callback ever runs under a table's lock.
  std::vector<std::function<void()>> after_unlock ABSL_GUARDED_BY(mu);
};

// Holds a table's lock for a scope; on release, runs what was deferred under it, in order,
// outside the lock. Every lock of a table is taken this way.
class ABSL_SCOPED_LOCKABLE TableLock {
 public:
  explicit TableLock(LiveTable& table) ABSL_EXCLUSIVE_LOCK_FUNCTION(table.mu) : table_(table) {
    table_.mu.Lock();
  }
  // The analysis cannot tie table_.mu to the constructor's table.mu; it is the same lock.
  ~TableLock() ABSL_UNLOCK_FUNCTION() ABSL_NO_THREAD_SAFETY_ANALYSIS {
    std::vector<std::function<void()>> deferred;
    deferred.swap(table_.after_unlock);
    table_.mu.Unlock();
    for (std::function<void()>& call : deferred) call();
  }
  TableLock(const TableLock&) = delete;
  TableLock& operator=(const TableLock&) = delete;

 private:
  LiveTable& table_;
};

// Runs `call` once the table's lock, held now, is released.
inline void AfterUnlock(LiveTable& table, std::function<void()> call)
    ABSL_EXCLUSIVE_LOCKS_REQUIRED(table.mu) {
  table.mu.AssertHeld();
  table.after_unlock.push_back(std::move(call));
}

// `done`, made safe to call under the table's lock: it runs once the lock is released. Every
// answer of a call about a table goes through one.
template <typename... Args>
std::function<void(Args...)> AnswerAfterUnlock(std::shared_ptr<LiveTable> table,
                                               std::function<void(Args...)> done) {
  // Called under the table's lock, which the analysis cannot see through std::function;
  // AfterUnlock checks it at run time.
  return [table = std::move(table), done = std::move(done)](Args... args)
             ABSL_NO_THREAD_SAFETY_ANALYSIS {
    AfterUnlock(*table, [done, ... args = std::move(args)]() mutable { done(std::move(args)...); });
  };
}

}  // namespace kahve::table

#endif  // KAHVE_SERVICES_TABLE_LIVE_TABLE_H_

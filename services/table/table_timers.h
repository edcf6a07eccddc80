#ifndef KAHVE_SERVICES_TABLE_TABLE_TIMERS_H_
#define KAHVE_SERVICES_TABLE_TABLE_TIMERS_H_

// The host's timers: one thread that wakes a table when its next deadline comes (a turn limit,
// an away grace, a bot's delay, a practice expiry, the end of a finished table's linger). Each
// table says when it next needs waking; a wakeup that a later Schedule made stale is the table's
// to skip (it knows when it is due).

#include <functional>
#include <queue>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"
#include "services/common/clock.h"

namespace kahve::table {

class TableTimers {
 public:
  // Runs `due` for a table id once its time has come, on the timers' thread, never under their
  // lock. `clock` (not owned) is what they read and wait on.
  using Due = std::function<void(const std::string& table_id, absl::Time now)>;
  TableTimers(common::Clock* clock, Due due);
  // Stop(), and waits for the thread.
  ~TableTimers();
  TableTimers(const TableTimers&) = delete;
  TableTimers& operator=(const TableTimers&) = delete;

  // Wakes `table_id` at `when` (or as soon as possible when it is past).
  void Schedule(absl::Time when, const std::string& table_id);
  // No wakeup runs after the one running now, if any.
  void Stop();

 private:
  void Loop();

  common::Clock* const clock_;
  const Due due_;
  absl::Mutex mu_;
  // (when, table id), earliest first.
  std::priority_queue<std::pair<absl::Time, std::string>,
                      std::vector<std::pair<absl::Time, std::string>>, std::greater<>>
      wakeups_ ABSL_GUARDED_BY(mu_);
  bool stopping_ ABSL_GUARDED_BY(mu_) = false;
  // Bumped when a wakeup earlier than all others is queued, so the thread re-plans its sleep.
  uint64_t generation_ ABSL_GUARDED_BY(mu_) = 0;
  std::thread thread_;
};

}  // namespace kahve::table

#endif  // KAHVE_SERVICES_TABLE_TABLE_TIMERS_H_

#ifndef KAHVE_SERVICES_TABLE_LOG_RETENTION_H_
#define KAHVE_SERVICES_TABLE_LOG_RETENTION_H_

// Retention of finished tables' logs (docs/operations.md, "Retention"): a finished practice
// table's log, and its table row, go `practice` after its end; a rated table's after `rated`
// (infinite by default: match history may ask for its replay at any time). Unfinished tables are
// never touched. Any host may prune; one at a time (an advisory lock), in batches, so a backlog
// never holds long locks. Each pass also sets kahve_table_log_rows{kind}, the log rows kept.

#include <cstdint>
#include <memory>
#include <thread>

#include "absl/status/statusor.h"
#include "absl/synchronization/notification.h"
#include "absl/time/time.h"
#include "prometheus/registry.h"
#include "services/common/clock.h"
#include "services/common/pg_pool.h"
#include "services/table/table_metrics.h"

namespace kahve::table {

struct LogRetentionSettings {
  absl::Duration practice = absl::Hours(24);
  absl::Duration rated = absl::InfiniteDuration();
  // How often a pass runs, and the tables one transaction removes.
  absl::Duration interval = absl::Minutes(5);
  int batch = 500;
  common::Clock* clock = common::RealClock();
};

// What one pass removed.
struct PrunedLogs {
  int64_t tables = 0;
  int64_t rows = 0;
};

class LogRetention {
 public:
  // `pool` outlives this.
  LogRetention(LogRetentionSettings settings, common::PgPool& pool, prometheus::Registry& registry);
  // Stops the background passes, if started.
  ~LogRetention();

  // One pass now: prunes what is past its retention (unless another host's pass holds the lock),
  // then counts the rows kept.
  absl::StatusOr<PrunedLogs> PruneOnce();
  // Runs PruneOnce every interval on a thread of its own until destroyed.
  void Start();

 private:
  // Prunes the finished tables of one kind that ended before `cutoff`; false when another host
  // is pruning.
  absl::StatusOr<bool> PruneKind(bool practice, absl::Time cutoff, PrunedLogs& pruned);
  absl::Status CountKept();

  const LogRetentionSettings settings_;
  common::PgPool& pool_;
  LogRetentionMetrics metrics_;
  absl::Notification stop_;
  std::thread thread_;
};

}  // namespace kahve::table

#endif  // KAHVE_SERVICES_TABLE_LOG_RETENTION_H_

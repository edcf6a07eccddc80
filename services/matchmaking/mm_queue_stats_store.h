#ifndef KAHVE_SERVICES_MATCHMAKING_MM_QUEUE_STATS_STORE_H_
#define KAHVE_SERVICES_MATCHMAKING_MM_QUEUE_STATS_STORE_H_

// What the queues look like to players and operators: sizes, waits and the pace of matches. Reads
// only, each one statement.

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "kahve/v1/matchmaking.pb.h"
#include "services/common/pg_pool.h"
#include "services/matchmaking/mm_records.h"

namespace kahve::matchmaking {

class QueueStatsStore {
 public:
  explicit QueueStatsStore(common::PgPool* pool) : pool_(pool) {}

  static NamedStatements PreparedStatements();

  absl::StatusOr<QueueSizes> Sizes(const std::string& queue_key);
  // Stats of every queue with active tickets or matches since `since` (ruleset: "" for all).
  absl::StatusOr<std::vector<v1::QueueStats>> Stats(const std::string& ruleset, absl::Time since,
                                                    absl::Time now);
  // Median wait of the last 1,000 tickets matched since `since`, in seconds (0 when none):
  // bounded work however busy the queue.
  absl::StatusOr<int> ExpectedWaitSeconds(const std::string& queue_key, absl::Time since);

 private:
  common::PgPool* pool_;
};

}  // namespace kahve::matchmaking

#endif  // KAHVE_SERVICES_MATCHMAKING_MM_QUEUE_STATS_STORE_H_

#ifndef KAHVE_SERVICES_TABLE_PRACTICE_BUDGET_H_
#define KAHVE_SERVICES_TABLE_PRACTICE_BUDGET_H_

// The budgets of practice tables on one host (docs/operations.md): how many unfinished practice
// tables one player may hold, and the host in all. A table counts from before its creation until
// it finishes or leaves the host, by its match id, so a retry counts once.

#include <cstdint>
#include <functional>
#include <string>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/status/status.h"
#include "absl/synchronization/mutex.h"
#include "prometheus/counter.h"
#include "prometheus/gauge.h"
#include "services/common/budget.h"

namespace kahve::table {

class PracticeBudget {
 public:
  // Limits <= 0 are unlimited. The refusals and the host's count go to `budgets`.
  PracticeBudget(int max_per_player, int max_per_host, common::BudgetMetrics& budgets);

  // Counts `match_id` among `player`'s tables, or refuses (RESOURCE_EXHAUSTED naming the budget)
  // when the player's or the host's budget is full, unless `force` (a table reloaded from the log
  // counts whatever the budgets say). A match id counted already (a retry) is OK. When the host's
  // budget is full, `make_room` may close a table (returning whether it did) and the reservation
  // is tried once more.
  absl::Status Reserve(const std::string& player, const std::string& match_id, bool force,
                       const std::function<bool()>& make_room);
  // The table no longer counts (finished, or gone from the host). Repeats do nothing.
  void Release(const std::string& player, const std::string& match_id);

 private:
  // One try of Reserve; *host_full tells a refusal because the host's budget is full.
  absl::Status TryReserve(const std::string& player, const std::string& match_id, bool force,
                          bool* host_full);

  const int max_per_player_;
  const int max_per_host_;
  absl::Mutex mu_;
  // Unfinished practice tables by player (their match ids), and their number.
  absl::flat_hash_map<std::string, absl::flat_hash_set<std::string>> tables_ ABSL_GUARDED_BY(mu_);
  int64_t total_ ABSL_GUARDED_BY(mu_) = 0;
  prometheus::Counter* player_refusals_;
  prometheus::Counter* host_refusals_;
  prometheus::Gauge* in_use_;
};

}  // namespace kahve::table

#endif  // KAHVE_SERVICES_TABLE_PRACTICE_BUDGET_H_

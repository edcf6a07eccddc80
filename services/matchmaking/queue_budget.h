#ifndef KAHVE_SERVICES_MATCHMAKING_QUEUE_BUDGET_H_
#define KAHVE_SERVICES_MATCHMAKING_QUEUE_BUDGET_H_

// The budgets of what waits in matchmaking (docs/operations.md): distinct active queues (with
// waiting or placing tickets) and active tickets, over all replicas. Every active queue costs each
// pass a few queries and is a value of the `queue` metric label, so their number must not be the
// clients' to choose. An Enqueue beyond a budget is refused with RESOURCE_EXHAUSTED naming it;
// tickets for queues already active are accepted as long as the ticket budget allows.
//
// Fair shares: the standard queues (queue_catalog.h) neither count against max_active_queues nor
// are refused by it, so accounts opening rare queues cannot lock the common ones out; by default
// the budget is above the number of queues there are (EveryQueue), so it refuses none. A player
// holds at most one active ticket (mm_ticket_players_one_active), so filling max_active_tickets
// takes that many accounts.
//
// Approximate by design: the counts are the database's as each matchmaker pass reads them, plus
// what this replica admitted since that read began. Replicas admitting at once may together
// overshoot by what they admit within one pass interval; cancels and expiries free room at the
// next pass.

#include <cstdint>
#include <deque>
#include <map>
#include <string>
#include <utility>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_set.h"
#include "absl/status/status.h"
#include "absl/synchronization/mutex.h"
#include "services/common/budget.h"

namespace kahve::matchmaking {

struct QueueBudgetSettings {
  // --max_active_queues, the standard queues aside; 0 or less: unlimited. The default is above
  // the 300 queues clients can open (docs/matchmaking.md, Queues), with room for keys of settings
  // an upgrade stopped offering, whose tickets linger until they expire.
  int64_t max_active_queues = 400;
  // --max_active_tickets; 0 or less: unlimited.
  int64_t max_active_tickets = 50000;
};

class QueueBudget {
 public:
  // `standard_queues`: keys admitted whatever max_active_queues says, and not counted against it.
  // `metrics` (may be null) gets kahve_budget_refusals_total and kahve_budget_in_use for
  // budget="max_active_queues" and "max_active_tickets".
  QueueBudget(QueueBudgetSettings settings, absl::flat_hash_set<std::string> standard_queues,
              common::BudgetMetrics* metrics);

  // Taken just before the active queues are read, for Refresh.
  int64_t Mark();
  // The active queues (key -> active tickets) as read after `mark`. Admissions since the mark are
  // kept on top: the read may or may not have seen them, and counting one twice until the next
  // pass errs on the safe side.
  void Refresh(const std::map<std::string, int64_t>& active, int64_t mark);
  // Counts one more ticket for `queue_key`, or refuses: max_active_tickets when that many are
  // active, max_active_queues when the queue is neither standard nor active and that many
  // others are.
  absl::Status Admit(const std::string& queue_key);

 private:
  void Publish() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);

  const QueueBudgetSettings settings_;
  const absl::flat_hash_set<std::string> standard_queues_;
  prometheus::Counter* queues_refused_ = nullptr;
  prometheus::Counter* tickets_refused_ = nullptr;
  prometheus::Gauge* queues_in_use_ = nullptr;
  prometheus::Gauge* tickets_in_use_ = nullptr;
  absl::Mutex mu_;
  // The active queues that count against max_active_queues: all but the standard ones.
  absl::flat_hash_set<std::string> queues_ ABSL_GUARDED_BY(mu_);
  int64_t tickets_ ABSL_GUARDED_BY(mu_) = 0;
  // Admissions since the last Refresh's mark: (sequence number, queue key).
  std::deque<std::pair<int64_t, std::string>> admitted_ ABSL_GUARDED_BY(mu_);
  int64_t next_admission_ ABSL_GUARDED_BY(mu_) = 0;
};

}  // namespace kahve::matchmaking

#endif  // KAHVE_SERVICES_MATCHMAKING_QUEUE_BUDGET_H_

#ifndef KAHVE_SERVICES_COMMON_BUDGET_H_
#define KAHVE_SERVICES_COMMON_BUDGET_H_

// Budgets: limits on what clients can make a server hold (streams, tables, tickets, queues), so
// that one client reaching a limit is refused while everybody else goes on unaffected. A refusal
// is RESOURCE_EXHAUSTED naming the budget's flag and limit, and counts in
// kahve_budget_refusals_total{budget}; what is held counts in kahve_budget_in_use{budget}
// (docs/operations.md lists every budget).

#include <cstdint>
#include <string>
#include <string_view>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/synchronization/mutex.h"
#include "prometheus/counter.h"
#include "prometheus/family.h"
#include "prometheus/gauge.h"
#include "prometheus/registry.h"
#include "services/common/client_address.h"

namespace kahve::common {

// The budget metric families of one process's registry (registered once, shared by its budgets).
struct BudgetMetrics {
  explicit BudgetMetrics(prometheus::Registry& registry);
  prometheus::Family<prometheus::Counter>& refusals;  // kahve_budget_refusals_total{budget}
  prometheus::Family<prometheus::Gauge>& in_use;      // kahve_budget_in_use{budget}
};

// The refusal of `budget` (its flag's name) at `limit`, with what the caller can do.
absl::Status BudgetExhausted(std::string_view budget, int64_t limit, std::string_view advice);

// Counts held per key (an identity, a connection) against one limit per key. Thread-safe.
class KeyedBudget {
 public:
  // `name` is the budget's flag, e.g. "max_streams_per_identity"; `limit` <= 0 means unlimited.
  KeyedBudget(std::string name, int64_t limit, BudgetMetrics* metrics);
  // Takes one unit for `key`, or refuses (counting the refusal) when `key` holds `limit`.
  absl::Status Acquire(const std::string& key, std::string_view advice);
  // Gives back one unit Acquire took for `key`.
  void Release(const std::string& key);
  int64_t Held(const std::string& key) const;
  const std::string& name() const { return name_; }
  int64_t limit() const { return limit_; }

 private:
  const std::string name_;
  const int64_t limit_;
  prometheus::Counter* refused_ = nullptr;
  prometheus::Gauge* in_use_ = nullptr;
  mutable absl::Mutex mu_;
  absl::flat_hash_map<std::string, int64_t> held_ ABSL_GUARDED_BY(mu_);
};

// The stream budgets of a service: at most so many open streams per identity and per client
// connection (its peer address; behind a trusted proxy, the client's forwarded address),
// whichever is reached first.
struct StreamBudgetSettings {
  int64_t per_identity = 32;
  int64_t per_connection = 128;
  TrustedProxies trusted_proxies;
};

// --max_streams_per_identity, --max_streams_per_connection and --trusted_proxies
// (services/common/budget_flags.cc:
// defined once, for every service with streams, since `kahve serve --all` links them all into one
// binary).
StreamBudgetSettings StreamBudgetSettingsFromFlags();

class StreamBudget {
 public:
  StreamBudget(StreamBudgetSettings settings, BudgetMetrics* metrics);
  // The connection key of a call by `identity` (client_address.h): what Acquire's `peer` is.
  std::string ConnectionKey(const grpc::ServerContextBase& context,
                            absl::string_view identity) const;
  // Takes a stream for (identity, peer) or refuses naming the budget reached.
  absl::Status Acquire(const std::string& identity, const std::string& peer);
  void Release(const std::string& identity, const std::string& peer);

 private:
  const TrustedProxies trusted_proxies_;
  KeyedBudget per_identity_;
  KeyedBudget per_connection_;
};

// The key a stream of `identity` counts against: `budget`'s ConnectionKey, or without a budget
// (services built without stream limits, tests) the peer address.
std::string StreamConnectionKey(const StreamBudget* budget, const grpc::ServerContextBase& context,
                                absl::string_view identity);

}  // namespace kahve::common

#endif  // KAHVE_SERVICES_COMMON_BUDGET_H_

// The stream budgets' flags, shared by every service with streams (matchmaking's WatchTicket,
// the table's Connect): a flag is defined once per binary, and `kahve serve --all` links every
// service into one.

#include "absl/flags/flag.h"
#include "services/common/budget.h"

ABSL_FLAG(int64_t, max_streams_per_identity, 32,
          "Open server streams one identity (JWT subject) may hold on a process; more are "
          "refused with RESOURCE_EXHAUSTED. 0: unlimited.");
ABSL_FLAG(int64_t, max_streams_per_connection, 128,
          "Open server streams one client connection (peer address; behind a --trusted_proxies "
          "proxy, one forwarded client address) may hold; more are refused with "
          "RESOURCE_EXHAUSTED. 0: unlimited.");

namespace kahve::common {

StreamBudgetSettings StreamBudgetSettingsFromFlags() {
  return {.per_identity = absl::GetFlag(FLAGS_max_streams_per_identity),
          .per_connection = absl::GetFlag(FLAGS_max_streams_per_connection),
          .trusted_proxies = TrustedProxiesFromFlags()};
}

}  // namespace kahve::common

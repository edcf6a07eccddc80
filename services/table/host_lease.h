#ifndef KAHVE_SERVICES_TABLE_HOST_LEASE_H_
#define KAHVE_SERVICES_TABLE_HOST_LEASE_H_

// This host's lease on its tables (docs/table.md, "Ownership"): a thread that beats in the host
// registry, which renews the hold on every table this host serves (and tells matchmaking it is
// live, how loaded, whether draining), then claims the tables other hosts let go of. A beat that
// ends later than the lease after the last good one began may have let others claim some of this
// host's tables: the host lets go of those first. The last beat says draining.

#include <string>
#include <thread>

#include "absl/synchronization/notification.h"
#include "absl/time/time.h"
#include "services/common/clock.h"
#include "services/table/event_log.h"
#include "services/table/table_host.h"

namespace kahve::table {

struct HostLeaseSettings {
  std::string host_id;
  // A host holds its tables while its last beat is younger than this
  // (TableHostSettings::host_lease).
  absl::Duration lease = absl::Seconds(5);
  absl::Duration interval = absl::Seconds(1);
  // What the beats wait on between them. Not owned.
  common::Clock* clock = common::RealClock();
};

class HostLease {
 public:
  // `log` and `host` are not owned and outlive the lease.
  HostLease(HostLeaseSettings settings, EventLog* log, TableHost* host);
  // Stop().
  ~HostLease();
  HostLease(const HostLease&) = delete;
  HostLease& operator=(const HostLease&) = delete;

  // Starts beating, advertising `endpoint` (where the other hosts forward this host's tables).
  void Start(std::string endpoint);
  // Beats once more saying draining, then stops. Idempotent.
  void Stop();

 private:
  void Beat();

  const HostLeaseSettings settings_;
  EventLog* const log_;
  TableHost* const host_;
  std::string endpoint_;
  absl::Notification stop_;
  std::thread thread_;
};

}  // namespace kahve::table

#endif  // KAHVE_SERVICES_TABLE_HOST_LEASE_H_

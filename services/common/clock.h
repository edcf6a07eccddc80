#ifndef KAHVE_SERVICES_COMMON_CLOCK_H_
#define KAHVE_SERVICES_COMMON_CLOCK_H_

// The time services read and wait on. Components that keep timers, leases, expiries or retry
// loops take a `Clock*` (RealClock() by default) instead of calling absl::Now(), absl::SleepFor or
// the Notification/Mutex timed waits directly, so tests can drive them with a simulated clock
// (tests/support/simulated_clock.h, after Envoy's SimulatedTimeSystem) rather than sleep.
//
// What stays on real time: gRPC deadlines (ClientContext::set_deadline and the server's own), and
// histograms of elapsed work (commit seconds, pass duration), which measure the machine, not the
// game.

#include "absl/base/thread_annotations.h"
#include "absl/synchronization/mutex.h"
#include "absl/synchronization/notification.h"
#include "absl/time/time.h"

namespace kahve::common {

class Clock {
 public:
  virtual ~Clock() = default;

  virtual absl::Time Now() = 0;

  // With `mu` held: blocks until `cond` holds or Now() reaches `deadline`, as
  // absl::Mutex::AwaitWithDeadline does (mu is released while blocked and held again on return).
  // Returns whether `cond` holds. `cond` must depend only on state guarded by `mu`.
  virtual bool AwaitWithDeadline(absl::Mutex* mu, const absl::Condition& cond,
                                 absl::Time deadline) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu) = 0;

  // Blocks until `notification` is notified or Now() reaches `deadline`; returns whether it was
  // notified.
  virtual bool WaitForNotificationUntil(absl::Notification& notification,
                                        absl::Time deadline) = 0;

  bool AwaitWithTimeout(absl::Mutex* mu, const absl::Condition& cond, absl::Duration timeout)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu) {
    return AwaitWithDeadline(mu, cond, Now() + timeout);
  }
  bool WaitForNotificationWithTimeout(absl::Notification& notification, absl::Duration timeout) {
    return WaitForNotificationUntil(notification, Now() + timeout);
  }
  // Blocks until Now() reaches `deadline` (a retry's backoff).
  void SleepUntil(absl::Time deadline);
  void SleepFor(absl::Duration duration) { SleepUntil(Now() + duration); }
};

// The process-wide real clock (absl::Now and absl's timed waits). Never null, never destroyed.
Clock* RealClock();

}  // namespace kahve::common

#endif  // KAHVE_SERVICES_COMMON_CLOCK_H_

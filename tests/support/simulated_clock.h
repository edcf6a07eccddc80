#ifndef KAHVE_TESTS_SUPPORT_SIMULATED_CLOCK_H_
#define KAHVE_TESTS_SUPPORT_SIMULATED_CLOCK_H_

// A common::Clock whose time moves only when a test says so, after Envoy's SimulatedTimeSystem:
// waiters block until Advance or SetTime carries Now() past their deadline (or their condition or
// notification fires), so timer, lease and expiry tests need no real sleeping. Thread-safe.

#include <list>

#include "absl/base/thread_annotations.h"
#include "absl/synchronization/mutex.h"
#include "absl/synchronization/notification.h"
#include "absl/time/time.h"
#include "services/common/clock.h"

namespace kahve::testing {

class SimulatedClock final : public common::Clock {
 public:
  // 2026-01-01T00:00:00Z: fixed, so tests see the same times on every run.
  static absl::Time DefaultStart() { return absl::FromUnixSeconds(1767225600); }

  explicit SimulatedClock(absl::Time start = DefaultStart());
  SimulatedClock(const SimulatedClock&) = delete;
  SimulatedClock& operator=(const SimulatedClock&) = delete;

  absl::Time Now() override;
  bool AwaitWithDeadline(absl::Mutex* mu, const absl::Condition& cond, absl::Time deadline)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu) override;
  // Wakes on a notification within a few real milliseconds (absl::Notification cannot tell us
  // when it fires, so this looks again every kNotificationPoll), and as soon as time passes the
  // deadline.
  bool WaitForNotificationUntil(absl::Notification& notification, absl::Time deadline) override;

  // Moves Now() forward by `duration` (>= 0) and wakes every waiter whose deadline it reaches;
  // returns once they have been woken.
  void Advance(absl::Duration duration);
  // Moves Now() to `time` (never backwards: an earlier time is ignored), waking as Advance does.
  void SetTime(absl::Time time);

  // How many threads are blocked on this clock now.
  int waiters();
  // Blocks (in real time, at most `real_timeout`) until at least `count` threads wait on this
  // clock, so a test can advance time once a background loop has gone to sleep. Returns whether
  // they did.
  bool AwaitWaiters(int count, absl::Duration real_timeout = absl::Seconds(30));

  static constexpr absl::Duration kNotificationPoll = absl::Milliseconds(2);

 private:
  struct Waiter {
    absl::Time deadline;
    absl::Mutex* mu;  // null: waits on a notification, polled
    bool fired = false;  // written under mu_ and the waiter's own mu (or under mu_ alone)
  };
  // Wakes the waiters whose deadline has passed. Called with mu_ held.
  void WakeDue() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);

  absl::Mutex mu_;
  absl::Time now_ ABSL_GUARDED_BY(mu_);
  std::list<Waiter*> waiters_ ABSL_GUARDED_BY(mu_);
};

}  // namespace kahve::testing

#endif  // KAHVE_TESTS_SUPPORT_SIMULATED_CLOCK_H_

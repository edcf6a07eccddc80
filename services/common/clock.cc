#include "services/common/clock.h"

namespace kahve::common {
namespace {

class AbslClock final : public Clock {
 public:
  absl::Time Now() override { return absl::Now(); }
  bool AwaitWithDeadline(absl::Mutex* mu, const absl::Condition& cond, absl::Time deadline)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu) override {
    return mu->AwaitWithDeadline(cond, deadline);
  }
  bool WaitForNotificationUntil(absl::Notification& notification, absl::Time deadline) override {
    return notification.WaitForNotificationWithDeadline(deadline);
  }
};

}  // namespace

void Clock::SleepUntil(absl::Time deadline) {
  // Nothing else wakes a sleeper: the condition never holds.
  static constexpr bool kNever = false;
  absl::Mutex mu;
  absl::MutexLock lock(&mu);
  AwaitWithDeadline(&mu, absl::Condition(&kNever), deadline);
}

Clock* RealClock() {
  static AbslClock* const clock = new AbslClock();
  return clock;
}

}  // namespace kahve::common

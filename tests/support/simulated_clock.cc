#include "tests/support/simulated_clock.h"

#include <algorithm>

namespace kahve::testing {

SimulatedClock::SimulatedClock(absl::Time start) : now_(start) {}

absl::Time SimulatedClock::Now() {
  absl::MutexLock lock(&mu_);
  return now_;
}

bool SimulatedClock::AwaitWithDeadline(absl::Mutex* mu, const absl::Condition& cond,
                                       absl::Time deadline) {
  // Lock order: the caller's mu, then mu_. WakeDue, which holds mu_, only ever TryLocks a
  // waiter's mu, so the two cannot deadlock.
  Waiter waiter{deadline, mu};
  {
    absl::MutexLock lock(&mu_);
    if (now_ >= deadline) return cond.Eval();
    waiters_.push_back(&waiter);
  }
  // waiter.fired is set with mu held, and releasing mu re-evaluates this (absl::Mutex semantics).
  auto woken = [&cond, &waiter]() { return waiter.fired || cond.Eval(); };
  mu->Await(absl::Condition(&woken));
  {
    absl::MutexLock lock(&mu_);
    waiters_.remove(&waiter);  // still listed when cond woke it first
  }
  return cond.Eval();
}

bool SimulatedClock::WaitForNotificationUntil(absl::Notification& notification,
                                              absl::Time deadline) {
  Waiter waiter{deadline, nullptr};
  absl::MutexLock lock(&mu_);
  if (now_ >= deadline) return notification.HasBeenNotified();
  waiters_.push_back(&waiter);
  while (!waiter.fired && !notification.HasBeenNotified()) {
    mu_.AwaitWithTimeout(absl::Condition(&waiter.fired), kNotificationPoll);
  }
  waiters_.remove(&waiter);
  return notification.HasBeenNotified();
}

void SimulatedClock::Advance(absl::Duration duration) {
  absl::MutexLock lock(&mu_);
  now_ += std::max(duration, absl::ZeroDuration());
  WakeDue();
}

void SimulatedClock::SetTime(absl::Time time) {
  absl::MutexLock lock(&mu_);
  now_ = std::max(now_, time);
  WakeDue();
}

int SimulatedClock::waiters() {
  absl::MutexLock lock(&mu_);
  return static_cast<int>(waiters_.size());
}

bool SimulatedClock::AwaitWaiters(int count, absl::Duration real_timeout) {
  absl::MutexLock lock(&mu_);
  auto enough = [this, count]() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
    return static_cast<int>(waiters_.size()) >= count;
  };
  return mu_.AwaitWithTimeout(absl::Condition(&enough), real_timeout);
}

void SimulatedClock::WakeDue() {
  while (true) {
    bool contended = false;
    for (auto it = waiters_.begin(); it != waiters_.end();) {
      Waiter* waiter = *it;
      if (waiter->deadline > now_) {
        ++it;
      } else if (waiter->mu == nullptr) {
        waiter->fired = true;  // its loop sees it when mu_ is released
        it = waiters_.erase(it);
      } else if (waiter->mu->TryLock()) {
        waiter->fired = true;
        it = waiters_.erase(it);
        waiter->mu->Unlock();  // re-evaluates the waiter's condition: it wakes
      } else {
        // Someone holds the waiter's mutex (perhaps the waiter itself, about to leave and
        // needing mu_): let go of mu_ for a moment and try again.
        contended = true;
        ++it;
      }
    }
    if (!contended) return;
    mu_.Unlock();
    absl::SleepFor(absl::Microseconds(50));
    mu_.Lock();
  }
}

}  // namespace kahve::testing

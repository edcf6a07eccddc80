#include "services/common/clock.h"

#include <atomic>
#include <thread>
#include <vector>

#include "gtest/gtest.h"
#include "tests/support/simulated_clock.h"

namespace kahve {
namespace {

using testing::SimulatedClock;

TEST(RealClockTest, ReadsAbslTimeAndReturnsAtOnceWhenDueOrSatisfied) {
  common::Clock* clock = common::RealClock();
  ASSERT_EQ(clock, common::RealClock());
  const absl::Time before = absl::Now();
  const absl::Time now = clock->Now();
  EXPECT_GE(now, before);
  EXPECT_LE(now, absl::Now());

  absl::Mutex mu;
  bool flag = true;
  absl::MutexLock lock(&mu);
  EXPECT_TRUE(clock->AwaitWithDeadline(&mu, absl::Condition(&flag), absl::InfiniteFuture()));
  flag = false;
  EXPECT_FALSE(clock->AwaitWithDeadline(&mu, absl::Condition(&flag), absl::InfinitePast()));
  absl::Notification notification;
  EXPECT_FALSE(clock->WaitForNotificationUntil(notification, absl::InfinitePast()));
  notification.Notify();
  EXPECT_TRUE(clock->WaitForNotificationWithTimeout(notification, absl::Hours(1)));
}

TEST(SimulatedClockTest, TimeMovesOnlyForwardAndOnlyWhenTold) {
  SimulatedClock clock;
  EXPECT_EQ(clock.Now(), SimulatedClock::DefaultStart());
  clock.Advance(absl::Seconds(90));
  EXPECT_EQ(clock.Now(), SimulatedClock::DefaultStart() + absl::Seconds(90));
  clock.SetTime(SimulatedClock::DefaultStart());  // backwards: ignored
  EXPECT_EQ(clock.Now(), SimulatedClock::DefaultStart() + absl::Seconds(90));
  clock.Advance(-absl::Seconds(5));
  EXPECT_EQ(clock.Now(), SimulatedClock::DefaultStart() + absl::Seconds(90));
  clock.SetTime(absl::FromUnixSeconds(2000000000));
  EXPECT_EQ(clock.Now(), absl::FromUnixSeconds(2000000000));
}

TEST(SimulatedClockTest, AwaitTimesOutOnlyOnceTimeReachesTheDeadline) {
  SimulatedClock clock;
  absl::Mutex mu;
  bool ready = false;
  std::atomic<int> result{-1};
  absl::Time woke_at;
  std::thread waiter([&] {
    absl::MutexLock lock(&mu);
    result = clock.AwaitWithTimeout(&mu, absl::Condition(&ready), absl::Seconds(10)) ? 1 : 0;
    woke_at = clock.Now();
  });
  ASSERT_TRUE(clock.AwaitWaiters(1));
  clock.Advance(absl::Seconds(9));
  // Advance wakes due waiters before it returns, so one still counted was not woken.
  EXPECT_EQ(clock.waiters(), 1);
  EXPECT_EQ(result, -1);
  clock.Advance(absl::Seconds(1));
  waiter.join();
  EXPECT_EQ(result, 0);
  EXPECT_EQ(woke_at, SimulatedClock::DefaultStart() + absl::Seconds(10));
  EXPECT_EQ(clock.waiters(), 0);
}

TEST(SimulatedClockTest, AwaitReturnsWhenItsConditionHoldsWithoutTimeMoving) {
  SimulatedClock clock;
  absl::Mutex mu;
  bool ready = false;
  std::atomic<int> result{-1};
  std::thread waiter([&] {
    absl::MutexLock lock(&mu);
    result = clock.AwaitWithTimeout(&mu, absl::Condition(&ready), absl::Hours(1)) ? 1 : 0;
  });
  ASSERT_TRUE(clock.AwaitWaiters(1));
  {
    absl::MutexLock lock(&mu);
    ready = true;
  }
  waiter.join();
  EXPECT_EQ(result, 1);
  EXPECT_EQ(clock.Now(), SimulatedClock::DefaultStart());
  EXPECT_EQ(clock.waiters(), 0);
}

TEST(SimulatedClockTest, AdvanceWakesExactlyTheWaitersItPassed) {
  SimulatedClock clock;
  std::atomic<int> woken{0};
  std::vector<std::thread> sleepers;
  for (int minutes = 1; minutes <= 4; ++minutes) {
    sleepers.emplace_back([&clock, &woken, minutes] {
      clock.SleepFor(absl::Minutes(minutes));
      ++woken;
    });
  }
  ASSERT_TRUE(clock.AwaitWaiters(4));
  clock.Advance(absl::Minutes(2));
  EXPECT_EQ(clock.waiters(), 2);
  clock.SetTime(SimulatedClock::DefaultStart() + absl::Minutes(4));
  for (std::thread& sleeper : sleepers) sleeper.join();
  EXPECT_EQ(woken, 4);
}

TEST(SimulatedClockTest, AdvanceWaitsOutWhoeverHoldsAWaitersMutex) {
  SimulatedClock clock;
  absl::Mutex mu;
  bool never = false;
  std::atomic<bool> returned{false};
  std::thread waiter([&] {
    absl::MutexLock lock(&mu);
    clock.AwaitWithTimeout(&mu, absl::Condition(&never), absl::Seconds(1));
    returned = true;
  });
  ASSERT_TRUE(clock.AwaitWaiters(1));
  absl::Notification advanced;
  mu.Lock();  // Advance cannot wake the waiter until this is released
  std::thread advancer([&] {
    clock.Advance(absl::Seconds(1));
    advanced.Notify();
  });
  EXPECT_FALSE(returned);
  mu.Unlock();
  advancer.join();
  waiter.join();
  EXPECT_TRUE(advanced.HasBeenNotified());
  EXPECT_TRUE(returned);
}

TEST(SimulatedClockTest, NotificationWaitEndsByNotifyOrByTime) {
  SimulatedClock clock;
  absl::Notification stop;
  std::atomic<int> notified{-1};
  std::thread by_notify([&] {
    notified = clock.WaitForNotificationWithTimeout(stop, absl::Hours(1)) ? 1 : 0;
  });
  ASSERT_TRUE(clock.AwaitWaiters(1));
  stop.Notify();
  by_notify.join();
  EXPECT_EQ(notified, 1);

  absl::Notification never;
  std::atomic<int> timed_out{-1};
  std::thread by_time([&] {
    timed_out = clock.WaitForNotificationWithTimeout(never, absl::Seconds(30)) ? 1 : 0;
  });
  ASSERT_TRUE(clock.AwaitWaiters(1));
  clock.Advance(absl::Seconds(29));
  EXPECT_EQ(clock.waiters(), 1);
  clock.Advance(absl::Seconds(1));
  by_time.join();
  EXPECT_EQ(timed_out, 0);
}

TEST(SimulatedClockTest, PastDeadlinesReturnAtOnce) {
  SimulatedClock clock;
  absl::Mutex mu;
  bool flag = true;
  absl::MutexLock lock(&mu);
  EXPECT_TRUE(clock.AwaitWithDeadline(&mu, absl::Condition(&flag), clock.Now()));
  flag = false;
  EXPECT_FALSE(clock.AwaitWithDeadline(&mu, absl::Condition(&flag), clock.Now()));
  clock.SleepUntil(clock.Now() - absl::Seconds(1));
  absl::Notification notification;
  EXPECT_FALSE(clock.WaitForNotificationUntil(notification, clock.Now()));
}

}  // namespace
}  // namespace kahve

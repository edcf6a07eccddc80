// The per-identity call rate (services/common/call_rate.h) on simulated time: a burst, then the
// sustained rate, refusals that say when to come back, identities apart, and buckets of quiet
// identities dropped so memory follows only the identities active lately.

#include "services/common/call_rate.h"

#include <string>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "kahve/v1/errors.pb.h"
#include "kahve/v1/table.pb.h"
#include "tests/support/simulated_clock.h"

namespace kahve::common {
namespace {

TEST(CallRateTest, ABurstThenTheSustainedRateAndARetryHintThatHolds) {
  testing::SimulatedClock clock;
  CallRateLimiter limiter({.calls_per_second = 10, .burst = 3}, nullptr, &clock);
  for (int i = 0; i < 3; ++i) EXPECT_TRUE(limiter.Take("mallory").ok()) << i;
  absl::Duration retry_after;
  const absl::Status refused = limiter.Take("mallory", &retry_after);
  EXPECT_EQ(refused.code(), absl::StatusCode::kResourceExhausted);
  EXPECT_NE(refused.message().find("max_calls_per_second"), std::string::npos) << refused;
  EXPECT_EQ(retry_after, absl::Milliseconds(100));
  // The hint also travels as a detail (WithDetail's payload, keyed by the type URL).
  EXPECT_TRUE(refused.GetPayload("type.googleapis.com/kahve.v1.RetryAfter").has_value());
  // Another identity has its own bucket.
  EXPECT_TRUE(limiter.Take("ana").ok());
  // Just short of the hint: still refused; at it: allowed, and then refused again.
  clock.Advance(absl::Milliseconds(99));
  EXPECT_FALSE(limiter.Take("mallory").ok());
  clock.Advance(absl::Milliseconds(100));
  EXPECT_TRUE(limiter.Take("mallory").ok());
  EXPECT_FALSE(limiter.Take("mallory").ok());
  // A quiet second refills no more than the burst.
  clock.Advance(absl::Seconds(10));
  for (int i = 0; i < 3; ++i) EXPECT_TRUE(limiter.Take("mallory").ok()) << i;
  EXPECT_FALSE(limiter.Take("mallory").ok());
}

TEST(CallRateTest, OffWhenTheRateIsZero) {
  testing::SimulatedClock clock;
  CallRateLimiter limiter({}, nullptr, &clock);
  EXPECT_FALSE(limiter.enabled());
  for (int i = 0; i < 1000; ++i) ASSERT_TRUE(limiter.Take("mallory").ok());
  EXPECT_EQ(limiter.tracked(), 0);
}

TEST(CallRateTest, QuietIdentitiesCostNoMemory) {
  testing::SimulatedClock clock;
  CallRateLimiter limiter({.calls_per_second = 10, .burst = 10}, nullptr, &clock);
  // 100,000 identities calling once each: an attacker with many accounts.
  for (int i = 0; i < 100000; ++i) ASSERT_TRUE(limiter.Take(absl::StrCat("a", i)).ok());
  // A second later every bucket is full again, so holding it or not is the same.
  clock.Advance(absl::Seconds(2));
  for (int i = 0; i < 100000; ++i) ASSERT_TRUE(limiter.Take(absl::StrCat("b", i)).ok());
  EXPECT_LT(limiter.tracked(), 110000) << "the first 100,000 were dropped";
}

}  // namespace
}  // namespace kahve::common

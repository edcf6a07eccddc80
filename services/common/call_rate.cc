#include "services/common/call_rate.h"

#include <algorithm>
#include <cmath>

#include "absl/flags/flag.h"
#include "absl/hash/hash.h"
#include "absl/strings/str_cat.h"
#include "google/protobuf/duration.pb.h"
#include "kahve/v1/errors.pb.h"
#include "services/common/status.h"

ABSL_FLAG(double, max_calls_per_second, 50,
          "Calls per second one player identity may make to one service, sustained; past it a "
          "call is refused with RESOURCE_EXHAUSTED and a RetryAfter detail; 0: no limit. Services "
          "and admins are not limited.");
ABSL_FLAG(int32_t, max_call_burst, 100,
          "Calls one player identity may make to one service at once after a quiet spell.");

namespace kahve::common {
namespace {

// A shard prunes once it holds this many buckets more than after its last prune, so pruning costs
// O(1) per call amortized.
constexpr size_t kPruneEvery = 1024;

}  // namespace

CallRateSettings CallRateSettingsFromFlags() {
  CallRateSettings settings;
  settings.calls_per_second = absl::GetFlag(FLAGS_max_calls_per_second);
  settings.burst = absl::GetFlag(FLAGS_max_call_burst);
  return settings;
}

CallRateLimiter::CallRateLimiter(CallRateSettings settings, prometheus::Registry* registry,
                                 Clock* clock)
    : settings_(settings), clock_(clock) {
  if (registry != nullptr) {
    refused_ = &prometheus::BuildCounter()
                    .Name("kahve_calls_rate_limited_total")
                    .Help("Calls refused because their identity passed --max_calls_per_second.")
                    .Register(*registry)
                    .Add({});
  }
}

absl::Status CallRateLimiter::Take(const std::string& identity, absl::Duration* retry_after) {
  if (!enabled()) return absl::OkStatus();
  const double rate = settings_.calls_per_second;
  const double burst = std::max(1, settings_.burst);
  Shard& shard = shards_[absl::HashOf(identity) % shards_.size()];
  const absl::Time now = clock_->Now();
  double missing = 0;
  {
    absl::MutexLock lock(&shard.mu);
    if (shard.buckets.size() >= shard.prune_at) {
      Prune(shard, now);
      shard.prune_at = shard.buckets.size() + kPruneEvery;
    }
    auto [found, added] = shard.buckets.try_emplace(identity, Bucket{burst, now});
    Bucket& bucket = found->second;
    bucket.tokens =
        std::min(burst, bucket.tokens + rate * absl::ToDoubleSeconds(std::max(
                                                   now - bucket.updated, absl::ZeroDuration())));
    bucket.updated = now;
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return absl::OkStatus();
    }
    missing = 1 - bucket.tokens;
  }
  if (refused_ != nullptr) refused_->Increment();
  // Whole milliseconds, rounded up: a client that waits this long is let through.
  const auto wait = absl::Milliseconds(std::ceil(missing / rate * 1000));
  if (retry_after != nullptr) *retry_after = wait;
  v1::RetryAfter detail;
  detail.mutable_delay()->set_seconds(absl::ToInt64Seconds(wait));
  detail.mutable_delay()->set_nanos(
      static_cast<int32_t>(absl::ToInt64Nanoseconds(wait % absl::Seconds(1))));
  detail.set_limit("max_calls_per_second");
  return WithDetail(
      absl::ResourceExhaustedError(absl::StrCat(
          "rate limit max_calls_per_second (", rate, ", burst ", settings_.burst,
          ") reached for this identity; retry in ", absl::ToInt64Milliseconds(wait), " ms")),
      detail);
}

void CallRateLimiter::Prune(Shard& shard, absl::Time now) {
  const double burst = std::max(1, settings_.burst);
  const absl::Duration refill = absl::Seconds(burst / settings_.calls_per_second);
  for (auto it = shard.buckets.begin(); it != shard.buckets.end();) {
    if (now - it->second.updated >= refill) {
      shard.buckets.erase(it++);
    } else {
      ++it;
    }
  }
}

int64_t CallRateLimiter::tracked() const {
  int64_t total = 0;
  for (const Shard& shard : shards_) {
    absl::MutexLock lock(&shard.mu);
    total += static_cast<int64_t>(shard.buckets.size());
  }
  return total;
}

}  // namespace kahve::common

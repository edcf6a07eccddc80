#ifndef KAHVE_SERVICES_COMMON_CALL_RATE_H_
#define KAHVE_SERVICES_COMMON_CALL_RATE_H_

// The rate limit of calls per identity: a token bucket per JWT subject, so one caller's flood
// (GetView on unknown ids, GetMyTicket in a loop) is refused early and cheaply while everybody
// else's calls go on. Services and admins are not limited (the platform's own calls).

#include <array>
#include <cstdint>
#include <string>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"
#include "prometheus/counter.h"
#include "prometheus/registry.h"
#include "services/common/clock.h"

namespace kahve::common {

struct CallRateSettings {
  // Sustained calls per second one identity may make to one service; <= 0: no limit.
  double calls_per_second = 0;
  // Calls it may make at once after a quiet spell.
  int burst = 0;
};

// --max_calls_per_second and --max_call_burst (per identity, per service).
CallRateSettings CallRateSettingsFromFlags();

class CallRateLimiter {
 public:
  // `registry` may be null (no metric); `clock` is not owned.
  CallRateLimiter(CallRateSettings settings, prometheus::Registry* registry,
                  Clock* clock = RealClock());

  // Takes one call for `identity`, or refuses: RESOURCE_EXHAUSTED naming the limit, carrying a
  // RetryAfter detail (when a call will be allowed again). `retry_after` gets that delay.
  absl::Status Take(const std::string& identity, absl::Duration* retry_after = nullptr);
  bool enabled() const { return settings_.calls_per_second > 0; }
  // Identities with a bucket now (tests: the buckets of idle identities are dropped).
  int64_t tracked() const;

 private:
  struct Bucket {
    double tokens;
    absl::Time updated;
  };
  struct Shard {
    mutable absl::Mutex mu;
    absl::flat_hash_map<std::string, Bucket> buckets ABSL_GUARDED_BY(mu);
    size_t prune_at ABSL_GUARDED_BY(mu) = 1024;
  };
  // Drops the buckets that have refilled (their identity was quiet long enough): then holding
  // one or not is the same, and memory stays bounded by the identities active lately.
  void Prune(Shard& shard, absl::Time now) ABSL_EXCLUSIVE_LOCKS_REQUIRED(shard.mu);

  const CallRateSettings settings_;
  Clock* const clock_;
  prometheus::Counter* refused_ = nullptr;
  std::array<Shard, 16> shards_;
};

}  // namespace kahve::common

#endif  // KAHVE_SERVICES_COMMON_CALL_RATE_H_

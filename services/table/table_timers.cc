#include "services/table/table_timers.h"

namespace kahve::table {

TableTimers::TableTimers(common::Clock* clock, Due due) : clock_(clock), due_(std::move(due)) {
  thread_ = std::thread([this] { Loop(); });
}

TableTimers::~TableTimers() {
  Stop();
  thread_.join();
}

void TableTimers::Stop() {
  absl::MutexLock lock(&mu_);
  stopping_ = true;
}

void TableTimers::Schedule(absl::Time when, const std::string& table_id) {
  absl::MutexLock lock(&mu_);
  if (wakeups_.empty() || when < wakeups_.top().first) ++generation_;
  wakeups_.emplace(when, table_id);
}

void TableTimers::Loop() {
  absl::MutexLock lock(&mu_);
  while (!stopping_) {
    const absl::Time now = clock_->Now();
    if (wakeups_.empty() || wakeups_.top().first > now) {
      const absl::Time until = wakeups_.empty() ? now + absl::Seconds(1) : wakeups_.top().first;
      const uint64_t seen = generation_;
      auto replan = [this, seen]() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
        return stopping_ || generation_ != seen;
      };
      clock_->AwaitWithDeadline(&mu_, absl::Condition(&replan), until);
      continue;
    }
    const std::string table_id = wakeups_.top().second;
    wakeups_.pop();
    mu_.Unlock();
    due_(table_id, now);
    mu_.Lock();
  }
}

}  // namespace kahve::table

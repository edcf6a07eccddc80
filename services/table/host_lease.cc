#include "services/table/host_lease.h"

#include <algorithm>
#include <utility>

#include "absl/random/distributions.h"
#include "absl/random/random.h"
#include "services/common/logging.h"

namespace kahve::table {

HostLease::HostLease(HostLeaseSettings settings, EventLog* log, TableHost* host)
    : settings_(std::move(settings)), log_(log), host_(host) {}

HostLease::~HostLease() { Stop(); }

void HostLease::Start(std::string endpoint) {
  endpoint_ = std::move(endpoint);
  thread_ = std::thread([this] { Beat(); });
}

void HostLease::Stop() {
  if (!thread_.joinable()) return;
  if (!stop_.HasBeenNotified()) stop_.Notify();
  thread_.join();
}

void HostLease::Beat() {
  absl::Time last_good = absl::Now();
  // No claims before this: after beats failed (the database was away), every other host may be
  // coming back too, and until each has beaten again its tables look lapsed.
  absl::Time claim_from = last_good;
  bool failing = false;
  absl::BitGen jitter;
  bool draining = false;
  do {
    draining = stop_.HasBeenNotified();
    const absl::Time started = absl::Now();
    const absl::Status beat =
        log_->Heartbeat(settings_.host_id, endpoint_, host_->live_tables(), draining);
    if (!beat.ok()) {
      common::LogWarning("heartbeat failed", {{"error", std::string(beat.message())}});
      failing = true;
      continue;
    }
    // Measured to the beat's end: the database stamped it at its commit, at most this late.
    // Real time, as the database's clock the lease is judged on.
    const bool lapsed = absl::Now() - last_good > settings_.lease;
    // Beats that failed, or one that hung past the lease (a database that stalled rather than
    // refused: a switchover, a full disk), mean every other host was cut off as long: a lease for
    // the others to beat again, and a random part of a beat so hosts that came back together do
    // not all look at the lapsed tables at the same moment.
    if (failing || lapsed) {
      const int64_t beat_ms = std::max<int64_t>(1, settings_.interval / absl::Milliseconds(1));
      claim_from = absl::Now() + settings_.lease +
                   absl::Milliseconds(absl::Uniform<int64_t>(jitter, 0, beat_ms));
      host_->HoldClaimsUntil(claim_from);
      failing = false;
    }
    if (lapsed) {
      if (absl::Status checked = host_->LetGoOfLost(); !checked.ok()) {
        common::LogWarning("checking held tables failed",
                           {{"error", std::string(checked.message())}});
        continue;  // last_good stays: checked again on the next good beat
      }
    }
    last_good = started;
    if (draining) break;
    if (absl::Now() < claim_from) continue;
    if (auto claimed = host_->ClaimLapsed(); !claimed.ok()) {
      common::LogWarning("claiming lapsed tables failed",
                         {{"error", std::string(claimed.status().message())}});
    }
  } while (!draining &&
           !settings_.clock->WaitForNotificationWithTimeout(stop_, settings_.interval));
}

}  // namespace kahve::table

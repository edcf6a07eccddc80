#ifndef KAHVE_SERVICES_TABLE_OUTBOX_H_
#define KAHVE_SERVICES_TABLE_OUTBOX_H_

// The durable outbox of finished matches (table_outbox): EventLog writes a match's result in the
// transaction that ends its table; Outbox hands pending results to the rating service's
// RecordMatch until one is acknowledged, backing off after each failure. Delivery is at least once
// (a send whose acknowledgement is not stored before a crash is sent again), which RecordMatch's
// idempotence by match id makes exactly-once in effect.
//
// No transaction or pooled connection is held while a result is sent: a row is first claimed (its
// next attempt moved `claim_for` ahead, committed), then sent, then marked; so a stalled rating
// service costs the table host no database connection, and a host that dies mid-send leaves the
// row due again once its claim lapses.

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <thread>

#include "absl/base/thread_annotations.h"
#include "absl/random/random.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"
#include "absl/synchronization/notification.h"
#include "absl/time/time.h"
#include "services/common/clock.h"
#include "services/common/pg_pool.h"

namespace prometheus {
class Gauge;
class Registry;
}  // namespace prometheus

namespace kahve::table {

struct OutboxSettings {
  // The wait after the first failed attempt; it doubles with each further failure, up to
  // max_backoff, then varies by +-jitter (a fraction) so hosts do not retry in lockstep.
  absl::Duration initial_backoff = absl::Milliseconds(500);
  absl::Duration max_backoff = absl::Seconds(60);
  double jitter = 0.2;
  // How long a claimed row is kept from other hosts while it is sent: longer than a send can take
  // (the relay's RecordMatch deadline is 10 s).
  absl::Duration claim_for = absl::Seconds(60);
};

class Outbox {
 public:
  // Hands one result (a serialized kahve.v1.RecordMatchRequest) to the rating service; OK once it
  // is acknowledged.
  using Send = std::function<absl::Status(const std::string& match_id, const std::string& payload)>;

  // `pool` must outlive the outbox. Registers the gauge kahve_outbox_pending in `registry`.
  Outbox(common::PgPool& pool, prometheus::Registry& registry, OutboxSettings settings = {});

  // Sends up to `limit` results that are due, oldest due first, one at a time: claims one (in its
  // own committed statement, FOR UPDATE SKIP LOCKED, so outboxes of several hosts never claim the
  // same row), sends it holding no connection, then marks it delivered on OK, or counts the
  // attempt, stores the error and schedules the next attempt. Returns the database's failure, not
  // the sends'; `*picked` (if given) gets how many rows were claimed and sent.
  absl::Status DeliverPending(const Send& send, int limit, int* picked = nullptr);

  // Results not yet delivered; also sets kahve_outbox_pending.
  absl::StatusOr<int64_t> PendingCount();

  // The wait before the next attempt after `failures` failed ones (1 for the first), jitter
  // included.
  absl::Duration BackoffAfter(int failures);

 private:
  struct Claimed {
    std::string match_id;
    std::string payload;
    int failures_before = 0;
  };
  // The oldest due row, claimed for settings_.claim_for; nullopt when none is due.
  absl::StatusOr<std::optional<Claimed>> ClaimNext();
  // Stores the outcome of the claimed row's send.
  absl::Status Record(const Claimed& row, const absl::Status& sent);

  const OutboxSettings settings_;
  common::PgPool& pool_;
  prometheus::Gauge* pending_;
  absl::Mutex random_mu_;
  absl::BitGen random_ ABSL_GUARDED_BY(random_mu_);
};

// A thread that delivers the outbox every `interval` of `clock` (at once again after a full pass)
// until stopped, and keeps kahve_outbox_pending current. A row's retry backoff is the database's
// time (next_attempt_us against its now()), shared by every host, not `clock`'s.
class OutboxRelay {
 public:
  OutboxRelay(Outbox& outbox, Outbox::Send send, absl::Duration interval = absl::Milliseconds(200),
              int batch_limit = 32, common::Clock* clock = common::RealClock());
  // Stop().
  ~OutboxRelay();
  OutboxRelay(const OutboxRelay&) = delete;
  OutboxRelay& operator=(const OutboxRelay&) = delete;

  // Ends the thread after the pass in progress. Idempotent.
  void Stop();

 private:
  void Run();

  Outbox& outbox_;
  const Outbox::Send send_;
  const absl::Duration interval_;
  const int batch_limit_;
  common::Clock* const clock_;
  absl::Notification stop_;
  absl::Mutex join_mu_;
  std::thread thread_ ABSL_GUARDED_BY(join_mu_);
};

}  // namespace kahve::table

#endif  // KAHVE_SERVICES_TABLE_OUTBOX_H_

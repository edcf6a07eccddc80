#ifndef KAHVE_SERVICES_RATING_MATCH_WRITER_H_
#define KAHVE_SERVICES_RATING_MATCH_WRITER_H_

// Records matches with group commit. RecordMatch calls queue their validated match; a writer
// thread takes every match queued (up to a batch) and records them all in one transaction: one
// commit (one WAL flush) for the batch instead of one per match, which is what lets RecordMatch
// outrun a plain one-transaction-per-match insert (docs/ratings.md, "Throughput").
//
// Within a process, writers never take matches sharing a player at the same time, so their batches
// do not wait on each other's row locks. Correctness does not depend on that: every rating row a
// batch touches is locked, created if new, in one statement in key order, so concurrent batches
// (other writer threads, other replicas) queue behind each other instead of deadlocking, and each
// reads ratings no other transaction can change before it commits. Matches of one player within a
// batch are rated in the order they were queued, each from the one before.

#include <deque>
#include <functional>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_map.h"
#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"
#include "kahve/v1/rating.pb.h"
#include "prometheus/histogram.h"
#include "services/common/pg_pool.h"
#include "services/rating/match_batch.h"
#include "services/rating/match_rater.h"

namespace kahve::rating {

struct MatchWriterSettings {
  int writers = 2;      // threads, each with its own transaction in flight
  int max_batch = 256;  // matches per transaction at most
};

class MatchWriter {
 public:
  using Done = std::function<void(absl::StatusOr<RecordedMatch>)>;

  // `batch_sizes` (may be null) observes the number of matches of every batch.
  MatchWriter(common::PgPool* pool, RateFunction rate, MatchWriterSettings settings,
              prometheus::Histogram* batch_sizes);
  // Records everything already queued, then joins the threads.
  ~MatchWriter();
  MatchWriter(const MatchWriter&) = delete;
  MatchWriter& operator=(const MatchWriter&) = delete;

  // The statements every pooled connection prepares.
  static std::vector<std::pair<std::string, std::string>> PreparedStatements();

  // Queues the match; `done` runs on a writer thread once its transaction committed or failed. A
  // match id already stored with the same request_sha256 is answered from the stored record and
  // changes nothing; with another, AlreadyExists.
  void Submit(PendingMatch match, Done done);

 private:
  struct Queued {
    PendingMatch match;
    Done done;
    // The rating rows recording it locks (ruleset, mode, player), as map keys.
    std::vector<std::string> rating_keys;
  };

  static std::vector<std::string> RatingKeysOf(const PendingMatch& match);
  // Positions in the queue of up to `limit` matches a writer may take now, in queue order.
  std::vector<size_t> Takeable(size_t limit) const ABSL_EXCLUSIVE_LOCKS_REQUIRED(mutex_);
  void Loop();
  // One transaction for the whole batch (retried as a whole on a serialization failure, a
  // deadlock or a concurrent insert of one of its match ids). When it commits: OK, and one answer
  // per match in `answers`; otherwise the transaction's failure.
  absl::Status RecordBatch(const std::vector<Queued>& batch,
                           std::vector<absl::StatusOr<RecordedMatch>>* answers);

  common::PgPool* pool_;
  RateFunction rate_;
  MatchWriterSettings settings_;
  prometheus::Histogram* batch_sizes_;
  absl::Mutex mutex_;
  std::deque<Queued> queue_ ABSL_GUARDED_BY(mutex_);
  bool stopping_ ABSL_GUARDED_BY(mutex_) = false;
  // Rating keys in batches being recorded, with how many batches hold each.
  absl::flat_hash_map<std::string, int> busy_players_ ABSL_GUARDED_BY(mutex_);
  std::vector<std::thread> threads_;
};

}  // namespace kahve::rating

#endif  // KAHVE_SERVICES_RATING_MATCH_WRITER_H_

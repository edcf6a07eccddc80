#ifndef KAHVE_SERVICES_TABLE_LOG_WRITER_H_
#define KAHVE_SERVICES_TABLE_LOG_WRITER_H_

// One group-commit thread of the event log: it owns a queue and a database connection, takes
// everything queued (up to a batch limit) while the previous batch commits, writes it in one
// transaction, then hands the batch to a second thread that tells every write's caller, in queue
// order, while the next batch already commits (callers answer clients and broadcast from there). A
// failed commit is retried with the same batch until it succeeds: the callers have applied the
// writes in memory already.

#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/status/status.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"
#include "absl/types/span.h"
#include "pqxx/pqxx"
#include "services/common/clock.h"
#include "services/table/log_batch.h"

namespace prometheus {
class Histogram;
}

namespace kahve::table {

struct LogWriterSettings {
  std::string url;
  std::string host_id;
  // Writers are numbered for the logs.
  int index = 0;
  int max_batch = 512;
  absl::Duration retry_initial_backoff = absl::Milliseconds(20);
  absl::Duration retry_max_backoff = absl::Seconds(1);
  // After Stop, how long a database that is away may delay the flush before the remaining writes
  // fail with Unavailable (the process is going down; waiting forever would hang it).
  absl::Duration stop_flush_timeout = absl::Seconds(10);
  // What the backoff and the flush timeout wait on (commit_seconds stays on real time: it
  // measures the database, not the game). Not owned.
  common::Clock* clock = common::RealClock();
  prometheus::Histogram* commit_seconds = nullptr;
  prometheus::Histogram* batch_size = nullptr;
};

class LogWriter {
 public:
  // Starts the thread; connects on the first batch.
  explicit LogWriter(LogWriterSettings settings);
  // Stop().
  ~LogWriter();
  LogWriter(const LogWriter&) = delete;
  LogWriter& operator=(const LogWriter&) = delete;

  // Queues a write, whose `done` is told its outcome later on the notifying thread; after Stop,
  // UNAVAILABLE: nothing is queued and `done` is never called.
  [[nodiscard]] absl::Status Enqueue(LogWrite write);
  // Refuses new writes and starts the flush clock; the thread keeps committing what is queued.
  void BeginStop();
  // BeginStop, then waits until everything queued is committed and the thread has ended.
  // Idempotent.
  void Stop();
  // Writes queued or committing.
  int64_t Pending() const;

 private:
  // How one commit attempt went.
  struct Attempt {
    absl::Status status;
    // The data was refused (SQLSTATE class 22 or 23): the same batch would fail again.
    bool data_error = false;
  };

  void Run();
  // The second thread: tells callers their outcomes, batch after batch.
  void Notify();
  // The outcomes of `batch`, committed with retries (or Unavailable once stopped for too long).
  std::vector<WriteOutcome> Commit(absl::Span<const LogWrite> batch);
  // One write per transaction, so a write the database refuses fails alone.
  std::vector<WriteOutcome> CommitOneByOne(absl::Span<const LogWrite> batch);
  Attempt TryCommit(absl::Span<const LogWrite> batch, std::vector<WriteOutcome>* outcomes);
  bool FlushTimedOut() const;

  const LogWriterSettings settings_;
  // Used by the writer thread only.
  std::unique_ptr<pqxx::connection> connection_;

  mutable absl::Mutex mu_;
  std::deque<LogWrite> queue_ ABSL_GUARDED_BY(mu_);
  // Writes taken from the queue and not yet handed to the notifying thread's callbacks.
  int64_t committing_ ABSL_GUARDED_BY(mu_) = 0;
  // Committed batches with their outcomes, waiting for the notifying thread.
  std::deque<std::pair<std::vector<LogWrite>, std::vector<WriteOutcome>>> committed_
      ABSL_GUARDED_BY(mu_);
  bool committing_done_ ABSL_GUARDED_BY(mu_) = false;  // the writer thread has ended
  bool stopping_ ABSL_GUARDED_BY(mu_) = false;
  absl::Time flush_deadline_ ABSL_GUARDED_BY(mu_) = absl::InfiniteFuture();

  absl::Mutex join_mu_;
  std::thread thread_ ABSL_GUARDED_BY(join_mu_);
  std::thread notify_thread_ ABSL_GUARDED_BY(join_mu_);
};

}  // namespace kahve::table

#endif  // KAHVE_SERVICES_TABLE_LOG_WRITER_H_

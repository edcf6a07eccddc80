#ifndef KAHVE_SERVICES_TABLE_UPDATE_STREAM_H_
#define KAHVE_SERVICES_TABLE_UPDATE_STREAM_H_

// One Connect stream: the gRPC reactor that writes a table's updates to one client, one write in
// flight at a time, from a queue the table fills. The table side (Send, End) may be called from
// any thread. A client too slow to keep up is ended with RESOURCE_EXHAUSTED naming the budget it
// ran into (updates or bytes waiting in its queue, or bytes waiting in every queue of the host),
// so an unread stream never holds memory or the table back: it reconnects with after_seq and
// gets what it missed. A stream keeps within its budgets from its first update on; the first
// batch (snapshot, or the updates a resume missed) is always queued whole.

#include <atomic>
#include <cstdint>
#include <deque>
#include <functional>
#include <utility>
#include <optional>

#include "absl/base/thread_annotations.h"
#include "absl/synchronization/mutex.h"
#include "grpcpp/grpcpp.h"
#include "kahve/v1/table.pb.h"
#include "services/common/budget.h"

namespace kahve::table {

inline constexpr size_t kMaxQueuedUpdates = 4096;

// The byte budgets every stream of a host shares. Bytes are the memory queued updates hold
// (protobuf's SpaceUsedLong), not their wire size.
class StreamQueueBudget {
 public:
  // Limits <= 0 mean unlimited. `metrics` may be null (no counting).
  StreamQueueBudget(int64_t per_stream_bytes, int64_t per_host_bytes,
                    common::BudgetMetrics* metrics);
  int64_t per_stream_bytes() const { return per_stream_bytes_; }
  int64_t per_host_bytes() const { return per_host_bytes_; }
  // Bytes waiting in every stream's queue.
  int64_t queued() const { return queued_.load(std::memory_order_relaxed); }
  void Add(int64_t bytes);
  // The refusal of a stream that would pass its own budget, or the host's.
  absl::Status RefuseStream();
  absl::Status RefuseHost();

 private:
  const int64_t per_stream_bytes_;
  const int64_t per_host_bytes_;
  std::atomic<int64_t> queued_{0};
  prometheus::Counter* stream_refusals_ = nullptr;
  prometheus::Counter* host_refusals_ = nullptr;
  prometheus::Gauge* in_use_ = nullptr;
};

class UpdateStream : public grpc::ServerWriteReactor<v1::TableUpdate> {
 public:
  // `on_done` runs once, when the stream is over for good (after the client left or the last
  // write): the table forgets the stream there. `budget` (may be null) outlives the stream.
  UpdateStream(std::function<void(UpdateStream*)> on_done, StreamQueueBudget* budget);
  ~UpdateStream() override;

  // The seat (or engine::kSpectator) the stream serves; set by the table as it attaches it.
  int seat() const { return seat_; }
  void set_seat(int seat) { seat_ = seat; }

  // Queues `update` for writing, or ends the stream if that would pass a budget. Ignored once the
  // stream is ending.
  void Send(v1::TableUpdate update);
  // Send for the stream's first batch (its snapshot, or the updates a resume missed): queued
  // whole whatever the budgets, so a client can always catch up once.
  void SendInitial(v1::TableUpdate update);
  // Ends the stream with `status` once what is queued is written (at once when cancelled).
  void End(grpc::Status status);
  // While held, the stream does not finish, even when the client cancels, so the reactor (and the
  // call's request) stay alive for work running on another thread. Every Hold has one Release,
  // which finishes the stream if it ended meanwhile.
  void Hold();
  void Release();
  // Runs `hook` once, when the stream ends for any reason: the client cancels or goes away, it
  // falls behind a budget, or End (at once if it has ended already). A relayed stream cancels its
  // source there, so the host holding the table lets go of its side too.
  void set_on_end(std::function<void()> hook);

  // Kept by the table, under the table's lock: whether the first message (snapshot or missed
  // updates) went out, and the seq this stream has seen up to.
  bool started = false;
  uint64_t sent_through = 0;
  std::optional<uint64_t> after_seq;
  // ConnectRequest.with_view: updates carry the recipient's view and legal moves.
  bool with_view = false;

 private:
  void OnWriteDone(bool ok) override;
  void OnCancel() override;
  void OnDone() override;
  // Starts the next write or the finish, if one is due and none is in flight. Called with mu_
  // held; returns what to do after releasing it.
  enum class Next { kNothing, kWrite, kFinish };
  Next NextStep() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  void Do(Next next);
  void Queue(v1::TableUpdate update, bool budgeted);
  // Sets end_ (if unset) and hands back the end hook to run once mu_ is released.
  std::function<void()> SetEnd(grpc::Status status) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  // The refusal `update` meets, if queuing it would pass a budget.
  std::optional<grpc::Status> OverBudget(int64_t bytes) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  // Drops the queued updates after the one being written (when one is).
  void DropWaiting() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  void PopFront() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);

  int seat_ = -1;
  std::function<void(UpdateStream*)> on_done_;
  StreamQueueBudget* budget_;
  absl::Mutex mu_;
  std::deque<v1::TableUpdate> queue_ ABSL_GUARDED_BY(mu_);  // front: being written
  std::deque<int64_t> queue_bytes_ ABSL_GUARDED_BY(mu_);    // each queued update's size
  int64_t queued_bytes_ ABSL_GUARDED_BY(mu_) = 0;
  bool writing_ ABSL_GUARDED_BY(mu_) = false;
  bool finishing_ ABSL_GUARDED_BY(mu_) = false;
  int holds_ ABSL_GUARDED_BY(mu_) = 0;
  std::optional<grpc::Status> end_ ABSL_GUARDED_BY(mu_);
  std::function<void()> on_end_ ABSL_GUARDED_BY(mu_);
  grpc::Status final_status_ ABSL_GUARDED_BY(mu_);
};

}  // namespace kahve::table

#endif  // KAHVE_SERVICES_TABLE_UPDATE_STREAM_H_

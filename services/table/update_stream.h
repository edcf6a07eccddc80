#ifndef KAHVE_SERVICES_TABLE_UPDATE_STREAM_H_
#define KAHVE_SERVICES_TABLE_UPDATE_STREAM_H_

// One Connect stream: the gRPC reactor that writes a table's updates to one client, one write in
// flight at a time, from a queue the table fills. The table side (Send, End) may be called from
// any thread; a client too slow to keep up (kMaxQueuedUpdates waiting) is ended with
// RESOURCE_EXHAUSTED, so one slow reader never holds memory or the table back: it reconnects with
// after_seq and gets what it missed.

#include <cstdint>
#include <deque>
#include <functional>
#include <optional>

#include "absl/base/thread_annotations.h"
#include "absl/synchronization/mutex.h"
#include "grpcpp/grpcpp.h"
#include "kahve/v1/table.pb.h"

namespace kahve::table {

inline constexpr size_t kMaxQueuedUpdates = 4096;

class UpdateStream : public grpc::ServerWriteReactor<v1::TableUpdate> {
 public:
  // `on_done` runs once, when the stream is over for good (after the client left or the last
  // write): the table forgets the stream there.
  explicit UpdateStream(std::function<void(UpdateStream*)> on_done);

  // The seat (or engine::kSpectator) the stream serves; set by the table as it attaches it.
  int seat() const { return seat_; }
  void set_seat(int seat) { seat_ = seat; }

  // Queues `update` for writing. Ignored once the stream is ending.
  void Send(v1::TableUpdate update);
  // Ends the stream with `status` once what is queued is written (at once when cancelled).
  void End(grpc::Status status);
  // While held, the stream does not finish, even when the client cancels, so the reactor (and the
  // call's request) stay alive for work running on another thread. Every Hold has one Release,
  // which finishes the stream if it ended meanwhile.
  void Hold();
  void Release();

  // Kept by the table, under the table's lock: whether the first message (snapshot or missed
  // updates) went out, and the seq this stream has seen up to.
  bool started = false;
  uint64_t sent_through = 0;
  std::optional<uint64_t> after_seq;

 private:
  void OnWriteDone(bool ok) override;
  void OnCancel() override;
  void OnDone() override;
  // Starts the next write or the finish, if one is due and none is in flight. Called with mu_
  // held; returns what to do after releasing it.
  enum class Next { kNothing, kWrite, kFinish };
  Next NextStep() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  void Do(Next next);

  int seat_ = -1;
  std::function<void(UpdateStream*)> on_done_;
  absl::Mutex mu_;
  std::deque<v1::TableUpdate> queue_ ABSL_GUARDED_BY(mu_);  // front: being written
  bool writing_ ABSL_GUARDED_BY(mu_) = false;
  bool finishing_ ABSL_GUARDED_BY(mu_) = false;
  int holds_ ABSL_GUARDED_BY(mu_) = 0;
  std::optional<grpc::Status> end_ ABSL_GUARDED_BY(mu_);
  grpc::Status final_status_ ABSL_GUARDED_BY(mu_);
};

}  // namespace kahve::table

#endif  // KAHVE_SERVICES_TABLE_UPDATE_STREAM_H_

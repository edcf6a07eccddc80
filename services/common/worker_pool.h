#ifndef KAHVE_SERVICES_COMMON_WORKER_POOL_H_
#define KAHVE_SERVICES_COMMON_WORKER_POOL_H_

// Threads for blocking work (database calls), so gRPC's callback threads never block: a handler
// schedules its work here and the work finishes the call.

#include <deque>
#include <functional>
#include <thread>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/synchronization/mutex.h"

namespace kahve::common {

class WorkerPool {
 public:
  explicit WorkerPool(int threads);
  // Runs every task already scheduled, then joins.
  ~WorkerPool();
  WorkerPool(const WorkerPool&) = delete;
  WorkerPool& operator=(const WorkerPool&) = delete;

  void Schedule(std::function<void()> task);
  // Tasks waiting for a thread.
  int Queued() const;

 private:
  void Loop();

  mutable absl::Mutex mutex_;
  std::deque<std::function<void()>> tasks_ ABSL_GUARDED_BY(mutex_);
  bool stopping_ ABSL_GUARDED_BY(mutex_) = false;
  std::vector<std::thread> threads_;
};

}  // namespace kahve::common

#endif  // KAHVE_SERVICES_COMMON_WORKER_POOL_H_

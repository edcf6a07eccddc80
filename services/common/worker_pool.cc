#include "services/common/worker_pool.h"

#include <utility>

#include "services/common/logging.h"

namespace kahve::common {

WorkerPool::WorkerPool(int threads) {
  threads_.reserve(threads);
  for (int i = 0; i < threads; ++i) threads_.emplace_back([this] { Loop(); });
}

WorkerPool::~WorkerPool() {
  {
    absl::MutexLock lock(&mutex_);
    stopping_ = true;
  }
  for (std::thread& thread : threads_) thread.join();
}

void WorkerPool::Schedule(std::function<void()> task) {
  // The task runs for the same call as its scheduler: its log lines carry that request id.
  if (const std::string& request_id = CurrentRequestId(); !request_id.empty()) {
    task = [request_id, task = std::move(task)] {
      ScopedRequestId scope(request_id);
      task();
    };
  }
  absl::MutexLock lock(&mutex_);
  tasks_.push_back(std::move(task));
}

int WorkerPool::Queued() const {
  absl::MutexLock lock(&mutex_);
  return static_cast<int>(tasks_.size());
}

void WorkerPool::Loop() {
  while (true) {
    std::function<void()> task;
    {
      absl::MutexLock lock(&mutex_);
      mutex_.Await(absl::Condition(
          +[](WorkerPool* pool) ABSL_EXCLUSIVE_LOCKS_REQUIRED(pool->mutex_) {
            return pool->stopping_ || !pool->tasks_.empty();
          },
          this));
      if (tasks_.empty()) return;  // stopping, and nothing left to run
      task = std::move(tasks_.front());
      tasks_.pop_front();
    }
    task();
  }
}

}  // namespace kahve::common

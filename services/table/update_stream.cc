#include "services/table/update_stream.h"

#include <utility>

namespace kahve::table {

UpdateStream::UpdateStream(std::function<void(UpdateStream*)> on_done)
    : on_done_(std::move(on_done)) {}

void UpdateStream::Send(v1::TableUpdate update) {
  Next next = Next::kNothing;
  {
    absl::MutexLock lock(&mu_);
    if (end_.has_value()) return;
    if (queue_.size() >= kMaxQueuedUpdates) {
      // Keep the update being written (its buffer is in use); drop the rest.
      queue_.erase(queue_.begin() + (writing_ ? 1 : 0), queue_.end());
      end_ = grpc::Status(grpc::StatusCode::RESOURCE_EXHAUSTED,
                          "updates arrive faster than this client reads them; reconnect with "
                          "after_seq to get what was missed");
    } else {
      queue_.push_back(std::move(update));
    }
    next = NextStep();
  }
  Do(next);
}

void UpdateStream::End(grpc::Status status) {
  Next next = Next::kNothing;
  {
    absl::MutexLock lock(&mu_);
    if (end_.has_value()) return;
    end_ = std::move(status);
    next = NextStep();
  }
  Do(next);
}

void UpdateStream::Hold() {
  absl::MutexLock lock(&mu_);
  ++holds_;
}

void UpdateStream::Release() {
  Next next = Next::kNothing;
  {
    absl::MutexLock lock(&mu_);
    --holds_;
    next = NextStep();
  }
  Do(next);
}

UpdateStream::Next UpdateStream::NextStep() {
  if (writing_ || finishing_) return Next::kNothing;
  if (!queue_.empty()) {
    writing_ = true;
    return Next::kWrite;
  }
  if (end_.has_value() && holds_ == 0) {
    finishing_ = true;
    final_status_ = *end_;
    return Next::kFinish;
  }
  return Next::kNothing;
}

void UpdateStream::Do(Next next) {
  if (next == Next::kWrite) {
    const v1::TableUpdate* front = nullptr;
    {
      absl::MutexLock lock(&mu_);
      front = &queue_.front();  // stays put: the deque only grows at the back meanwhile
    }
    StartWrite(front);
  } else if (next == Next::kFinish) {
    grpc::Status status;
    {
      absl::MutexLock lock(&mu_);
      status = final_status_;
    }
    Finish(status);
  }
}

void UpdateStream::OnWriteDone(bool ok) {
  Next next = Next::kNothing;
  {
    absl::MutexLock lock(&mu_);
    writing_ = false;
    queue_.pop_front();
    if (!ok) {
      // The client is gone: nothing more will be written.
      queue_.clear();
      if (!end_.has_value()) end_ = grpc::Status(grpc::StatusCode::UNAVAILABLE, "write failed");
    }
    next = NextStep();
  }
  Do(next);
}

void UpdateStream::OnCancel() {
  Next next = Next::kNothing;
  {
    absl::MutexLock lock(&mu_);
    if (!writing_) queue_.clear();
    if (!end_.has_value()) end_ = grpc::Status::CANCELLED;
    next = NextStep();
  }
  Do(next);
}

void UpdateStream::OnDone() {
  on_done_(this);
  delete this;
}

}  // namespace kahve::table

#include "services/table/update_stream.h"

#include <utility>

#include "absl/strings/str_cat.h"

namespace kahve::table {

StreamQueueBudget::StreamQueueBudget(int64_t per_stream_bytes, int64_t per_host_bytes,
                                     common::BudgetMetrics* metrics)
    : per_stream_bytes_(per_stream_bytes), per_host_bytes_(per_host_bytes) {
  if (metrics != nullptr) {
    stream_refusals_ = &metrics->refusals.Add({{"budget", "max_stream_queued_bytes"}});
    host_refusals_ = &metrics->refusals.Add({{"budget", "max_streams_queued_bytes"}});
    in_use_ = &metrics->in_use.Add({{"budget", "max_streams_queued_bytes"}});
  }
}

void StreamQueueBudget::Add(int64_t bytes) {
  queued_.fetch_add(bytes, std::memory_order_relaxed);
  if (in_use_ != nullptr) in_use_->Increment(static_cast<double>(bytes));
}

absl::Status StreamQueueBudget::RefuseStream() {
  if (stream_refusals_ != nullptr) stream_refusals_->Increment();
  return common::BudgetExhausted("max_stream_queued_bytes", per_stream_bytes_,
                                 "this client reads too slowly; reconnect with after_seq");
}

absl::Status StreamQueueBudget::RefuseHost() {
  if (host_refusals_ != nullptr) host_refusals_->Increment();
  return common::BudgetExhausted("max_streams_queued_bytes", per_host_bytes_,
                                 "this client reads too slowly; reconnect with after_seq");
}

UpdateStream::UpdateStream(std::function<void(UpdateStream*)> on_done, StreamQueueBudget* budget)
    : on_done_(std::move(on_done)), budget_(budget) {}

UpdateStream::~UpdateStream() {
  absl::MutexLock lock(&mu_);
  if (budget_ != nullptr && queued_bytes_ != 0) budget_->Add(-queued_bytes_);
}

void UpdateStream::Send(v1::TableUpdate update) { Queue(std::move(update), /*budgeted=*/true); }

void UpdateStream::SendInitial(v1::TableUpdate update) {
  Queue(std::move(update), /*budgeted=*/false);
}

std::optional<grpc::Status> UpdateStream::OverBudget(int64_t bytes) {
  // A queue with nothing waiting behind the write in flight is a reader keeping up: it always
  // gets the next update, so only streams that fall behind are ever cut.
  const size_t waiting = queue_.size() - (writing_ ? 1 : 0);
  if (waiting == 0) return std::nullopt;
  if (queue_.size() >= kMaxQueuedUpdates) {
    return grpc::Status(grpc::StatusCode::RESOURCE_EXHAUSTED,
                        absl::StrCat("budget max_stream_queued_updates (", kMaxQueuedUpdates,
                                     ") reached; this client reads too slowly; reconnect with "
                                     "after_seq"));
  }
  if (budget_ == nullptr) return std::nullopt;
  if (budget_->per_stream_bytes() > 0 && queued_bytes_ + bytes > budget_->per_stream_bytes()) {
    const absl::Status refused = budget_->RefuseStream();
    return grpc::Status(grpc::StatusCode::RESOURCE_EXHAUSTED, std::string(refused.message()));
  }
  // The host's budget cuts streams more than one update behind. A reader one update behind is
  // keeping up on a busy machine, and is not what fills the host's queues: cutting it would end
  // honest players' streams while the slow ones hold the memory (the per-stream budget and the
  // update count still bound it).
  if (waiting >= 2 && budget_->per_host_bytes() > 0 &&
      budget_->queued() + bytes > budget_->per_host_bytes()) {
    const absl::Status refused = budget_->RefuseHost();
    return grpc::Status(grpc::StatusCode::RESOURCE_EXHAUSTED, std::string(refused.message()));
  }
  return std::nullopt;
}

std::function<void()> UpdateStream::SetEnd(grpc::Status status) {
  if (end_.has_value()) return nullptr;
  end_ = std::move(status);
  return std::move(on_end_);
}

void UpdateStream::Queue(v1::TableUpdate update, bool budgeted) {
  Next next = Next::kNothing;
  std::function<void()> hook;
  {
    absl::MutexLock lock(&mu_);
    if (end_.has_value()) return;
    // The memory the queued message holds (several times its wire size), which is what the
    // budgets bound.
    const auto bytes = static_cast<int64_t>(update.SpaceUsedLong());
    std::optional<grpc::Status> refused;
    if (budgeted) refused = OverBudget(bytes);
    if (refused.has_value()) {
      DropWaiting();
      hook = SetEnd(*std::move(refused));
    } else {
      queue_.push_back(std::move(update));
      queue_bytes_.push_back(bytes);
      queued_bytes_ += bytes;
      if (budget_ != nullptr) budget_->Add(bytes);
    }
    next = NextStep();
  }
  if (hook) hook();
  Do(next);
}

void UpdateStream::End(grpc::Status status) {
  Next next = Next::kNothing;
  std::function<void()> hook;
  {
    absl::MutexLock lock(&mu_);
    if (end_.has_value()) return;
    hook = SetEnd(std::move(status));
    next = NextStep();
  }
  if (hook) hook();
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

void UpdateStream::DropWaiting() {
  // The update being written keeps its place: gRPC reads its buffer until OnWriteDone.
  const size_t keep = writing_ ? 1 : 0;
  while (queue_.size() > keep) {
    queued_bytes_ -= queue_bytes_.back();
    if (budget_ != nullptr) budget_->Add(-queue_bytes_.back());
    queue_.pop_back();
    queue_bytes_.pop_back();
  }
}

void UpdateStream::PopFront() {
  queued_bytes_ -= queue_bytes_.front();
  if (budget_ != nullptr) budget_->Add(-queue_bytes_.front());
  queue_.pop_front();
  queue_bytes_.pop_front();
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
  std::function<void()> hook;
  {
    absl::MutexLock lock(&mu_);
    writing_ = false;
    PopFront();
    if (!ok) {
      // The client is gone: nothing more will be written.
      DropWaiting();
      hook = SetEnd(grpc::Status(grpc::StatusCode::UNAVAILABLE, "write failed"));
    }
    next = NextStep();
  }
  if (hook) hook();
  Do(next);
}

void UpdateStream::OnCancel() {
  Next next = Next::kNothing;
  std::function<void()> hook;
  {
    absl::MutexLock lock(&mu_);
    DropWaiting();
    hook = SetEnd(grpc::Status::CANCELLED);
    next = NextStep();
  }
  if (hook) hook();
  Do(next);
}

void UpdateStream::set_on_end(std::function<void()> hook) {
  {
    absl::MutexLock lock(&mu_);
    if (!end_.has_value()) {
      on_end_ = std::move(hook);
      return;
    }
  }
  hook();
}

void UpdateStream::OnDone() {
  on_done_(this);
  delete this;
}

}  // namespace kahve::table

#include "services/matchmaking/queue_budget.h"

#include <utility>

namespace kahve::matchmaking {
namespace {

constexpr char kQueues[] = "max_active_queues";
constexpr char kTickets[] = "max_active_tickets";

}  // namespace

QueueBudget::QueueBudget(QueueBudgetSettings settings,
                         absl::flat_hash_set<std::string> standard_queues,
                         common::BudgetMetrics* metrics)
    : settings_(settings), standard_queues_(std::move(standard_queues)) {
  if (metrics == nullptr) return;
  queues_refused_ = &metrics->refusals.Add({{"budget", kQueues}});
  tickets_refused_ = &metrics->refusals.Add({{"budget", kTickets}});
  queues_in_use_ = &metrics->in_use.Add({{"budget", kQueues}});
  tickets_in_use_ = &metrics->in_use.Add({{"budget", kTickets}});
}

int64_t QueueBudget::Mark() {
  absl::MutexLock lock(&mu_);
  return next_admission_;
}

void QueueBudget::Refresh(const std::map<std::string, int64_t>& active, int64_t mark) {
  absl::MutexLock lock(&mu_);
  while (!admitted_.empty() && admitted_.front().first < mark) admitted_.pop_front();
  queues_.clear();
  tickets_ = 0;
  for (const auto& [queue_key, tickets] : active) {
    if (!standard_queues_.contains(queue_key)) queues_.insert(queue_key);
    tickets_ += tickets;
  }
  for (const auto& [sequence, queue_key] : admitted_) {
    if (!standard_queues_.contains(queue_key)) queues_.insert(queue_key);
    ++tickets_;
  }
  Publish();
}

absl::Status QueueBudget::Admit(const std::string& queue_key) {
  const bool standard = standard_queues_.contains(queue_key);
  bool tickets_full = false;
  {
    absl::MutexLock lock(&mu_);
    tickets_full = settings_.max_active_tickets > 0 && tickets_ >= settings_.max_active_tickets;
    const bool queues_full = settings_.max_active_queues > 0 && !standard &&
                             !queues_.contains(queue_key) &&
                             static_cast<int64_t>(queues_.size()) >= settings_.max_active_queues;
    if (!tickets_full && !queues_full) {
      if (!standard) queues_.insert(queue_key);
      ++tickets_;
      admitted_.emplace_back(next_admission_++, queue_key);
      Publish();
      return absl::OkStatus();
    }
  }
  if (tickets_full) {
    if (tickets_refused_ != nullptr) tickets_refused_->Increment();
    return common::BudgetExhausted(kTickets, settings_.max_active_tickets,
                                   "matchmaking is full; try again in a minute");
  }
  if (queues_refused_ != nullptr) queues_refused_->Increment();
  return common::BudgetExhausted(
      kQueues, settings_.max_active_queues,
      "queue with the ruleset's standard settings, or settings players already wait for "
      "(GetQueueStats lists them), or try again later");
}

void QueueBudget::Publish() {
  if (queues_in_use_ != nullptr) queues_in_use_->Set(static_cast<double>(queues_.size()));
  if (tickets_in_use_ != nullptr) tickets_in_use_->Set(static_cast<double>(tickets_));
}

}  // namespace kahve::matchmaking

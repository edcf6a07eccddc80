#include "services/common/budget.h"

#include <utility>

#include "absl/strings/str_cat.h"
#include "services/common/connection_gate.h"

namespace kahve::common {

BudgetMetrics::BudgetMetrics(prometheus::Registry& registry)
    : refusals(prometheus::BuildCounter()
                   .Name("kahve_budget_refusals_total")
                   .Help("Requests refused with RESOURCE_EXHAUSTED because a budget was reached, "
                         "by budget (the flag that sets it).")
                   .Register(registry)),
      in_use(prometheus::BuildGauge()
                 .Name("kahve_budget_in_use")
                 .Help("What clients hold against each budget, summed over its keys.")
                 .Register(registry)) {}

absl::Status BudgetExhausted(std::string_view budget, int64_t limit, std::string_view advice) {
  return absl::ResourceExhaustedError(
      absl::StrCat("budget ", std::string(budget), " (", limit, ") reached; ", std::string(advice)));
}

KeyedBudget::KeyedBudget(std::string name, int64_t limit, BudgetMetrics* metrics)
    : name_(std::move(name)), limit_(limit) {
  if (metrics != nullptr) {
    refused_ = &metrics->refusals.Add({{"budget", name_}});
    in_use_ = &metrics->in_use.Add({{"budget", name_}});
  }
}

absl::Status KeyedBudget::Acquire(const std::string& key, std::string_view advice) {
  {
    absl::MutexLock lock(&mu_);
    int64_t& held = held_[key];
    if (limit_ <= 0 || held < limit_) {
      ++held;
      if (in_use_ != nullptr) in_use_->Increment();
      return absl::OkStatus();
    }
  }
  if (refused_ != nullptr) refused_->Increment();
  return BudgetExhausted(name_, limit_, advice);
}

void KeyedBudget::Release(const std::string& key) {
  absl::MutexLock lock(&mu_);
  const auto found = held_.find(key);
  if (found == held_.end()) return;
  if (--found->second <= 0) held_.erase(found);
  if (in_use_ != nullptr) in_use_->Decrement();
}

int64_t KeyedBudget::Held(const std::string& key) const {
  absl::MutexLock lock(&mu_);
  const auto found = held_.find(key);
  return found == held_.end() ? 0 : found->second;
}

StreamBudget::StreamBudget(StreamBudgetSettings settings, BudgetMetrics* metrics)
    : trusted_proxies_(std::move(settings.trusted_proxies)),
      per_identity_("max_streams_per_identity", settings.per_identity, metrics),
      per_connection_("max_streams_per_connection", settings.per_connection, metrics) {}

std::string StreamBudget::ConnectionKey(const grpc::ServerContextBase& context,
                                        absl::string_view identity) const {
  return common::ConnectionKey(context, trusted_proxies_, identity);
}

std::string StreamConnectionKey(const StreamBudget* budget, const grpc::ServerContextBase& context,
                                absl::string_view identity) {
  return budget == nullptr ? PeerAddress(context) : budget->ConnectionKey(context, identity);
}

absl::Status StreamBudget::Acquire(const std::string& identity, const std::string& peer) {
  absl::Status taken =
      per_identity_.Acquire(identity, "close a stream you no longer read before opening another");
  if (!taken.ok()) return taken;
  taken = per_connection_.Acquire(peer, "open fewer streams on one connection");
  if (!taken.ok()) per_identity_.Release(identity);
  return taken;
}

void StreamBudget::Release(const std::string& identity, const std::string& peer) {
  per_identity_.Release(identity);
  per_connection_.Release(peer);
}

}  // namespace kahve::common

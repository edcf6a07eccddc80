#include "services/table/practice_budget.h"

namespace kahve::table {

PracticeBudget::PracticeBudget(int max_per_player, int max_per_host, common::BudgetMetrics& budgets)
    : max_per_player_(max_per_player),
      max_per_host_(max_per_host),
      player_refusals_(&budgets.refusals.Add({{"budget", "max_practice_tables_per_player"}})),
      host_refusals_(&budgets.refusals.Add({{"budget", "max_practice_tables"}})),
      in_use_(&budgets.in_use.Add({{"budget", "max_practice_tables"}})) {}

absl::Status PracticeBudget::Reserve(const std::string& player, const std::string& match_id,
                                     bool force, const std::function<bool()>& make_room) {
  bool host_full = false;
  absl::Status reserved = TryReserve(player, match_id, force, &host_full);
  // The host is full: a table closed to make room (the one idle longest, say) lets this one in,
  // so tables left idle by a few players never lock the others out.
  if (host_full && make_room && make_room()) {
    reserved = TryReserve(player, match_id, force, &host_full);
  }
  if (host_full) host_refusals_->Increment();
  return reserved;
}

absl::Status PracticeBudget::TryReserve(const std::string& player, const std::string& match_id,
                                        bool force, bool* host_full) {
  *host_full = false;
  absl::MutexLock lock(&mu_);
  absl::flat_hash_set<std::string>& held = tables_[player];
  if (held.contains(match_id)) return absl::OkStatus();
  if (!force && max_per_player_ > 0 && static_cast<int>(held.size()) >= max_per_player_) {
    if (held.empty()) tables_.erase(player);
    player_refusals_->Increment();
    return common::BudgetExhausted("max_practice_tables_per_player", max_per_player_,
                                   "finish or resign one of your practice tables first");
  }
  if (!force && max_per_host_ > 0 && total_ >= max_per_host_) {
    if (held.empty()) tables_.erase(player);
    *host_full = true;
    return common::BudgetExhausted("max_practice_tables", max_per_host_,
                                   "this host holds all the practice tables it may, none idle "
                                   "long enough to close; retry later");
  }
  held.insert(match_id);
  ++total_;
  in_use_->Increment();
  return absl::OkStatus();
}

void PracticeBudget::Release(const std::string& player, const std::string& match_id) {
  absl::MutexLock lock(&mu_);
  const auto found = tables_.find(player);
  if (found == tables_.end() || found->second.erase(match_id) == 0) return;
  if (found->second.empty()) tables_.erase(found);
  --total_;
  in_use_->Decrement();
}

}  // namespace kahve::table

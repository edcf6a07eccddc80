#include "services/table/outbox.h"

#include <algorithm>
#include <cmath>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "prometheus/gauge.h"
#include "prometheus/registry.h"
#include "services/common/logging.h"
#include "services/common/pg_arrays.h"
#include "services/table/table_metrics.h"

namespace kahve::table {

using common::kNowUsSql;
namespace {

// Stored errors are for people reading the table; a bounded length keeps rows small.
constexpr size_t kMaxStoredError = 1000;

// Moves the oldest due row's next attempt $1 microseconds ahead (the claim) and returns it; the
// row lock lasts only this statement.
const std::string& ClaimNextSql() {
  static const std::string* sql = new std::string(absl::StrCat(
      "UPDATE table_outbox SET next_attempt_us = ", kNowUsSql,
      " + $1 WHERE match_id = (SELECT match_id FROM table_outbox WHERE delivered_us IS NULL AND "
      "next_attempt_us <= ",
      kNowUsSql,
      " ORDER BY next_attempt_us LIMIT 1 FOR UPDATE SKIP LOCKED) "
      "RETURNING match_id, payload, attempts"));
  return *sql;
}

const std::string& MarkDeliveredSql() {
  static const std::string* sql = new std::string(
      absl::StrCat("UPDATE table_outbox SET delivered_us = ", kNowUsSql,
                   ", attempts = attempts + 1, last_error = NULL WHERE match_id = $1"));
  return *sql;
}

const std::string& MarkFailedSql() {
  static const std::string* sql = new std::string(
      absl::StrCat("UPDATE table_outbox SET attempts = attempts + 1, next_attempt_us = ", kNowUsSql,
                   " + $2, last_error = $3 WHERE match_id = $1"));
  return *sql;
}

}  // namespace

Outbox::Outbox(common::PgPool& pool, prometheus::Registry& registry, OutboxSettings settings)
    : settings_(std::move(settings)), pool_(pool), pending_(&OutboxMetrics(registry).pending) {}

absl::Status Outbox::DeliverPending(const Send& send, int limit, int* picked) {
  if (picked != nullptr) *picked = 0;
  for (int i = 0; i < limit; ++i) {
    const absl::StatusOr<std::optional<Claimed>> claimed = ClaimNext();
    if (!claimed.ok()) return claimed.status();
    if (!claimed->has_value()) break;
    if (picked != nullptr) ++*picked;
    const Claimed& row = **claimed;
    // Outside any transaction: a stalled rating service holds no connection of the pool.
    const absl::Status sent = send(row.match_id, row.payload);
    if (absl::Status recorded = Record(row, sent); !recorded.ok()) return recorded;
  }
  return absl::OkStatus();
}

absl::StatusOr<std::optional<Outbox::Claimed>> Outbox::ClaimNext() {
  return pool_.RunReturning(
      [&](pqxx::connection& connection) -> absl::StatusOr<std::optional<Claimed>> {
        pqxx::nontransaction tx(connection);
        const pqxx::result row =
            tx.exec_params(ClaimNextSql(), absl::ToInt64Microseconds(settings_.claim_for));
        if (row.empty()) return std::nullopt;
        return Claimed{.match_id = row[0][0].as<std::string>(),
                       .payload = pqxx::binarystring(row[0][1]).str(),
                       .failures_before = row[0][2].as<int>()};
      });
}

absl::Status Outbox::Record(const Claimed& row, const absl::Status& sent) {
  if (sent.ok()) {
    return pool_.Run([&](pqxx::connection& connection) {
      pqxx::nontransaction tx(connection);
      tx.exec_params0(MarkDeliveredSql(), row.match_id);
      return absl::OkStatus();
    });
  }
  const absl::Duration backoff = BackoffAfter(row.failures_before + 1);
  common::LogWarning("outbox delivery failed", {{"match_id", row.match_id},
                                                {"attempts", int64_t{row.failures_before + 1}},
                                                {"retry_in_s", absl::ToDoubleSeconds(backoff)},
                                                {"error", sent.ToString()}});
  return pool_.Run([&](pqxx::connection& connection) {
    pqxx::nontransaction tx(connection);
    tx.exec_params0(MarkFailedSql(), row.match_id, absl::ToInt64Microseconds(backoff),
                    sent.ToString().substr(0, kMaxStoredError));
    return absl::OkStatus();
  });
}

absl::StatusOr<int64_t> Outbox::PendingCount() {
  const absl::StatusOr<int64_t> count =
      pool_.RunReturning([](pqxx::connection& connection) -> absl::StatusOr<int64_t> {
        pqxx::nontransaction tx(connection);
        return tx.exec1("SELECT count(*) FROM table_outbox WHERE delivered_us IS NULL")[0]
            .as<int64_t>();
      });
  if (count.ok()) pending_->Set(static_cast<double>(*count));
  return count;
}

absl::Duration Outbox::BackoffAfter(int failures) {
  // Doubling stops well before the multiplication could overflow.
  const int doublings = std::clamp(failures - 1, 0, 30);
  const absl::Duration base =
      std::min(settings_.initial_backoff * std::ldexp(1.0, doublings), settings_.max_backoff);
  double factor = 1;
  if (settings_.jitter > 0) {
    absl::MutexLock lock(&random_mu_);
    factor = absl::Uniform(random_, 1 - settings_.jitter, 1 + settings_.jitter);
  }
  return std::min(base * factor, settings_.max_backoff);
}

OutboxRelay::OutboxRelay(Outbox& outbox, Outbox::Send send, absl::Duration interval,
                         int batch_limit, common::Clock* clock)
    : outbox_(outbox),
      send_(std::move(send)),
      interval_(interval),
      batch_limit_(std::max(1, batch_limit)),
      clock_(clock) {
  absl::MutexLock lock(&join_mu_);
  thread_ = std::thread([this] { Run(); });
}

OutboxRelay::~OutboxRelay() { Stop(); }

void OutboxRelay::Stop() {
  absl::MutexLock lock(&join_mu_);
  if (!stop_.HasBeenNotified()) stop_.Notify();
  if (thread_.joinable()) thread_.join();
}

void OutboxRelay::Run() {
  absl::Duration wait = absl::ZeroDuration();
  while (!clock_->WaitForNotificationWithTimeout(stop_, wait)) {
    int picked = 0;
    const absl::Status delivered = outbox_.DeliverPending(send_, batch_limit_, &picked);
    if (!delivered.ok()) {
      common::LogError("outbox pass failed", {{"error", delivered.ToString()}});
    }
    const absl::StatusOr<int64_t> pending = outbox_.PendingCount();
    if (!pending.ok()) {
      common::LogError("outbox count failed", {{"error", pending.status().ToString()}});
    }
    // A full pass suggests more rows are due: go again at once.
    wait = delivered.ok() && picked == batch_limit_ ? absl::ZeroDuration() : interval_;
  }
}

}  // namespace kahve::table

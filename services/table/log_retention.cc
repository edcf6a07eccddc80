#include "services/table/log_retention.h"

#include <string>

#include "absl/strings/str_cat.h"
#include "services/common/logging.h"

namespace kahve::table {
namespace {

// The advisory lock of the pruning pass (any constant no other lock of kahve uses).
constexpr int64_t kPruneLock = 0x6b61687665'0013;

const char* KindOf(bool practice) { return practice ? "practice" : "rated"; }

// One batch: the oldest finished tables of a kind past the cutoff, their log rows and their rows.
// Rows another transaction holds are skipped, never waited for.
constexpr char kPruneBatchSql[] =
    "WITH doomed AS ("
    "  SELECT table_id FROM table_tables"
    "  WHERE practice = $1 AND finished_us IS NOT NULL AND finished_us < $2"
    "  ORDER BY finished_us LIMIT $3 FOR UPDATE SKIP LOCKED"
    "), log AS ("
    "  DELETE FROM table_log l USING doomed d WHERE l.table_id = d.table_id RETURNING 1"
    "), tables AS ("
    "  DELETE FROM table_tables t USING doomed d WHERE t.table_id = d.table_id RETURNING 1"
    ") SELECT (SELECT count(*) FROM tables), (SELECT count(*) FROM log)";

}  // namespace

LogRetention::LogRetention(LogRetentionSettings settings, common::PgPool& pool,
                           prometheus::Registry& registry)
    : settings_(settings), pool_(pool), metrics_(registry) {}

LogRetention::~LogRetention() {
  stop_.Notify();
  if (thread_.joinable()) thread_.join();
}

void LogRetention::Start() {
  thread_ = std::thread([this] {
    do {
      auto pruned = PruneOnce();
      if (!pruned.ok()) {
        common::LogWarning("log retention pass failed",
                           {{"error", std::string(pruned.status().message())}});
      } else if (pruned->tables > 0) {
        common::LogInfo("finished tables' logs pruned",
                        {{"tables", pruned->tables}, {"rows", pruned->rows}});
      }
    } while (!settings_.clock->WaitForNotificationWithTimeout(stop_, settings_.interval));
  });
}

absl::StatusOr<PrunedLogs> LogRetention::PruneOnce() {
  PrunedLogs pruned;
  const absl::Time now = settings_.clock->Now();
  for (const bool practice : {true, false}) {
    const absl::Duration keep = practice ? settings_.practice : settings_.rated;
    if (keep == absl::InfiniteDuration()) continue;
    auto done = PruneKind(practice, now - keep, pruned);
    if (!done.ok()) return done.status();
    if (!*done) return pruned;  // another host's pass is at it
  }
  if (absl::Status counted = CountKept(); !counted.ok()) return counted;
  return pruned;
}

absl::StatusOr<bool> LogRetention::PruneKind(bool practice, absl::Time cutoff, PrunedLogs& pruned) {
  const int64_t cutoff_us = absl::ToUnixMicros(cutoff);
  for (;;) {
    auto batch =
        pool_.RunReturning([&](pqxx::connection& connection) -> absl::StatusOr<PrunedLogs> {
          pqxx::work tx(connection);
          if (!tx.exec_params1("SELECT pg_try_advisory_xact_lock($1)", kPruneLock)[0].as<bool>()) {
            return PrunedLogs{-1, 0};
          }
          const pqxx::row counts =
              tx.exec_params1(kPruneBatchSql, practice, cutoff_us, settings_.batch);
          tx.commit();
          return PrunedLogs{counts[0].as<int64_t>(), counts[1].as<int64_t>()};
        });
    if (!batch.ok()) return batch.status();
    if (batch->tables < 0) return false;
    pruned.tables += batch->tables;
    pruned.rows += batch->rows;
    metrics_.tables_pruned.Add({{"kind", KindOf(practice)}})
        .Increment(static_cast<double>(batch->tables));
    metrics_.rows_pruned.Add({{"kind", KindOf(practice)}})
        .Increment(static_cast<double>(batch->rows));
    if (batch->tables < settings_.batch) return true;
  }
}

absl::Status LogRetention::CountKept() {
  // One row per table, so this reads table_tables, never the logs themselves.
  auto counts =
      pool_.RunReturning([&](pqxx::connection& connection) -> absl::StatusOr<pqxx::result> {
        pqxx::nontransaction tx(connection);
        return tx.exec(
            "SELECT practice, coalesce(sum(last_seq + 1), 0)::bigint FROM table_tables "
            "GROUP BY practice");
      });
  if (!counts.ok()) return counts.status();
  double kept[2] = {0, 0};
  for (const pqxx::row& row : *counts) kept[row[0].as<bool>() ? 1 : 0] = row[1].as<double>();
  metrics_.rows_kept.Add({{"kind", "practice"}}).Set(kept[1]);
  metrics_.rows_kept.Add({{"kind", "rated"}}).Set(kept[0]);
  return absl::OkStatus();
}

}  // namespace kahve::table

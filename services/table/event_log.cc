#include "services/table/event_log.h"

#include <algorithm>
#include <utility>

#include "absl/hash/hash.h"
#include "services/table/log_writer.h"
#include "services/table/table_metrics.h"
#include "services/table/table_queries.h"

namespace kahve::table {

EventLog::EventLog(EventLogSettings settings, common::PgPool& pool, prometheus::Registry& registry)
    : settings_(std::move(settings)), pool_(pool) {
  // The histograms belong to the registry: the writers keep pointers to them.
  EventLogMetrics metrics(registry);
  const int writers = std::max(1, settings_.writers);
  for (int i = 0; i < writers; ++i) {
    writers_.push_back(std::make_unique<LogWriter>(LogWriterSettings{
        .url = settings_.url,
        .host_id = settings_.host_id,
        .index = i,
        .max_batch = settings_.max_batch,
        .retry_initial_backoff = settings_.retry_initial_backoff,
        .retry_max_backoff = settings_.retry_max_backoff,
        .stop_flush_timeout = settings_.shutdown_flush_timeout,
        .clock = settings_.clock,
        .commit_seconds = &metrics.commit_seconds,
        .batch_size = &metrics.batch_size,
    }));
  }
}

EventLog::~EventLog() { Shutdown(); }

void EventLog::CreateTable(TableRow row, std::string created_entry_bytes, Done done) {
  row.host_id = settings_.host_id;
  row.last_seq = 0;
  row.finished_us.reset();
  LogWriter& writer = WriterFor(row.table_id);
  std::string table_id = row.table_id;
  const absl::Status queued = writer.Enqueue(LogWrite{.table_id = std::move(table_id),
                                                       .seq = 0,
                                                       .entry = std::move(created_entry_bytes),
                                                       .created = std::move(row),
                                                       .done = done});
  if (!queued.ok()) done(queued);
}

absl::Status EventLog::Append(std::string table_id, int64_t epoch, uint64_t seq,
                              std::string entry_bytes, std::optional<Finished> finished,
                              Done done) {
  LogWriter& writer = WriterFor(table_id);
  return writer.Enqueue(LogWrite{.table_id = std::move(table_id),
                          .seq = static_cast<int64_t>(seq),
                          .epoch = epoch,
                          .entry = std::move(entry_bytes),
                          .finished = std::move(finished),
                          .done = std::move(done)});
}

void EventLog::Shutdown() {
  // Stopping flags every writer first, then joins, so the writers flush in parallel.
  for (const std::unique_ptr<LogWriter>& writer : writers_) writer->BeginStop();
  for (const std::unique_ptr<LogWriter>& writer : writers_) writer->Stop();
}

int64_t EventLog::PendingWrites() const {
  int64_t pending = 0;
  for (const std::unique_ptr<LogWriter>& writer : writers_) pending += writer->Pending();
  return pending;
}

absl::StatusOr<std::vector<StoredTable>> EventLog::ClaimOwn() {
  return ClaimOwnTables(pool_, settings_.host_id);
}

absl::StatusOr<std::vector<ClaimedTable>> EventLog::ClaimLapsed(absl::Duration lease, int limit) {
  return ClaimLapsedTables(pool_, settings_.host_id, lease, limit);
}

absl::StatusOr<int> EventLog::FairShareOfLapsed(absl::Duration lease) {
  return table::FairShareOfLapsed(pool_, settings_.host_id, lease);
}

absl::StatusOr<TableClaim> EventLog::ClaimTable(const std::string& table_id,
                                                 absl::Duration lease) {
  return table::ClaimTable(pool_, settings_.host_id, table_id, lease);
}

absl::StatusOr<int> EventLog::Release() { return ReleaseTables(pool_, settings_.host_id); }

absl::StatusOr<absl::flat_hash_map<std::string, int64_t>> EventLog::Held() {
  return HeldTables(pool_, settings_.host_id);
}

absl::StatusOr<StoredTable> EventLog::LoadTable(const std::string& table_id) {
  return LoadStoredTable(pool_, table_id);
}

absl::Status EventLog::Heartbeat(const std::string& host_id, const std::string& endpoint,
                                 int live_tables, bool draining) {
  return UpsertHost(pool_, HostRow{.host_id = host_id,
                                   .endpoint = endpoint,
                                   .live_tables = live_tables,
                                   .draining = draining});
}

absl::StatusOr<std::vector<HostRow>> EventLog::LiveHosts(absl::Duration max_age) {
  return HostsSeenWithin(pool_, max_age);
}

absl::StatusOr<std::vector<MatchTable>> EventLog::TablesOfMatches(
    const std::vector<std::string>& match_ids) {
  return table::TablesOfMatches(pool_, match_ids);
}

LogWriter& EventLog::WriterFor(const std::string& table_id) {
  if (writers_.size() == 1) return *writers_.front();
  return *writers_[absl::Hash<std::string>{}(table_id) % writers_.size()];
}

}  // namespace kahve::table

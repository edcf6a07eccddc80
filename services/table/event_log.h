#ifndef KAHVE_SERVICES_TABLE_EVENT_LOG_H_
#define KAHVE_SERVICES_TABLE_EVENT_LOG_H_

// The table service's durable storage: every table's log in PostgreSQL (migrations/0004_table.sql).
// A table's creation (seq 0) and each accepted move or seat change (seq 1, 2, ...) are appended
// here, and the caller acknowledges a move only once its Done reports OK: by then the write is
// committed with synchronous_commit, so a kill -9 at any moment loses no acknowledged move.
// Writes of many tables share one commit (group commit): each writer thread takes everything queued
// while its previous batch was committing. Also the start-up load (replay) and the host registry.

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "services/common/clock.h"
#include "services/common/pg_pool.h"
#include "absl/container/flat_hash_map.h"
#include "services/table/log_batch.h"
#include "services/table/table_ownership.h"
#include "services/table/table_store_types.h"

namespace prometheus {
class Histogram;
class Registry;
}  // namespace prometheus

namespace kahve::table {

class LogWriter;

struct EventLogSettings {
  // PostgreSQL URL for the writers' own connections (each writer holds one for good).
  std::string url;
  // This host: the owner written into the tables it creates.
  std::string host_id;
  // Group-commit threads. A table always goes to the same writer, so its entries commit in order.
  int writers = 1;
  // The most writes one transaction takes.
  int max_batch = 512;
  // A failed commit is retried after this, doubling up to retry_max_backoff, until it succeeds.
  absl::Duration retry_initial_backoff = absl::Milliseconds(20);
  absl::Duration retry_max_backoff = absl::Seconds(1);
  // How long Shutdown keeps retrying while the database is away before failing what is left.
  absl::Duration shutdown_flush_timeout = absl::Seconds(10);
  // What the retries' backoff and the shutdown flush timeout wait on. Not owned.
  common::Clock* clock = common::RealClock();
};

class EventLog {
 public:
  // Starts the writers (they connect on their first batch). `pool` serves the loads and the host
  // registry; it must outlive the log. Registers kahve_event_log_commit_seconds and
  // kahve_event_log_batch_size in `registry`.
  EventLog(EventLogSettings settings, common::PgPool& pool, prometheus::Registry& registry);
  // Shutdown().
  ~EventLog();
  EventLog(const EventLog&) = delete;
  EventLog& operator=(const EventLog&) = delete;

  // Writes the table's row (row.host_id is replaced by this host) and its seq 0 entry, atomically.
  // `done` (on a writer thread, once committed) gets OK, or AlreadyExists when row.match_id already
  // has a table (the message and existing_table_id name it; nothing is written) or the table id
  // is taken. Creating a table again with the same ids and entry is OK (an idempotent retry).
  void CreateTable(TableRow row, std::string created_entry_bytes, Done done);

  // Appends entry `seq` to the table's log; with `finished`, also marks the table finished and
  // queues the result in the outbox, in the same transaction. `epoch` is the owner epoch this host
  // holds the table at (1 for a table it created, else its claim's). `done` (on a writer thread,
  // once committed) gets OK, NotFound for an unknown table, AlreadyExists when the seq holds a
  // different entry, Aborted and `fenced` when another host has claimed the table since (nothing
  // is written). Writes to one table commit in the order they were appended. Returns UNAVAILABLE
  // when the log is shut down: then nothing is queued and `done` is never called (so a caller
  // holding a lock is never called back on its own thread).
  [[nodiscard]] absl::Status Append(std::string table_id, int64_t epoch, uint64_t seq,
                                    std::string entry_bytes, std::optional<Finished> finished,
                                    Done done);

  // Commits everything queued, then stops the writers; later writes fail with Unavailable. A
  // database still away after shutdown_flush_timeout fails the rest with Unavailable. Idempotent.
  void Shutdown();

  // Writes queued or being committed (for back-pressure).
  int64_t PendingWrites() const;

  // Ownership (table_ownership.h), for this host. At start: this host's unfinished tables,
  // claimed anew, with their whole logs for replay (DataLoss naming a table whose log has a gap or
  // ends before its last_seq).
  absl::StatusOr<std::vector<StoredTable>> ClaimOwn();
  // Up to `limit` tables no live host holds (handed off, or their host silent past `lease`).
  absl::StatusOr<std::vector<ClaimedTable>> ClaimLapsed(absl::Duration lease, int limit);
  // This host's fair share of the lapsed tables now (FairShareOfLapsed).
  absl::StatusOr<int> FairShareOfLapsed(absl::Duration lease);
  // One table a call asked for: claimed when no other live host holds it, loaded when finished,
  // else the holder's endpoint (table_ownership.h).
  absl::StatusOr<TableClaim> ClaimTable(const std::string& table_id, absl::Duration lease);
  // Hands off this host's unfinished tables and leaves the registry (draining).
  absl::StatusOr<int> Release();
  // This host's unfinished tables as the database has them, with their epochs.
  absl::StatusOr<absl::flat_hash_map<std::string, int64_t>> Held();
  // One table, finished or not, with its whole log (replays); NotFound when absent.
  absl::StatusOr<StoredTable> LoadTable(const std::string& table_id);

  // Registers or refreshes a table host for matchmaking (heartbeat time: the database's clock).
  absl::Status Heartbeat(const std::string& host_id, const std::string& endpoint, int live_tables,
                         bool draining);
  // Hosts whose last heartbeat is at most `max_age` old (draining ones included, flagged), by id.
  absl::StatusOr<std::vector<HostRow>> LiveHosts(absl::Duration max_age);
  // The tables of those of `match_ids` that have one, finished or not, on any host.
  absl::StatusOr<std::vector<MatchTable>> TablesOfMatches(
      const std::vector<std::string>& match_ids);

  const std::string& host_id() const { return settings_.host_id; }

 private:
  LogWriter& WriterFor(const std::string& table_id);

  const EventLogSettings settings_;
  common::PgPool& pool_;
  std::vector<std::unique_ptr<LogWriter>> writers_;
};

}  // namespace kahve::table

#endif  // KAHVE_SERVICES_TABLE_EVENT_LOG_H_

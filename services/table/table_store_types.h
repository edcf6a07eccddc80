#ifndef KAHVE_SERVICES_TABLE_TABLE_STORE_TYPES_H_
#define KAHVE_SERVICES_TABLE_TABLE_STORE_TYPES_H_

// The rows of the table service's storage (migrations/0004_table.sql), as the event log writes
// and reads them. Times are microseconds since the Unix epoch.

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"

namespace kahve::table {

// A row of table_tables.
struct TableRow {
  std::string table_id;
  // Ignored by EventLog::CreateTable, which writes its own host id.
  std::string host_id;
  std::string match_id;
  std::string ruleset;
  int64_t created_us = 0;
  std::optional<int64_t> finished_us;
  int64_t last_seq = 0;
  // Bumped by every change of host (migrations/0011_table_ownership.sql): the host's claim on the
  // table, which each of its appends must still match.
  int64_t owner_epoch = 1;
  // A practice table (its log is kept a shorter time: docs/operations.md, "Retention").
  bool practice = false;
};

// A table and its whole log: entries[i] is the entry with seq i (entries[0], the creation).
struct StoredTable {
  TableRow row;
  std::vector<std::string> entries;
};

// The end of a game, written with the table's last entry: the table is marked finished and the
// result queued in the outbox for the rating service.
struct Finished {
  int64_t finished_us = 0;
  std::string match_id;
  // A serialized kahve.v1.RecordMatchRequest; empty for a practice table (never rated).
  std::string record_match_request_bytes;
};

// A row of table_hosts.
struct HostRow {
  std::string host_id;
  std::string endpoint;
  int live_tables = 0;
  int64_t heartbeat_us = 0;
  bool draining = false;
};

// The table of a match, and whether its game has ended.
struct MatchTable {
  std::string match_id;
  std::string table_id;
  bool over = false;
};

// What became of one log write: committed, or refused and why. The reasons a caller acts on are
// fields, not payloads of the status.
struct WriteOutcome {
  // Implicit: most outcomes are a plain status (OK once committed).
  WriteOutcome(absl::Status status = absl::OkStatus()) : status(std::move(status)) {}  // NOLINT
  bool ok() const { return status.ok(); }

  // OK once durably committed; otherwise the refusal, its message fit for logs and callers.
  absl::Status status;
  // Refused because another host has claimed the table since (the log's fence): nothing written.
  bool fenced = false;
  // A creation refused because its match already has this table ("" otherwise).
  std::string existing_table_id;
};

// Told the outcome of a write once it is durably committed or refused.
using Done = std::function<void(const WriteOutcome&)>;

}  // namespace kahve::table

#endif  // KAHVE_SERVICES_TABLE_TABLE_STORE_TYPES_H_

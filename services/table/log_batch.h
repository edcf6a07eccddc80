#ifndef KAHVE_SERVICES_TABLE_LOG_BATCH_H_
#define KAHVE_SERVICES_TABLE_LOG_BATCH_H_

// The SQL of one group commit: many tables' writes in one transaction, in a few statements whatever
// the batch size (rows travel as arrays the statements unnest). Written so that running a batch
// again after a commit whose reply was lost finds its own rows and reports success.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/types/span.h"
#include "pqxx/pqxx"
#include "services/table/table_store_types.h"

namespace kahve::table {

// One queued write: an entry appended to a table's log, or (with `created`) a table's creation
// together with its seq 0 entry.
struct LogWrite {
  std::string table_id;
  int64_t seq = 0;
  // The owner epoch the writing host claimed the table with (1 for a table it creates).
  int64_t epoch = 1;
  std::string entry;
  std::optional<TableRow> created;
  std::optional<Finished> finished;
  Done done;
};

// Prepares the statements WriteLogBatch runs; once per connection.
void PrepareLogBatchStatements(pqxx::connection& connection);

// Writes `batch` in one transaction and commits it. Returns each write's outcome, in batch order:
// OK when written (or found already written, with the same bytes, by an earlier attempt);
// AlreadyExists when a creation's match id or table id is taken (no part of it is written;
// existing_table_id names the match's table) or the seq already holds a different entry; NotFound
// for an entry of a table that does not exist; Aborted and `fenced` when `host_id` no longer holds
// the table at the write's epoch (another host claimed it): the entry is not written. A refused
// write never affects the others.
// Throws libpqxx's exceptions when the database fails: nothing is committed then (or the outcome
// is unknown), and the connection must be discarded.
std::vector<WriteOutcome> WriteLogBatch(pqxx::connection& connection,
                                        absl::Span<const LogWrite> batch,
                                        const std::string& host_id);

}  // namespace kahve::table

#endif  // KAHVE_SERVICES_TABLE_LOG_BATCH_H_

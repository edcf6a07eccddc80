#include "services/table/log_batch.h"

#include <utility>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/cord.h"
#include "absl/strings/str_cat.h"
#include "services/common/pg_arrays.h"

namespace kahve::table {

using common::HexArrayLiteral;
using common::Int64ArrayLiteral;
using common::kNowUsSql;
using common::BoolArrayLiteral;
using common::TextArrayLiteral;
namespace {

// Inserts the tables that are free; returns the ones that are not, with who holds their match id
// and table id. The joins read the snapshot from before the insert, so they see only rows that
// were there already: an earlier attempt's, or another creation's.
constexpr char kCreateTables[] = "table_log_create_tables";
constexpr char kCreateTablesSql[] =
    "WITH input AS ("
    "  SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::bigint[], $6::boolean[])"
    "    WITH ORDINALITY AS u(table_id, match_id, ruleset, created_us, practice, ord)"
    "), created AS ("
    "  INSERT INTO table_tables"
    "    (table_id, host_id, match_id, ruleset, created_us, last_seq, practice)"
    "  SELECT table_id, $5, match_id, ruleset, created_us, 0, practice FROM input ORDER BY ord"
    "  ON CONFLICT DO NOTHING RETURNING table_id"
    ") "
    "SELECT i.ord, by_match.table_id, by_table.match_id FROM input i"
    "  LEFT JOIN table_tables by_match ON by_match.match_id = i.match_id"
    "  LEFT JOIN table_tables by_table ON by_table.table_id = i.table_id"
    "  WHERE i.table_id NOT IN (SELECT table_id FROM created)";

// Inserts the entries of tables this host holds at the entries' epochs, moves each table's
// last_seq, and returns the positions of the entries it did not insert. Only those need a closer
// look (kDiagnoseEntries): the common case costs no extra lookup.
// `held` is the fence: it locks each table's row until the commit, so a claim by another host
// either committed first (the row is re-read under the lock and no longer matches: nothing is
// written) or waits for this commit (and then replays a log that includes it). In table id order,
// so two transactions never lock the same rows in opposite orders.
constexpr char kAppendEntries[] = "table_log_append_entries";
constexpr char kAppendEntriesSql[] =
    "WITH input AS ("
    "  SELECT u.table_id, u.seq, decode(u.entry_hex, 'hex') AS entry, u.epoch, u.ord"
    "  FROM unnest($1::text[], $2::bigint[], $3::text[], $4::bigint[])"
    "    WITH ORDINALITY AS u(table_id, seq, entry_hex, epoch, ord)"
    "), held AS MATERIALIZED ("
    "  SELECT t.table_id, t.owner_epoch FROM table_tables t"
    "  WHERE t.table_id IN (SELECT table_id FROM input) AND t.host_id = $5"
    "  ORDER BY t.table_id FOR NO KEY UPDATE"
    "), inserted AS ("
    "  INSERT INTO table_log (table_id, seq, entry)"
    "  SELECT i.table_id, i.seq, i.entry FROM input i"
    "  WHERE EXISTS (SELECT 1 FROM held h"
    "                WHERE h.table_id = i.table_id AND h.owner_epoch = i.epoch)"
    "  ORDER BY i.ord"
    "  ON CONFLICT (table_id, seq) DO NOTHING RETURNING table_id, seq"
    "), advanced AS ("
    "  UPDATE table_tables t SET last_seq = GREATEST(t.last_seq, n.last_seq)"
    "  FROM (SELECT table_id, max(seq) AS last_seq FROM inserted GROUP BY table_id) n"
    "  WHERE t.table_id = n.table_id"
    ") "
    "SELECT i.ord FROM input i WHERE NOT EXISTS ("
    "  SELECT 1 FROM inserted n WHERE n.table_id = i.table_id AND n.seq = i.seq)";

// For entries not inserted: whether their table exists, whether the stored entry is the same, and
// whether this host still holds the table at the entry's epoch.
constexpr char kDiagnoseEntries[] = "table_log_diagnose_entries";
constexpr char kDiagnoseEntriesSql[] =
    "SELECT u.ord, t.table_id IS NOT NULL,"
    "  l.entry IS NOT DISTINCT FROM decode(u.entry_hex, 'hex'),"
    "  t.host_id IS NOT DISTINCT FROM $6 AND t.owner_epoch IS NOT DISTINCT FROM u.epoch"
    "  FROM unnest($1::text[], $2::bigint[], $3::text[], $4::bigint[], $5::bigint[])"
    "    AS u(table_id, seq, entry_hex, epoch, ord)"
    "  LEFT JOIN table_tables t ON t.table_id = u.table_id"
    "  LEFT JOIN table_log l ON l.table_id = u.table_id AND l.seq = u.seq";

// Marks tables finished and queues their results (none for a practice table, whose payload is
// empty). Both idempotent, for a repeated batch.
constexpr char kFinishTables[] = "table_log_finish_tables";
const std::string& FinishTablesSql() {
  static const std::string* sql = new std::string(absl::StrCat(
      "WITH input AS ("
      "  SELECT * FROM unnest($1::text[], $2::bigint[], $3::text[], $4::text[])"
      "    AS u(table_id, finished_us, match_id, payload_hex)"
      "), marked AS ("
      "  UPDATE table_tables t SET finished_us = i.finished_us FROM input i"
      "  WHERE t.table_id = i.table_id AND t.finished_us IS NULL"
      ") "
      "INSERT INTO table_outbox (match_id, payload, created_us, attempts, next_attempt_us) "
      "SELECT match_id, decode(payload_hex, 'hex'), ",
      kNowUsSql, ", 0, ", kNowUsSql,
      " FROM input WHERE payload_hex <> '' ON CONFLICT (match_id) DO NOTHING"));
  return *sql;
}

WriteOutcome Fenced(const std::string& table_id, int64_t epoch) {
  WriteOutcome outcome(absl::AbortedError(absl::StrCat(
      "table ", table_id, " is no longer held by this host at epoch ", epoch, "; not written")));
  outcome.fenced = true;
  return outcome;
}

WriteOutcome MatchTaken(const std::string& match_id, const std::string& table_id) {
  WriteOutcome outcome(
      absl::AlreadyExistsError(absl::StrCat("match ", match_id, " already has table ", table_id)));
  outcome.existing_table_id = table_id;
  return outcome;
}

// Refuses creations that clash with an earlier creation of the same batch (the database would
// only report them as conflicts with rows it cannot show yet); the rest go to kCreateTables.
void CreateTables(pqxx::transaction_base& tx, absl::Span<const LogWrite> batch,
                  const std::string& host_id, std::vector<WriteOutcome>& outcomes) {
  absl::flat_hash_map<std::string, const std::string*> table_of_match;
  absl::flat_hash_map<std::string, const std::string*> match_of_table;
  std::vector<size_t> positions;
  std::vector<std::string> table_ids, match_ids, rulesets;
  std::vector<int64_t> created_us;
  std::vector<bool> practice;
  for (size_t i = 0; i < batch.size(); ++i) {
    if (!batch[i].created.has_value()) continue;
    const TableRow& row = *batch[i].created;
    const auto match = table_of_match.find(row.match_id);
    if (match != table_of_match.end()) {
      outcomes[i] = MatchTaken(row.match_id, *match->second);
      continue;
    }
    if (match_of_table.contains(batch[i].table_id)) {
      outcomes[i] = absl::AlreadyExistsError(
          absl::StrCat("table ", batch[i].table_id, " is already being created"));
      continue;
    }
    table_of_match[row.match_id] = &batch[i].table_id;
    match_of_table[batch[i].table_id] = &row.match_id;
    positions.push_back(i);
    table_ids.push_back(batch[i].table_id);
    match_ids.push_back(row.match_id);
    rulesets.push_back(row.ruleset);
    created_us.push_back(row.created_us);
    practice.push_back(row.practice);
  }
  if (positions.empty()) return;
  const pqxx::result refused =
      tx.exec_prepared(kCreateTables, TextArrayLiteral(table_ids), TextArrayLiteral(match_ids),
                       TextArrayLiteral(rulesets), Int64ArrayLiteral(created_us), host_id,
                       BoolArrayLiteral(practice));
  for (const pqxx::row& row : refused) {
    const size_t i = positions[row[0].as<size_t>() - 1];
    const std::string& table_id = batch[i].table_id;
    const std::string& match_id = batch[i].created->match_id;
    const std::string holder = row[1].is_null() ? "" : row[1].as<std::string>();
    if (holder == table_id) continue;  // this very table, from an earlier attempt or call
    if (!holder.empty()) {
      outcomes[i] = MatchTaken(match_id, holder);
    } else if (!row[2].is_null()) {
      outcomes[i] = absl::AlreadyExistsError(
          absl::StrCat("table id ", table_id, " is taken by match ", row[2].as<std::string>()));
    } else {
      outcomes[i] = absl::AlreadyExistsError(
          absl::StrCat("match ", match_id, " or table id ", table_id, " was created concurrently"));
    }
  }
}

void AppendEntries(pqxx::transaction_base& tx, absl::Span<const LogWrite> batch,
                   const std::string& host_id, std::vector<WriteOutcome>& outcomes) {
  std::vector<size_t> positions;
  std::vector<std::string> table_ids;
  std::vector<int64_t> seqs, epochs;
  std::vector<const std::string*> entries;
  for (size_t i = 0; i < batch.size(); ++i) {
    if (!outcomes[i].ok()) continue;
    positions.push_back(i);
    table_ids.push_back(batch[i].table_id);
    seqs.push_back(batch[i].seq);
    epochs.push_back(batch[i].epoch);
    entries.push_back(&batch[i].entry);
  }
  if (positions.empty()) return;
  const std::string table_array = TextArrayLiteral(table_ids);
  const std::string seq_array = Int64ArrayLiteral(seqs);
  const std::string entry_array = HexArrayLiteral(entries);
  const pqxx::result not_inserted = tx.exec_prepared(kAppendEntries, table_array, seq_array,
                                                     entry_array, Int64ArrayLiteral(epochs), host_id);
  if (not_inserted.empty()) return;
  std::vector<int64_t> batch_positions;
  std::vector<std::string> diagnose_tables;
  std::vector<int64_t> diagnose_seqs, diagnose_epochs;
  std::vector<const std::string*> diagnose_entries;
  for (const pqxx::row& row : not_inserted) {
    const size_t i = positions[row[0].as<size_t>() - 1];
    batch_positions.push_back(static_cast<int64_t>(i));
    diagnose_tables.push_back(batch[i].table_id);
    diagnose_seqs.push_back(batch[i].seq);
    diagnose_epochs.push_back(batch[i].epoch);
    diagnose_entries.push_back(&batch[i].entry);
  }
  for (const pqxx::row& row : tx.exec_prepared(
           kDiagnoseEntries, TextArrayLiteral(diagnose_tables), Int64ArrayLiteral(diagnose_seqs),
           HexArrayLiteral(diagnose_entries), Int64ArrayLiteral(diagnose_epochs),
           Int64ArrayLiteral(batch_positions), host_id)) {
    const size_t i = row[0].as<size_t>();
    const bool table_known = row[1].as<bool>();
    const bool same_entry = row[2].as<bool>();
    const bool held = row[3].as<bool>();
    if (!table_known) {
      outcomes[i] = absl::NotFoundError(absl::StrCat("table ", batch[i].table_id, " not found"));
    } else if (same_entry) {
      // Written already (a repeated batch, or the same deterministic entry by the table's new
      // host): it is durable either way.
    } else if (!held) {
      outcomes[i] = Fenced(batch[i].table_id, batch[i].epoch);
    } else {
      outcomes[i] = absl::AlreadyExistsError(absl::StrCat(
          "seq ", batch[i].seq, " of table ", batch[i].table_id, " holds a different entry"));
    }
  }
}

void FinishTables(pqxx::transaction_base& tx, absl::Span<const LogWrite> batch,
                  const std::vector<WriteOutcome>& outcomes) {
  std::vector<std::string> table_ids, match_ids;
  std::vector<int64_t> finished_us;
  std::vector<const std::string*> payloads;
  for (size_t i = 0; i < batch.size(); ++i) {
    if (!outcomes[i].ok() || !batch[i].finished.has_value()) continue;
    table_ids.push_back(batch[i].table_id);
    finished_us.push_back(batch[i].finished->finished_us);
    match_ids.push_back(batch[i].finished->match_id);
    payloads.push_back(&batch[i].finished->record_match_request_bytes);
  }
  if (table_ids.empty()) return;
  tx.exec_prepared0(kFinishTables, TextArrayLiteral(table_ids), Int64ArrayLiteral(finished_us),
                    TextArrayLiteral(match_ids), HexArrayLiteral(payloads));
}

}  // namespace

void PrepareLogBatchStatements(pqxx::connection& connection) {
  connection.prepare(kCreateTables, kCreateTablesSql);
  connection.prepare(kAppendEntries, kAppendEntriesSql);
  connection.prepare(kDiagnoseEntries, kDiagnoseEntriesSql);
  connection.prepare(kFinishTables, FinishTablesSql());
}

std::vector<WriteOutcome> WriteLogBatch(pqxx::connection& connection,
                                        absl::Span<const LogWrite> batch,
                                        const std::string& host_id) {
  std::vector<WriteOutcome> outcomes(batch.size());
  // One transaction whatever the batch size: BEGIN, two to four statements, COMMIT. The COMMIT
  // waits for the WAL flush (synchronous_commit), which is what makes the batch durable.
  pqxx::nontransaction tx(connection);
  tx.exec0("BEGIN");
  CreateTables(tx, batch, host_id, outcomes);
  AppendEntries(tx, batch, host_id, outcomes);
  FinishTables(tx, batch, outcomes);
  tx.exec0("COMMIT");
  return outcomes;
}

}  // namespace kahve::table

#include "services/table/table_queries.h"

#include <utility>

#include "absl/strings/str_cat.h"
#include "services/common/pg_arrays.h"

namespace kahve::table {

using common::kNowUsSql;
namespace {

// Tables with their entries in one statement, so the rows and the logs come from one snapshot.
// LEFT JOIN: a table without entries would be a broken log, to be reported, not skipped.
constexpr char kTableColumns[] =
    "SELECT t.table_id, t.host_id, t.match_id, t.ruleset, t.created_us, t.finished_us, "
    "t.last_seq, l.seq, l.entry, t.owner_epoch FROM table_tables t "
    "LEFT JOIN table_log l ON l.table_id = t.table_id ";
constexpr char kOneTable[] = "WHERE t.table_id = $1 ";
constexpr char kTablesById[] = "WHERE t.table_id = ANY($1::text[]) ";
constexpr char kInLogOrder[] = "ORDER BY t.table_id, l.seq";

TableRow ReadTableRow(const pqxx::row& row) {
  TableRow table;
  table.table_id = row[0].as<std::string>();
  table.host_id = row[1].as<std::string>();
  table.match_id = row[2].as<std::string>();
  table.ruleset = row[3].as<std::string>();
  table.created_us = row[4].as<int64_t>();
  if (!row[5].is_null()) table.finished_us = row[5].as<int64_t>();
  table.last_seq = row[6].as<int64_t>();
  table.owner_epoch = row[9].as<int64_t>();
  return table;
}

absl::Status CheckComplete(const StoredTable& table) {
  if (static_cast<int64_t>(table.entries.size()) != table.row.last_seq + 1) {
    return absl::DataLossError(absl::StrCat("the log of table ", table.row.table_id, " has ",
                                            table.entries.size(), " entries, last_seq is ",
                                            table.row.last_seq));
  }
  return absl::OkStatus();
}

// Groups rows ordered by (table, seq) into tables, checking that each log runs 0, 1, 2, ...
absl::StatusOr<std::vector<StoredTable>> GroupTables(const pqxx::result& rows) {
  std::vector<StoredTable> tables;
  for (const pqxx::row& row : rows) {
    const std::string table_id = row[0].as<std::string>();
    if (tables.empty() || tables.back().row.table_id != table_id) {
      if (!tables.empty()) {
        const absl::Status complete = CheckComplete(tables.back());
        if (!complete.ok()) return complete;
      }
      tables.push_back(StoredTable{.row = ReadTableRow(row)});
    }
    StoredTable& table = tables.back();
    if (row[7].is_null()) continue;  // no entries: CheckComplete reports it
    const int64_t seq = row[7].as<int64_t>();
    if (seq != static_cast<int64_t>(table.entries.size())) {
      return absl::DataLossError(absl::StrCat("the log of table ", table_id, " lacks seq ",
                                              table.entries.size(), " (next is ", seq, ")"));
    }
    table.entries.push_back(pqxx::binarystring(row[8]).str());
  }
  if (!tables.empty()) {
    const absl::Status complete = CheckComplete(tables.back());
    if (!complete.ok()) return complete;
  }
  return tables;
}

}  // namespace

absl::StatusOr<std::vector<StoredTable>> LoadTables(common::PgPool& pool,
                                                    const std::vector<std::string>& table_ids) {
  if (table_ids.empty()) return std::vector<StoredTable>();
  return pool.RunReturning([&](pqxx::connection& connection) {
    pqxx::nontransaction tx(connection);
    return GroupTables(tx.exec_params(absl::StrCat(kTableColumns, kTablesById, kInLogOrder),
                                      common::TextArrayLiteral(table_ids)));
  });
}

absl::StatusOr<StoredTable> LoadStoredTable(common::PgPool& pool, const std::string& table_id) {
  absl::StatusOr<std::vector<StoredTable>> tables =
      pool.RunReturning([&](pqxx::connection& connection) {
        pqxx::nontransaction tx(connection);
        return GroupTables(
            tx.exec_params(absl::StrCat(kTableColumns, kOneTable, kInLogOrder), table_id));
      });
  if (!tables.ok()) return tables.status();
  if (tables->empty()) return absl::NotFoundError(absl::StrCat("table ", table_id, " not found"));
  return std::move(tables->front());
}

absl::Status UpsertHost(common::PgPool& pool, const HostRow& host) {
  static const std::string* sql = new std::string(absl::StrCat(
      "INSERT INTO table_hosts (host_id, endpoint, live_tables, heartbeat_us, draining) "
      "VALUES ($1, $2, $3, ",
      kNowUsSql,
      ", $4) ON CONFLICT (host_id) DO UPDATE SET endpoint = excluded.endpoint, "
      "live_tables = excluded.live_tables, heartbeat_us = excluded.heartbeat_us, "
      "draining = excluded.draining"));
  return pool.Run([&](pqxx::connection& connection) {
    pqxx::nontransaction tx(connection);
    tx.exec_params0(*sql, host.host_id, host.endpoint, host.live_tables, host.draining);
    return absl::OkStatus();
  });
}

absl::StatusOr<std::vector<HostRow>> HostsSeenWithin(common::PgPool& pool, absl::Duration max_age) {
  static const std::string* sql =
      new std::string(absl::StrCat("SELECT host_id, endpoint, live_tables, heartbeat_us, draining "
                                   "FROM table_hosts WHERE heartbeat_us >= ",
                                   kNowUsSql, " - $1 ORDER BY host_id"));
  using Hosts = std::vector<HostRow>;
  return pool.RunReturning([&](pqxx::connection& connection) -> absl::StatusOr<Hosts> {
    Hosts hosts;
    pqxx::nontransaction tx(connection);
    for (const pqxx::row& row : tx.exec_params(*sql, absl::ToInt64Microseconds(max_age))) {
      hosts.push_back(HostRow{.host_id = row[0].as<std::string>(),
                              .endpoint = row[1].as<std::string>(),
                              .live_tables = row[2].as<int>(),
                              .heartbeat_us = row[3].as<int64_t>(),
                              .draining = row[4].as<bool>()});
    }
    return hosts;
  });
}

absl::StatusOr<std::vector<MatchTable>> TablesOfMatches(common::PgPool& pool,
                                                        const std::vector<std::string>& match_ids) {
  using Tables = std::vector<MatchTable>;
  if (match_ids.empty()) return Tables();
  return pool.RunReturning([&](pqxx::connection& connection) -> absl::StatusOr<Tables> {
    Tables tables;
    pqxx::nontransaction tx(connection);
    for (const pqxx::row& row :
         tx.exec_params("SELECT match_id, table_id, finished_us IS NOT NULL FROM table_tables"
                        " WHERE match_id = ANY($1::text[])",
                        common::TextArrayLiteral(match_ids))) {
      tables.push_back(MatchTable{.match_id = row[0].as<std::string>(),
                                  .table_id = row[1].as<std::string>(),
                                  .over = row[2].as<bool>()});
    }
    return tables;
  });
}

}  // namespace kahve::table

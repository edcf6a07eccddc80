#include "services/table/table_ownership.h"

#include <utility>

#include "absl/strings/cord.h"
#include "absl/strings/str_cat.h"
#include "services/common/pg_arrays.h"
#include "services/table/table_queries.h"

namespace kahve::table {

using common::kNowUsSql;
namespace {

// "Another host held t and let go of it": handed off (''), or its host ($1 excepted) is silent past
// the lease ($2, microseconds) or gone from the registry. Silent as of the claimant's own last
// heartbeat when that is older than now: a claim that waited out a database outage (a call
// blocked on it) finds every heartbeat as old as its own, so none lapsed (docs/table.md, "When
// the database is away"). LEAST ignores the NULL of a claimant not yet registered.
const std::string& LapsedCondition() {
  static const std::string* sql = new std::string(absl::StrCat(
      "t.host_id <> $1 AND NOT EXISTS (SELECT 1 FROM table_hosts h WHERE h.host_id = t.host_id "
      "AND h.heartbeat_us >= LEAST(",
      kNowUsSql, ", (SELECT own.heartbeat_us FROM table_hosts own WHERE own.host_id = $1)) - $2)"));
  return *sql;
}

std::vector<std::string> IdsOf(const pqxx::result& rows) {
  std::vector<std::string> ids;
  ids.reserve(rows.size());
  for (const pqxx::row& row : rows) ids.push_back(row[0].as<std::string>());
  return ids;
}

}  // namespace

absl::StatusOr<std::vector<StoredTable>> ClaimOwnTables(common::PgPool& pool,
                                                        const std::string& host_id) {
  using Ids = std::vector<std::string>;
  auto claimed = pool.RunReturning([&](pqxx::connection& connection) -> absl::StatusOr<Ids> {
    pqxx::nontransaction tx(connection);
    return IdsOf(tx.exec_params(
        "UPDATE table_tables SET owner_epoch = owner_epoch + 1 "
        "WHERE host_id = $1 AND finished_us IS NULL RETURNING table_id",
        host_id));
  });
  if (!claimed.ok()) return claimed.status();
  return LoadTables(pool, *claimed);
}

absl::StatusOr<std::vector<ClaimedTable>> ClaimLapsedTables(common::PgPool& pool,
                                                            const std::string& host_id,
                                                            absl::Duration lease, int limit) {
  // Rows locked by an append or by another host's claim are skipped, never waited for: the next
  // pass looks again.
  static const std::string* sql = new std::string(absl::StrCat(
      "WITH lapsed AS ("
      "  SELECT t.table_id, t.host_id AS previous_host FROM table_tables t"
      "  WHERE t.finished_us IS NULL AND ",
      LapsedCondition(),
      "  ORDER BY t.created_us LIMIT $3 FOR UPDATE SKIP LOCKED"
      ") "
      "UPDATE table_tables t SET host_id = $1, owner_epoch = t.owner_epoch + 1 FROM lapsed l "
      "WHERE t.table_id = l.table_id RETURNING t.table_id, l.previous_host, ",
      kNowUsSql,
      " - (SELECT h.heartbeat_us FROM table_hosts h WHERE h.host_id = l.previous_host)"));
  struct Claim {
    std::string previous_host;
    std::optional<absl::Duration> silent_for;
  };
  using Claims = absl::flat_hash_map<std::string, Claim>;
  auto claims = pool.RunReturning([&](pqxx::connection& connection) -> absl::StatusOr<Claims> {
    pqxx::nontransaction tx(connection);
    Claims out;
    for (const pqxx::row& row :
         tx.exec_params(*sql, host_id, absl::ToInt64Microseconds(lease), limit)) {
      Claim& claim = out[row[0].as<std::string>()];
      claim.previous_host = row[1].as<std::string>();
      if (!row[2].is_null()) claim.silent_for = absl::Microseconds(row[2].as<int64_t>());
    }
    return out;
  });
  if (!claims.ok()) return claims.status();
  std::vector<std::string> ids;
  for (const auto& [table_id, claim] : *claims) ids.push_back(table_id);
  auto stored = LoadTables(pool, ids);
  if (!stored.ok()) return stored.status();
  std::vector<ClaimedTable> out;
  for (StoredTable& table : *stored) {
    Claim& claim = claims->at(table.row.table_id);
    out.push_back(ClaimedTable{.stored = std::move(table),
                               .previous_host = std::move(claim.previous_host),
                               .silent_for = claim.silent_for});
  }
  return out;
}

absl::StatusOr<int> FairShareOfLapsed(common::PgPool& pool, const std::string& host_id,
                                      absl::Duration lease) {
  static const std::string* sql = new std::string(absl::StrCat(
      "SELECT (SELECT count(*) FROM table_tables t WHERE t.finished_us IS NULL AND ",
      LapsedCondition(),
      "), (SELECT count(*) FROM table_hosts h WHERE h.host_id <> $1 AND NOT h.draining AND "
      "h.heartbeat_us >= ",
      kNowUsSql, " - $2)"));
  return pool.RunReturning([&](pqxx::connection& connection) -> absl::StatusOr<int> {
    pqxx::nontransaction tx(connection);
    const pqxx::row counts = tx.exec_params1(*sql, host_id, absl::ToInt64Microseconds(lease));
    const int64_t lapsed = counts[0].as<int64_t>();
    const int64_t hosts = counts[1].as<int64_t>() + 1;  // and this one
    return static_cast<int>((lapsed + hosts - 1) / hosts);
  });
}

absl::StatusOr<TableClaim> ClaimTable(common::PgPool& pool, const std::string& host_id,
                                      const std::string& table_id, absl::Duration lease) {
  static const std::string* claim_sql = new std::string(
      absl::StrCat("UPDATE table_tables t SET host_id = $1, owner_epoch = t.owner_epoch + 1 "
                   "WHERE t.table_id = $3 AND t.finished_us IS NULL AND ",
                   LapsedCondition(), " RETURNING t.table_id"));
  // Not claimed: why (unknown, finished, or held by a live host, and where that host serves).
  constexpr char kWhy[] =
      "SELECT t.finished_us IS NOT NULL, t.host_id, h.endpoint FROM table_tables t "
      "LEFT JOIN table_hosts h ON h.host_id = t.host_id WHERE t.table_id = $1";
  // The endpoint of the live host that holds the table, or nullopt when this host may load it.
  using Holder = std::optional<std::string>;
  auto holder = pool.RunReturning([&](pqxx::connection& connection) -> absl::StatusOr<Holder> {
    pqxx::nontransaction tx(connection);
    if (!tx.exec_params(*claim_sql, host_id, absl::ToInt64Microseconds(lease), table_id).empty()) {
      return std::nullopt;
    }
    const pqxx::result why = tx.exec_params(kWhy, table_id);
    if (why.empty()) return absl::NotFoundError(absl::StrCat("table ", table_id, " not found"));
    if (why[0][0].as<bool>()) return std::nullopt;  // finished: loaded as it is
    if (why[0][1].as<std::string>() == host_id) {
      // Claimed by this host a moment ago, for another call that is loading it now.
      return absl::UnavailableError(
          absl::StrCat("table ", table_id, " is being taken over here; retry shortly"));
    }
    return why[0][2].is_null() ? "" : why[0][2].as<std::string>();
  });
  if (!holder.ok()) return holder.status();
  if (holder->has_value()) return TableClaim{.holder_endpoint = **holder};
  auto stored = LoadTables(pool, {table_id});
  if (!stored.ok()) return stored.status();
  if (stored->empty()) return absl::NotFoundError(absl::StrCat("table ", table_id, " not found"));
  return TableClaim{.stored = std::move(stored->front())};
}

absl::StatusOr<int> ReleaseTables(common::PgPool& pool, const std::string& host_id) {
  return pool.RunReturning([&](pqxx::connection& connection) -> absl::StatusOr<int> {
    pqxx::work tx(connection);
    const pqxx::result released = tx.exec_params(
        "UPDATE table_tables SET host_id = '', owner_epoch = owner_epoch + 1 "
        "WHERE host_id = $1 AND finished_us IS NULL RETURNING table_id",
        host_id);
    tx.exec_params0("DELETE FROM table_hosts WHERE host_id = $1", host_id);
    tx.commit();
    return static_cast<int>(released.size());
  });
}

absl::StatusOr<absl::flat_hash_map<std::string, int64_t>> HeldTables(common::PgPool& pool,
                                                                    const std::string& host_id) {
  using Held = absl::flat_hash_map<std::string, int64_t>;
  return pool.RunReturning([&](pqxx::connection& connection) -> absl::StatusOr<Held> {
    pqxx::nontransaction tx(connection);
    Held held;
    for (const pqxx::row& row : tx.exec_params(
             "SELECT table_id, owner_epoch FROM table_tables "
             "WHERE host_id = $1 AND finished_us IS NULL",
             host_id)) {
      held[row[0].as<std::string>()] = row[1].as<int64_t>();
    }
    return held;
  });
}

}  // namespace kahve::table

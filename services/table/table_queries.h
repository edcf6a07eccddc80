#ifndef KAHVE_SERVICES_TABLE_TABLE_QUERIES_H_
#define KAHVE_SERVICES_TABLE_TABLE_QUERIES_H_

// The table service's reads of its logs and its host registry, over the service's pool (EventLog
// exposes them; they are here to keep the group commit's file about the group commit).

#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "services/common/pg_pool.h"
#include "services/table/table_store_types.h"

namespace kahve::table {

// The tables of `table_ids` that exist, by id, each with its whole log (DataLoss naming a table
// whose log has a gap or ends before its last_seq).
absl::StatusOr<std::vector<StoredTable>> LoadTables(common::PgPool& pool,
                                                    const std::vector<std::string>& table_ids);
absl::StatusOr<StoredTable> LoadStoredTable(common::PgPool& pool, const std::string& table_id);

absl::Status UpsertHost(common::PgPool& pool, const HostRow& host);
absl::StatusOr<std::vector<HostRow>> HostsSeenWithin(common::PgPool& pool, absl::Duration max_age);
// The tables of those of `match_ids` that have one.
absl::StatusOr<std::vector<MatchTable>> TablesOfMatches(common::PgPool& pool,
                                                        const std::vector<std::string>& match_ids);

}  // namespace kahve::table

#endif  // KAHVE_SERVICES_TABLE_TABLE_QUERIES_H_

#ifndef KAHVE_SERVICES_TABLE_TABLE_OWNERSHIP_H_
#define KAHVE_SERVICES_TABLE_TABLE_OWNERSHIP_H_

// Which host serves which table (docs/table.md, "Ownership"), as rows of table_tables: host_id
// and owner_epoch (migrations/0011_table_ownership.sql). A host claims a table by writing its own
// id and bumping the epoch; the log's appends are fenced on both (log_batch.cc), so whoever
// claimed last is the only one who can write. A host holds its tables while its heartbeat in
// table_hosts is younger than the lease; past it, or once it hands them off (host_id ''), any
// host may claim them. Times compare on the database's clock, so skewed hosts agree.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "services/common/pg_pool.h"
#include "services/table/table_store_types.h"

namespace kahve::table {

// A table claimed from a host that let go of it.
struct ClaimedTable {
  StoredTable stored;
  // Who held it: "" when it was handed off.
  std::string previous_host;
  // How long before the claim the previous host was last heard of (absent when handed off or
  // never heard of).
  std::optional<absl::Duration> silent_for;
};

// Claims every unfinished table `host_id` holds anew, bumping each epoch (an earlier run of the
// same host id, stalled rather than dead, can no longer write), and loads them for replay.
absl::StatusOr<std::vector<StoredTable>> ClaimOwnTables(common::PgPool& pool,
                                                        const std::string& host_id);

// Claims up to `limit` unfinished tables no live host holds (handed off, or their host silent for
// longer than `lease`), oldest first, skipping rows another host is claiming or appending to at
// this moment, and loads them.
absl::StatusOr<std::vector<ClaimedTable>> ClaimLapsedTables(common::PgPool& pool,
                                                            const std::string& host_id,
                                                            absl::Duration lease, int limit);

// What a host may claim in one round: the unfinished tables no live host holds, spread over the
// live hosts that take tables (heartbeat younger than `lease`, not draining; `host_id` counted
// among them), rounded up. So after a pause that silenced every host at once, no host takes
// them all.
absl::StatusOr<int> FairShareOfLapsed(common::PgPool& pool, const std::string& host_id,
                                      absl::Duration lease);

// What ClaimTable found for one table.
struct TableClaim {
  // The table, to serve here: claimed (unfinished) or loaded as it is (finished). Empty when a
  // live other host holds it.
  std::optional<StoredTable> stored;
  // Else where that host serves it ("" when it has not said where).
  std::string holder_endpoint;
};

// One table a call asked for: an unfinished table no live host holds (handed off, or its host
// silent past `lease`) is claimed; a finished one is loaded as it is; one a live other host holds
// is named with that host's endpoint. NOT_FOUND for an unknown table; UNAVAILABLE when this very
// host claimed it a moment ago for another call that is loading it now.
absl::StatusOr<TableClaim> ClaimTable(common::PgPool& pool, const std::string& host_id,
                                      const std::string& table_id, absl::Duration lease);

// Hands off every unfinished table of `host_id` (host_id '', epoch bumped) and removes the host
// from the registry, in one transaction; returns how many tables it let go.
absl::StatusOr<int> ReleaseTables(common::PgPool& pool, const std::string& host_id);

// The unfinished tables `host_id` holds, with their epochs.
absl::StatusOr<absl::flat_hash_map<std::string, int64_t>> HeldTables(common::PgPool& pool,
                                                                    const std::string& host_id);

}  // namespace kahve::table

#endif  // KAHVE_SERVICES_TABLE_TABLE_OWNERSHIP_H_

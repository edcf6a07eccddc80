#ifndef KAHVE_SERVICES_COMMON_MIGRATIONS_H_
#define KAHVE_SERVICES_COMMON_MIGRATIONS_H_

// Schema migrations: ordered plain SQL files migrations/NNNN_description.sql, embedded into the
// binaries at build time. Migrate applies the pending ones, each in its own transaction, under a
// PostgreSQL advisory lock (two migrators at once are safe), recording version, name and SHA-256
// checksum in kahve_schema_migrations; it refuses to run when an applied file has changed.
//
// Expand and contract (docs/operations.md, "Upgrades and rollbacks"): the first line of every
// migration from 0014 on says which older binaries still run on the schema it makes:
//   -- kahve-migration: expand              it only adds; binaries of the schema before it run on
//                                           it too (so an image can be rolled back across it)
//   -- kahve-migration: contract from NNNN  only binaries that know migration NNNN or later run
//                                           on it (it drops or changes what older ones use)
// Files 0001 to 0013, written before the rule, have no such line and count as "contract from"
// themselves; from kFirstMigrationUnderTheRule on the line is required. The database records the answer, so an older binary can read it: its Migrate accepts a
// database ahead of it when every migration it lacks runs with its schema.

#include <string>
#include <vector>

#include "absl/status/statusor.h"

namespace kahve::common {

inline constexpr int kFirstMigrationUnderTheRule = 14;

struct Migration {
  int version = 0;   // NNNN
  std::string name;  // the file name
  std::string sql;
};

// The migrations compiled into this binary, ordered by version.
const std::vector<Migration>& EmbeddedMigrations();

// Reads NNNN_description.sql files from `dir`; InvalidArgument for a bad name or a repeated
// version.
absl::StatusOr<std::vector<Migration>> LoadMigrations(const std::string& dir);

// The oldest schema version whose binaries run on the schema `migration` makes: 0 for an expand
// migration, NNNN for "contract from NNNN", its own version for a file before the rule without the
// line. InvalidArgument naming the file for a malformed or missing line, or a NNNN after the
// migration itself.
absl::StatusOr<int> OldestBinarySchema(const Migration& migration);

struct MigrateResult {
  std::vector<int> applied;  // versions applied by this call, in order
  std::vector<int> ahead;    // applied versions newer than this binary, each compatible with it
  int version = 0;           // the schema version afterwards
};

// Applies the pending migrations to the database at `url`. FailedPrecondition naming the file when
// an applied migration's checksum differs, or when the database has a version this binary lacks
// that is not a newer migration compatible with it (see above); Unavailable when the database cannot be reached; Internal (with the file) when a migration fails
// (that migration's changes are rolled back, the earlier ones stay).
absl::StatusOr<MigrateResult> Migrate(const std::string& url,
                                      const std::vector<Migration>& migrations);

}  // namespace kahve::common

#endif  // KAHVE_SERVICES_COMMON_MIGRATIONS_H_

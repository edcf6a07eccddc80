#ifndef KAHVE_SERVICES_COMMON_MIGRATIONS_H_
#define KAHVE_SERVICES_COMMON_MIGRATIONS_H_

// Schema migrations: ordered plain SQL files migrations/NNNN_description.sql, embedded into the
// binaries at build time. Migrate applies the pending ones, each in its own transaction, under a
// PostgreSQL advisory lock (two migrators at once are safe), recording version, name and SHA-256
// checksum in kahve_schema_migrations; it refuses to run when an applied file has changed.

#include <string>
#include <vector>

#include "absl/status/statusor.h"

namespace kahve::common {

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

struct MigrateResult {
  std::vector<int> applied;  // versions applied by this call, in order
  int version = 0;           // the schema version afterwards
};

// Applies the pending migrations to the database at `url`. FailedPrecondition naming the file when
// an applied migration's checksum differs, or when the database has versions this binary lacks;
// Unavailable when the database cannot be reached; Internal (with the file) when a migration fails
// (that migration's changes are rolled back, the earlier ones stay).
absl::StatusOr<MigrateResult> Migrate(const std::string& url,
                                      const std::vector<Migration>& migrations);

}  // namespace kahve::common

#endif  // KAHVE_SERVICES_COMMON_MIGRATIONS_H_

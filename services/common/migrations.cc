#include "services/common/migrations.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <sstream>
#include <system_error>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "pqxx/pqxx"
#include "services/common/pg_pool.h"
#include "services/common/pg_status.h"
#include "services/common/sha256.h"

namespace kahve::common {
namespace {

// pg_advisory_lock key of the migrators: "kahvemig" in ASCII, fixed forever.
constexpr int64_t kMigrationLockKey = 0x6b616876656d6967;
constexpr int kConnectTimeoutSeconds = 5;

constexpr char kCreateTableSql[] =
    "CREATE TABLE IF NOT EXISTS kahve_schema_migrations ("
    " version int PRIMARY KEY,"
    " name text NOT NULL,"
    " checksum text NOT NULL,"
    " applied_at timestamptz NOT NULL DEFAULT now())";
// Added with expand/contract; NULL in the rows recorded before it (legacy: "contract from" itself).
constexpr char kAddCompatibilitySql[] =
    "ALTER TABLE kahve_schema_migrations ADD COLUMN IF NOT EXISTS oldest_binary_schema int";
constexpr char kLockSql[] = "SELECT pg_advisory_lock($1)";
constexpr char kUnlockSql[] = "SELECT pg_advisory_unlock($1)";
constexpr char kAppliedSql[] =
    "SELECT version, name, checksum, coalesce(oldest_binary_schema, version)"
    " FROM kahve_schema_migrations ORDER BY version";
constexpr char kRecordSql[] =
    "INSERT INTO kahve_schema_migrations (version, name, checksum, oldest_binary_schema)"
    " VALUES ($1, $2, $3, $4)";
constexpr char kCompatibilityPrefix[] = "-- kahve-migration:";

struct Applied {
  int version = 0;
  std::string name;
  std::string checksum;
  int oldest_binary_schema = 0;
};

// The version of a file named NNNN_description.sql (description: [a-z0-9_]+), or nullopt.
std::optional<int> VersionOf(const std::string& name) {
  constexpr size_t kDigits = 4;
  if (name.size() <= kDigits + 1 + 4 || !absl::EndsWith(name, ".sql")) return std::nullopt;
  if (name[kDigits] != '_') return std::nullopt;
  const std::string digits = name.substr(0, kDigits);
  if (!std::all_of(digits.begin(), digits.end(), absl::ascii_isdigit)) return std::nullopt;
  const std::string description = name.substr(kDigits + 1, name.size() - kDigits - 1 - 4);
  const bool valid = std::all_of(description.begin(), description.end(), [](char c) {
    return absl::ascii_islower(c) || absl::ascii_isdigit(c) || c == '_';
  });
  int version = 0;
  if (!valid || !absl::SimpleAtoi(digits, &version) || version == 0) return std::nullopt;
  return version;
}

// Ordered, with well-formed compatibility lines.
absl::Status CheckMigrations(const std::vector<Migration>& migrations) {
  for (size_t i = 0; i < migrations.size(); ++i) {
    const absl::StatusOr<int> oldest = OldestBinarySchema(migrations[i]);
    if (!oldest.ok()) return oldest.status();
    if (migrations[i].version <= 0) {
      return absl::InvalidArgumentError(
          absl::StrCat("migration ", migrations[i].name, " has version ", migrations[i].version));
    }
    if (i > 0 && migrations[i].version <= migrations[i - 1].version) {
      return absl::InvalidArgumentError(
          absl::StrCat("migrations out of order or repeated: ", migrations[i - 1].name, ", ",
                       migrations[i].name));
    }
  }
  return absl::OkStatus();
}

// Checks what the database has applied against `migrations`; returns the pending ones.
absl::StatusOr<std::vector<const Migration*>> Pending(const std::vector<Applied>& applied,
                                                      const std::vector<Migration>& migrations) {
  std::map<int, const Migration*> by_version;
  for (const Migration& migration : migrations) by_version[migration.version] = &migration;
  const int known = migrations.empty() ? 0 : migrations.back().version;
  for (const Applied& row : applied) {
    const auto found = by_version.find(row.version);
    if (found == by_version.end() && row.version < known) {
      return absl::FailedPreconditionError(
          absl::StrCat("the database has migration ", row.name, " (version ", row.version,
                       ") which this binary does not know, although it knows later ones"));
    }
    if (found == by_version.end()) {
      if (row.oldest_binary_schema > known) {
        return absl::FailedPreconditionError(absl::StrCat(
            "the database has migration ", row.name, ", newer than this binary (schema ", known,
            "), and binaries before schema ", row.oldest_binary_schema,
            " cannot run on it (a contract migration): run a release of schema ",
            row.oldest_binary_schema, " or later, or restore a backup taken before it"));
      }
      continue;  // newer and compatible: MigrateLocked reports it as ahead
    }
    const Migration& migration = *found->second;
    if (migration.name != row.name) {
      return absl::FailedPreconditionError(
          absl::StrCat("migration ", migration.name, " was applied under the name ", row.name));
    }
    if (Sha256Hex(migration.sql) != row.checksum) {
      return absl::FailedPreconditionError(
          absl::StrCat("migration ", migration.name,
                       " changed after it was applied (checksum differs); add a new migration "
                       "instead of editing an applied one"));
    }
    by_version.erase(found);
  }
  const int last_applied = applied.empty() ? 0 : applied.back().version;
  std::vector<const Migration*> pending;
  for (const auto& [version, migration] : by_version) {
    if (version < last_applied) {
      return absl::FailedPreconditionError(
          absl::StrCat("migration ", migration->name, " is older than the applied version ",
                       last_applied, "; migrations must be added in order"));
    }
    pending.push_back(migration);
  }
  return pending;
}

absl::StatusOr<MigrateResult> MigrateLocked(pqxx::connection& connection,
                                            const std::vector<Migration>& migrations) {
  {
    pqxx::work tx(connection);
    tx.exec0(kCreateTableSql);
    tx.exec0(kAddCompatibilitySql);
    tx.commit();
  }
  std::vector<Applied> applied;
  {
    pqxx::read_transaction tx(connection);
    for (const pqxx::row& row : tx.exec(kAppliedSql)) {
      applied.push_back({row[0].as<int>(), row[1].as<std::string>(), row[2].as<std::string>(),
                         row[3].as<int>()});
    }
  }
  auto pending = Pending(applied, migrations);
  if (!pending.ok()) return pending.status();

  MigrateResult result;
  result.version = applied.empty() ? 0 : applied.back().version;
  const int known = migrations.empty() ? 0 : migrations.back().version;
  for (const Applied& row : applied) {
    if (row.version > known) result.ahead.push_back(row.version);
  }
  for (const Migration* migration : *pending) {
    try {
      pqxx::work tx(connection);
      tx.exec(migration->sql);
      tx.exec_params0(kRecordSql, migration->version, migration->name, Sha256Hex(migration->sql),
                      *OldestBinarySchema(*migration));
      tx.commit();
    } catch (...) {
      const PgError error = CurrentPgError();
      if (error.connection_lost) throw;  // Migrate reports it as Unavailable
      return absl::InternalError(absl::StrCat(
          "migration ", migration->name, " failed and was rolled back: ", error.status.message()));
    }
    result.applied.push_back(migration->version);
    result.version = migration->version;
  }
  return result;
}

}  // namespace

absl::StatusOr<int> OldestBinarySchema(const Migration& migration) {
  const absl::string_view first_line =
      absl::string_view(migration.sql).substr(0, migration.sql.find('\n'));
  const bool has_line = absl::StartsWith(first_line, kCompatibilityPrefix);
  if (!has_line && migration.version < kFirstMigrationUnderTheRule) return migration.version;
  const absl::string_view says =
      has_line ? absl::StripAsciiWhitespace(first_line.substr(sizeof(kCompatibilityPrefix) - 1))
               : absl::string_view();
  if (says == "expand") return 0;
  constexpr absl::string_view kContractFrom = "contract from ";
  int from = 0;
  if (absl::StartsWith(says, kContractFrom) && says.size() == kContractFrom.size() + 4 &&
      absl::SimpleAtoi(says.substr(kContractFrom.size()), &from) && from > 0 &&
      from <= migration.version) {
    return from;
  }
  return absl::InvalidArgumentError(absl::StrCat(
      "migration ", migration.name, ": its first line must be \"", kCompatibilityPrefix,
      " expand\" or \"", kCompatibilityPrefix, " contract from NNNN\" (NNNN at most ",
      migration.version, "), not \"", first_line, "\""));
}

absl::StatusOr<std::vector<Migration>> LoadMigrations(const std::string& dir) {
  std::error_code error;
  std::filesystem::directory_iterator entries(dir, error);
  if (error) {
    return absl::NotFoundError(
        absl::StrCat("cannot read migrations folder ", dir, ": ", error.message()));
  }
  std::vector<Migration> migrations;
  for (const auto& entry : entries) {
    const std::string name = entry.path().filename().string();
    if (!absl::EndsWith(name, ".sql")) continue;
    const std::optional<int> version = VersionOf(name);
    if (!version.has_value()) {
      return absl::InvalidArgumentError(
          absl::StrCat("migration file ", name,
                       " is not named NNNN_description.sql (NNNN > 0000, "
                       "description of a-z, 0-9 and _)"));
    }
    std::ifstream in(entry.path(), std::ios::binary);
    std::ostringstream contents;
    contents << in.rdbuf();
    if (!in || !contents) {
      return absl::InternalError(
          absl::StrCat("cannot read migration file ", entry.path().string()));
    }
    migrations.push_back({*version, name, contents.str()});
  }
  std::sort(migrations.begin(), migrations.end(),
            [](const Migration& a, const Migration& b) { return a.version < b.version; });
  for (size_t i = 1; i < migrations.size(); ++i) {
    if (migrations[i].version == migrations[i - 1].version) {
      return absl::InvalidArgumentError(absl::StrCat("migrations ", migrations[i - 1].name, " and ",
                                                     migrations[i].name, " share a version"));
    }
  }
  return migrations;
}

absl::StatusOr<MigrateResult> Migrate(const std::string& url,
                                      const std::vector<Migration>& migrations) {
  const absl::Status checked = CheckMigrations(migrations);
  if (!checked.ok()) return checked;
  try {
    pqxx::connection connection(WithConnectTimeout(url, kConnectTimeoutSeconds));
    // A session-level lock: held across the per-migration transactions, released by the unlock
    // below or, if this process dies, by the server when the session ends.
    {
      pqxx::nontransaction tx(connection);
      tx.exec_params(kLockSql, kMigrationLockKey);
    }
    absl::StatusOr<MigrateResult> result = MigrateLocked(connection, migrations);
    {
      pqxx::nontransaction tx(connection);
      tx.exec_params(kUnlockSql, kMigrationLockKey);
    }
    return result;
  } catch (...) {
    const PgError error = CurrentPgError();
    if (error.connection_lost) return error.status;
    return absl::InternalError(absl::StrCat("migrating failed: ", error.status.message()));
  }
}

}  // namespace kahve::common

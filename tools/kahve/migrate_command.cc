// kahve migrate: applies the pending schema migrations (services/common/migrations.h) and prints
// {"applied": [versions], "ahead": [versions], "version": N} on one line; "ahead" lists the
// database's migrations newer than this binary that it runs with (a rollback across expand
// migrations), and exit status 1 refuses a database this binary cannot run on.

#include <cstdio>
#include <string>
#include <vector>

#include "absl/flags/declare.h"
#include "absl/flags/flag.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "services/common/migrations.h"
#include "tools/kahve/commands.h"

ABSL_FLAG(std::string, migrations_dir, "",
          "kahve migrate: read NNNN_description.sql files from this folder instead of the "
          "migrations built into the binary");

ABSL_DECLARE_FLAG(std::string, database);

namespace kahve::tools {
namespace {

int Fail(const std::string& message) {
  std::fprintf(stderr, "kahve migrate: %s\n", message.c_str());
  return 1;
}

}  // namespace

int MigrateCommand(const std::vector<std::string>& args) {
  if (!args.empty()) return Fail(absl::StrCat("unexpected argument \"", args.front(), "\""));
  const std::string database = absl::GetFlag(FLAGS_database);
  if (database.empty()) return Fail("--database is required");

  const std::string dir = absl::GetFlag(FLAGS_migrations_dir);
  std::vector<common::Migration> loaded;
  if (!dir.empty()) {
    auto from_dir = common::LoadMigrations(dir);
    if (!from_dir.ok()) return Fail(from_dir.status().ToString());
    loaded = std::move(from_dir).value();
  }
  const std::vector<common::Migration>& migrations =
      dir.empty() ? common::EmbeddedMigrations() : loaded;

  const absl::StatusOr<common::MigrateResult> result = common::Migrate(database, migrations);
  if (!result.ok()) return Fail(result.status().ToString());
  std::printf("{\"applied\": [%s], \"ahead\": [%s], \"version\": %d}\n",
              absl::StrJoin(result->applied, ", ").c_str(),
              absl::StrJoin(result->ahead, ", ").c_str(), result->version);
  return 0;
}

}  // namespace kahve::tools

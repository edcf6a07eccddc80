#include <stdlib.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <regex>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "pqxx/pqxx"
#include "services/common/migrations.h"
#include "tests/support/pg_test_env.h"

namespace kahve::common {
namespace {

namespace fs = std::filesystem;

using ::kahve::testing::PgTest;
using ::kahve::testing::PgTestServer;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;

// A temporary folder of migration files, removed with the object.
class MigrationDir {
 public:
  MigrationDir() {
    std::string pattern = (fs::temp_directory_path() / "kahve-migrations-XXXXXX").string();
    if (mkdtemp(pattern.data()) != nullptr) path_ = pattern;
  }
  ~MigrationDir() {
    std::error_code ignored;
    fs::remove_all(path_, ignored);
  }
  void Write(const std::string& name, const std::string& sql) const {
    std::ofstream(path_ / name, std::ios::binary | std::ios::trunc) << sql;
  }
  std::string path() const { return path_.string(); }

 private:
  fs::path path_;
};

struct Row {
  int version;
  std::string name;
  std::string checksum;
  std::string expected_checksum;  // PostgreSQL's own sha256 of the file's text
  bool applied_at_set;
};

// A fresh database without any migration (cloned from template0, not the migrated template).
class MigrateTest : public ::testing::Test {
 protected:
  void SetUp() override {
    name_ = absl::StrCat("m_", getpid(), "_", counter_++);
    PgTestServer& server = PgTestServer::Get();
    const std::string admin = server.AdminUrl();
    pqxx::connection connection(admin);
    pqxx::nontransaction tx(connection);
    tx.exec0(absl::StrCat("CREATE DATABASE ", name_, " TEMPLATE template0"));
    url_ = admin.substr(0, admin.rfind('/') + 1) + name_;
  }
  void TearDown() override { PgTestServer::Get().DropDatabase(name_); }

  absl::StatusOr<std::vector<Migration>> Load() const { return LoadMigrations(dir_.path()); }

  // "<ticket_id> <mm_ticket_in_play>" for every ticket, oldest first.
  std::vector<std::string> TicketsInPlay() const {
    pqxx::connection connection(url_);
    pqxx::nontransaction tx(connection);
    std::vector<std::string> rows;
    for (const pqxx::row& row :
         tx.exec("SELECT ticket_id || ' ' || mm_ticket_in_play(state, match_id)::text"
                 "  FROM mm_tickets ORDER BY enqueued_us")) {
      rows.push_back(row[0].as<std::string>());
    }
    return rows;
  }

  absl::StatusOr<MigrateResult> LoadAndMigrate() const {
    auto migrations = Load();
    if (!migrations.ok()) return migrations.status();
    return Migrate(url_, *migrations);
  }

  std::vector<Row> Recorded() {
    pqxx::connection connection(url_);
    pqxx::work tx(connection);
    std::vector<Row> rows;
    auto migrations = Load();
    std::map<int, std::string> sql;
    if (migrations.ok()) {
      for (const Migration& migration : *migrations) sql[migration.version] = migration.sql;
    }
    for (const pqxx::row& row : tx.exec("SELECT version, name, checksum, applied_at IS NOT NULL "
                                        "FROM kahve_schema_migrations ORDER BY version")) {
      const int version = row[0].as<int>();
      const std::string expected =
          tx.exec_params1("SELECT encode(sha256($1::bytea), 'hex')",
                          pqxx::binarystring(sql[version].data(), sql[version].size()))[0]
              .as<std::string>();
      rows.push_back({version, row[1].as<std::string>(), row[2].as<std::string>(), expected,
                      row[3].as<bool>()});
    }
    return rows;
  }

  int Count(const std::string& sql) {
    pqxx::connection connection(url_);
    pqxx::nontransaction tx(connection);
    return tx.exec1(sql)[0].as<int>();
  }

  static inline std::atomic<int> counter_{0};
  std::string name_;
  std::string url_;
  MigrationDir dir_;
};

TEST_F(MigrateTest, AppliesInOrderAndRecordsChecksums) {
  // Written out of order; 0002 and 0010 only work after the ones before them.
  dir_.Write("0010_index_players.sql", "CREATE INDEX players_by_name ON players (name);\n");
  dir_.Write("0001_create_players.sql", "CREATE TABLE players (id int PRIMARY KEY);\n");
  dir_.Write("0002_add_name.sql",
             "ALTER TABLE players ADD COLUMN name text;\nINSERT INTO players VALUES (1, 'ada');\n");
  dir_.Write("README.md", "not a migration");

  const absl::StatusOr<MigrateResult> result = LoadAndMigrate();
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_THAT(result->applied, ElementsAre(1, 2, 10));
  EXPECT_EQ(result->version, 10);

  const std::vector<Row> rows = Recorded();
  ASSERT_EQ(rows.size(), 3u);
  const std::vector<std::string> names = {"0001_create_players.sql", "0002_add_name.sql",
                                          "0010_index_players.sql"};
  for (size_t i = 0; i < rows.size(); ++i) {
    EXPECT_EQ(rows[i].name, names[i]);
    EXPECT_EQ(rows[i].checksum, rows[i].expected_checksum) << rows[i].name;
    EXPECT_EQ(rows[i].checksum.size(), 64u);
    EXPECT_TRUE(rows[i].applied_at_set);
  }
  EXPECT_EQ(Count("SELECT count(*) FROM players WHERE name = 'ada'"), 1);
}

TEST_F(MigrateTest, SecondRunAppliesNothingAndLaterFilesApplyAlone) {
  dir_.Write("0001_a.sql", "CREATE TABLE a (x int);");
  dir_.Write("0002_b.sql", "INSERT INTO a VALUES (1);");
  ASSERT_TRUE(LoadAndMigrate().ok());

  const absl::StatusOr<MigrateResult> again = LoadAndMigrate();
  ASSERT_TRUE(again.ok()) << again.status();
  EXPECT_THAT(again->applied, IsEmpty());
  EXPECT_EQ(again->version, 2);
  EXPECT_EQ(Count("SELECT count(*) FROM a"), 1);

  dir_.Write("0003_c.sql", "INSERT INTO a VALUES (3);");
  const absl::StatusOr<MigrateResult> later = LoadAndMigrate();
  ASSERT_TRUE(later.ok()) << later.status();
  EXPECT_THAT(later->applied, ElementsAre(3));
  EXPECT_EQ(later->version, 3);
  EXPECT_EQ(Count("SELECT count(*) FROM a"), 2);
}

TEST_F(MigrateTest, NoMigrationsCreatesTheTableOnly) {
  const absl::StatusOr<MigrateResult> result = LoadAndMigrate();
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_THAT(result->applied, IsEmpty());
  EXPECT_EQ(result->version, 0);
  EXPECT_EQ(Count("SELECT count(*) FROM kahve_schema_migrations"), 0);
}

TEST_F(MigrateTest, ChangedAppliedFileIsRefused) {
  dir_.Write("0001_a.sql", "CREATE TABLE a (x int);");
  dir_.Write("0002_b.sql", "INSERT INTO a VALUES (1);");
  ASSERT_TRUE(LoadAndMigrate().ok());

  dir_.Write("0002_b.sql", "INSERT INTO a VALUES (2);");
  dir_.Write("0003_c.sql", "INSERT INTO a VALUES (3);");
  const absl::StatusOr<MigrateResult> result = LoadAndMigrate();
  EXPECT_EQ(result.status().code(), absl::StatusCode::kFailedPrecondition) << result.status();
  EXPECT_THAT(result.status().message(), HasSubstr("0002_b.sql"));
  // Nothing ran, not even the new file.
  EXPECT_EQ(Count("SELECT count(*) FROM a"), 1);
  EXPECT_EQ(Count("SELECT max(version) FROM kahve_schema_migrations"), 2);
}

TEST_F(MigrateTest, RenamedAppliedFileIsRefused) {
  dir_.Write("0001_a.sql", "CREATE TABLE a (x int);");
  ASSERT_TRUE(LoadAndMigrate().ok());
  fs::rename(fs::path(dir_.path()) / "0001_a.sql", fs::path(dir_.path()) / "0001_renamed.sql");
  const absl::StatusOr<MigrateResult> result = LoadAndMigrate();
  EXPECT_EQ(result.status().code(), absl::StatusCode::kFailedPrecondition) << result.status();
  EXPECT_THAT(result.status().message(), HasSubstr("0001_renamed.sql"));
}

TEST_F(MigrateTest, VersionUnknownToTheBinaryIsRefused) {
  dir_.Write("0001_a.sql", "CREATE TABLE a (x int);");
  dir_.Write("0002_b.sql", "CREATE TABLE b (x int);");
  ASSERT_TRUE(LoadAndMigrate().ok());

  // An older binary, knowing only 0001.
  auto older = Load();
  ASSERT_TRUE(older.ok());
  older->pop_back();
  const absl::StatusOr<MigrateResult> result = Migrate(url_, *older);
  EXPECT_EQ(result.status().code(), absl::StatusCode::kFailedPrecondition) << result.status();
  EXPECT_THAT(result.status().message(), HasSubstr("0002_b.sql"));
}

// A rollback across expand migrations: the older binary runs on the newer schema and says so;
// across a contract migration it is refused, naming the migration and the schema it needs.
TEST_F(MigrateTest, OlderBinaryRunsOnANewerSchemaOnlyAcrossExpandMigrations) {
  dir_.Write("0001_a.sql", "CREATE TABLE a (x int);");
  dir_.Write("0002_b.sql", "-- kahve-migration: expand\nALTER TABLE a ADD COLUMN y int;");
  dir_.Write("0003_c.sql", "-- kahve-migration: expand\nCREATE TABLE c (x int);");
  ASSERT_TRUE(LoadAndMigrate().ok());
  auto newer = Load();
  ASSERT_TRUE(newer.ok());

  const std::vector<Migration> knows_1(newer->begin(), newer->begin() + 1);
  const absl::StatusOr<MigrateResult> older = Migrate(url_, knows_1);
  ASSERT_TRUE(older.ok()) << older.status();
  EXPECT_THAT(older->applied, IsEmpty());
  EXPECT_THAT(older->ahead, ElementsAre(2, 3));
  EXPECT_EQ(older->version, 3);
  const absl::StatusOr<MigrateResult> same = Migrate(url_, *newer);
  ASSERT_TRUE(same.ok()) << same.status();
  EXPECT_THAT(same->ahead, IsEmpty());

  // 0004 drops what binaries before 0003 use: binaries knowing 0003 still run, older ones not.
  dir_.Write("0004_d.sql", "-- kahve-migration: contract from 0003\nALTER TABLE a DROP COLUMN x;");
  ASSERT_TRUE(LoadAndMigrate().ok());
  const std::vector<Migration> knows_3(newer->begin(), newer->begin() + 3);
  const absl::StatusOr<MigrateResult> previous = Migrate(url_, knows_3);
  ASSERT_TRUE(previous.ok()) << previous.status();
  EXPECT_THAT(previous->ahead, ElementsAre(4));
  const std::vector<Migration> knows_2(newer->begin(), newer->begin() + 2);
  const absl::StatusOr<MigrateResult> too_old = Migrate(url_, knows_2);
  EXPECT_EQ(too_old.status().code(), absl::StatusCode::kFailedPrecondition) << too_old.status();
  EXPECT_THAT(too_old.status().message(), HasSubstr("0004_d.sql"));
  EXPECT_THAT(too_old.status().message(), HasSubstr("schema 3 or later"));
  EXPECT_THAT(Migrate(url_, knows_1).status().message(), HasSubstr("0004_d.sql"));
  // Refusals change nothing.
  EXPECT_EQ(Count("SELECT count(*) FROM kahve_schema_migrations"), 4);
}

TEST_F(MigrateTest, RecordsWhichOlderBinariesRunOnEachMigration) {
  dir_.Write("0001_a.sql", "CREATE TABLE a (x int);");
  dir_.Write("0002_b.sql", "-- kahve-migration: expand\nCREATE TABLE b (x int);");
  dir_.Write("0003_c.sql", "-- kahve-migration: contract from 0002\nDROP TABLE a;");
  ASSERT_TRUE(LoadAndMigrate().ok());
  // A file without the line (as 0001 to 0013 are) runs with binaries of its own schema only.
  EXPECT_EQ(Count("SELECT count(*) FROM kahve_schema_migrations WHERE "
                  "(version, oldest_binary_schema) IN ((1, 1), (2, 0), (3, 2))"),
            3);
}

TEST_F(MigrateTest, MalformedCompatibilityLinesAreRefusedBeforeAnythingRuns) {
  for (const std::string line :
       {"-- kahve-migration: expnd", "-- kahve-migration: contract", "-- kahve-migration:",
        "-- kahve-migration: contract from 3", "-- kahve-migration: contract from 0003",
        "-- kahve-migration: contract from 0000", "-- kahve-migration: expand please"}) {
    MigrationDir dir;
    dir.Write("0001_a.sql", "CREATE TABLE a (x int);");
    dir.Write("0002_b.sql", line + "\nCREATE TABLE b (x int);");
    auto migrations = LoadMigrations(dir.path());
    ASSERT_TRUE(migrations.ok()) << migrations.status();
    const absl::StatusOr<MigrateResult> result = Migrate(url_, *migrations);
    EXPECT_EQ(result.status().code(), absl::StatusCode::kInvalidArgument) << line;
    EXPECT_THAT(result.status().message(), HasSubstr("0002_b.sql")) << line;
    EXPECT_EQ(Count("SELECT count(*) FROM pg_tables WHERE tablename IN ('a', 'b')"), 0) << line;
  }
}

TEST_F(MigrateTest, MigrationsUnderTheRuleWithoutTheLineAreRefused) {
  dir_.Write("0001_a.sql", "CREATE TABLE a (x int);");
  dir_.Write("0014_b.sql", "CREATE TABLE b (x int);");
  dir_.Write("0015_c.sql", "\n-- kahve-migration: expand\nCREATE TABLE c (x int);");
  for (const std::string name : {"0014_b.sql", "0015_c.sql"}) {
    auto migrations = Load();
    ASSERT_TRUE(migrations.ok()) << migrations.status();
    const absl::StatusOr<MigrateResult> result = Migrate(url_, *migrations);
    EXPECT_EQ(result.status().code(), absl::StatusCode::kInvalidArgument);
    EXPECT_THAT(result.status().message(), HasSubstr(name));
    EXPECT_EQ(Count("SELECT count(*) FROM pg_tables WHERE tablename IN ('a', 'b', 'c')"), 0);
    dir_.Write("0014_b.sql", "-- kahve-migration: expand\nCREATE TABLE b (x int);");
  }
}

// Databases migrated before expand/contract have no oldest_binary_schema column: the first
// migrator after adds it, and their rows count as "contract from" themselves.
TEST_F(MigrateTest, RowsRecordedBeforeTheRuleAreContractsFromThemselves) {
  {
    pqxx::connection connection(url_);
    pqxx::work tx(connection);
    tx.exec0(
        "CREATE TABLE kahve_schema_migrations (version int PRIMARY KEY, name text NOT NULL,"
        " checksum text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())");
    tx.exec0("CREATE TABLE a (x int)");
    tx.exec0(
        "INSERT INTO kahve_schema_migrations (version, name, checksum) VALUES (1, '0001_a.sql', "
        "encode(sha256('CREATE TABLE a (x int);'::bytea), 'hex')), (2, '0002_b.sql', 'x')");
    tx.commit();
  }
  dir_.Write("0001_a.sql", "CREATE TABLE a (x int);");
  const absl::StatusOr<MigrateResult> result = LoadAndMigrate();
  EXPECT_EQ(result.status().code(), absl::StatusCode::kFailedPrecondition) << result.status();
  EXPECT_THAT(result.status().message(), HasSubstr("schema 2 or later"));
}

TEST_F(MigrateTest, MigrationOlderThanTheAppliedOnesIsRefused) {
  dir_.Write("0001_a.sql", "CREATE TABLE a (x int);");
  dir_.Write("0003_c.sql", "CREATE TABLE c (x int);");
  ASSERT_TRUE(LoadAndMigrate().ok());
  dir_.Write("0002_b.sql", "CREATE TABLE b (x int);");
  const absl::StatusOr<MigrateResult> result = LoadAndMigrate();
  EXPECT_EQ(result.status().code(), absl::StatusCode::kFailedPrecondition) << result.status();
  EXPECT_THAT(result.status().message(), HasSubstr("0002_b.sql"));
  EXPECT_EQ(Count("SELECT count(*) FROM pg_tables WHERE tablename = 'b'"), 0);
}

TEST_F(MigrateTest, FailingMigrationRollsBackOnlyItself) {
  dir_.Write("0001_a.sql", "CREATE TABLE a (x int);");
  dir_.Write("0002_b.sql", "CREATE TABLE b (x int);\nINSERT INTO a VALUES (1);\nSELECT 1 / 0;\n");
  dir_.Write("0003_c.sql", "CREATE TABLE c (x int);");
  const absl::StatusOr<MigrateResult> result = LoadAndMigrate();
  EXPECT_EQ(result.status().code(), absl::StatusCode::kInternal) << result.status();
  EXPECT_THAT(result.status().message(), HasSubstr("0002_b.sql"));
  EXPECT_THAT(result.status().message(), HasSubstr("division by zero"));
  EXPECT_EQ(Count("SELECT count(*) FROM pg_tables WHERE tablename IN ('a', 'b', 'c')"), 1);
  EXPECT_EQ(Count("SELECT count(*) FROM a"), 0);
  EXPECT_EQ(Count("SELECT count(*) FROM kahve_schema_migrations"), 1);

  dir_.Write("0002_b.sql", "CREATE TABLE b (x int);\nINSERT INTO a VALUES (1);\n");
  const absl::StatusOr<MigrateResult> fixed = LoadAndMigrate();
  ASSERT_TRUE(fixed.ok()) << fixed.status();
  EXPECT_THAT(fixed->applied, ElementsAre(2, 3));
}

TEST_F(MigrateTest, ConcurrentMigratorsApplyEachMigrationOnce) {
  // Each migration fails if it runs twice (CREATE TABLE without IF NOT EXISTS), and logs itself.
  dir_.Write("0001_log.sql",
             "CREATE TABLE log (version int);\nINSERT INTO log VALUES (1);\n"
             "SELECT pg_sleep(0.05);\n");
  dir_.Write("0002_t2.sql", "CREATE TABLE t2 (x int);\nINSERT INTO log VALUES (2);\n");
  dir_.Write("0003_t3.sql", "CREATE TABLE t3 (x int);\nINSERT INTO log VALUES (3);\n");
  auto migrations = Load();
  ASSERT_TRUE(migrations.ok());

  constexpr int kMigrators = 4;
  std::vector<absl::StatusOr<MigrateResult>> results(kMigrators, absl::UnknownError("not run"));
  std::vector<std::thread> threads;
  for (int i = 0; i < kMigrators; ++i) {
    threads.emplace_back([&, i] { results[i] = Migrate(url_, *migrations); });
  }
  for (std::thread& thread : threads) thread.join();

  std::map<int, int> applied_by_anyone;
  for (const auto& result : results) {
    ASSERT_TRUE(result.ok()) << result.status();
    EXPECT_EQ(result->version, 3);
    for (int version : result->applied) ++applied_by_anyone[version];
  }
  EXPECT_EQ(applied_by_anyone, (std::map<int, int>{{1, 1}, {2, 1}, {3, 1}}));
  EXPECT_EQ(Count("SELECT count(*) FROM log"), 3);
  EXPECT_EQ(Count("SELECT count(DISTINCT version) FROM log"), 3);
}

TEST_F(MigrateTest, UnorderedListIsInvalid) {
  const std::vector<Migration> unordered = {{2, "0002_b.sql", "SELECT 1"},
                                            {1, "0001_a.sql", "SELECT 1"}};
  EXPECT_EQ(Migrate(url_, unordered).status().code(), absl::StatusCode::kInvalidArgument);
}

TEST(MigrateUnreachableTest, UnreachableDatabaseIsUnavailable) {
  // Port 1 on loopback: nothing listens there.
  const absl::StatusOr<MigrateResult> result =
      Migrate("postgresql://postgres@127.0.0.1:1/postgres", {});
  EXPECT_EQ(result.status().code(), absl::StatusCode::kUnavailable) << result.status();
}

TEST(LoadMigrationsTest, ReadsSortedAndIgnoresOtherFiles) {
  MigrationDir dir;
  dir.Write("0002_second.sql", "SELECT 2;");
  dir.Write("0001_first.sql", "SELECT 1;\r\n");
  dir.Write("notes.txt", "ignored");
  const auto migrations = LoadMigrations(dir.path());
  ASSERT_TRUE(migrations.ok()) << migrations.status();
  ASSERT_EQ(migrations->size(), 2u);
  EXPECT_EQ((*migrations)[0].version, 1);
  EXPECT_EQ((*migrations)[0].name, "0001_first.sql");
  EXPECT_EQ((*migrations)[0].sql, "SELECT 1;\r\n");
  EXPECT_EQ((*migrations)[1].version, 2);
}

TEST(LoadMigrationsTest, EmptyFolderHasNoMigrations) {
  MigrationDir dir;
  const auto migrations = LoadMigrations(dir.path());
  ASSERT_TRUE(migrations.ok()) << migrations.status();
  EXPECT_THAT(*migrations, IsEmpty());
}

TEST(LoadMigrationsTest, RejectsBadNames) {
  for (const std::string name :
       {"1_short.sql", "0001-dash.sql", "0001_.sql", "0000_zero.sql", "abcd_letters.sql",
        "0001_Upper.sql", "0001_sp ace.sql", "00001_five.sql"}) {
    MigrationDir dir;
    dir.Write("0002_fine.sql", "SELECT 1;");
    dir.Write(name, "SELECT 1;");
    const auto migrations = LoadMigrations(dir.path());
    EXPECT_EQ(migrations.status().code(), absl::StatusCode::kInvalidArgument) << name;
    EXPECT_THAT(migrations.status().message(), HasSubstr(name));
  }
}

TEST(LoadMigrationsTest, RejectsRepeatedVersions) {
  MigrationDir dir;
  dir.Write("0001_a.sql", "SELECT 1;");
  dir.Write("0001_b.sql", "SELECT 1;");
  const auto migrations = LoadMigrations(dir.path());
  EXPECT_EQ(migrations.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(migrations.status().message(), HasSubstr("0001_a.sql"));
}

TEST(LoadMigrationsTest, MissingFolderIsNotFound) {
  EXPECT_EQ(LoadMigrations("/nonexistent/kahve/migrations").status().code(),
            absl::StatusCode::kNotFound);
}

TEST(EmbeddedMigrationsTest, OrderedAndWellNamed) {
  const std::vector<Migration>& embedded = EmbeddedMigrations();
  for (size_t i = 0; i < embedded.size(); ++i) {
    EXPECT_GT(embedded[i].version, 0);
    if (i > 0) {
      EXPECT_GT(embedded[i].version, embedded[i - 1].version);
    }
    EXPECT_EQ(embedded[i].name.substr(0, 4), absl::StrCat(10000 + embedded[i].version).substr(1));
  }
}

TEST(EmbeddedMigrationsTest, MatchTheSourceFilesByteForByte) {
  // The source tree's migrations/, named by the build (__FILE__ is relative to the build folder
  // when ccache rewrites paths, so it cannot be relied on).
  const fs::path source = fs::path(KAHVE_SOURCE_DIR) / "migrations";
  ASSERT_TRUE(fs::is_directory(source)) << "no source tree at " << source;
  const auto files = LoadMigrations(source.string());
  ASSERT_TRUE(files.ok()) << files.status();
  const std::vector<Migration>& embedded = EmbeddedMigrations();
  ASSERT_EQ(embedded.size(), files->size());
  for (size_t i = 0; i < embedded.size(); ++i) {
    EXPECT_EQ(embedded[i].version, (*files)[i].version);
    EXPECT_EQ(embedded[i].name, (*files)[i].name);
    EXPECT_EQ(embedded[i].sql, (*files)[i].sql) << embedded[i].name;
  }
}

// The clauses of `sql`: comments and dollar-quoted bodies (a new function's text) left out, split
// at semicolons and at commas outside parentheses, so each action of an ALTER TABLE stands alone.
std::vector<std::string> Clauses(const std::string& sql) {
  std::string code = std::regex_replace(sql, std::regex("--[^\n]*"), "");
  code = std::regex_replace(code, std::regex(R"(\$(\w*)\$[\s\S]*?\$\1\$)"), "''");
  std::vector<std::string> clauses(1);
  int depth = 0;
  for (const char c : code) {
    if (c == '(') ++depth;
    if (c == ')') --depth;
    if (depth == 0 && (c == ';' || c == ',')) {
      clauses.emplace_back();
    } else {
      clauses.back() += c;
    }
  }
  return clauses;
}

// What an expand migration may not do (docs/operations.md, "Expand and contract"): anything that
// removes, renames or narrows what an older binary reads or writes, makes its writes fail or act
// otherwise, or replaces a function it calls. Each finding names the rule once.
std::vector<std::string> ExpandViolations(const std::string& sql) {
  const auto icase = std::regex::icase;
  const std::regex add_column(R"(\bADD\s+(?!(CONSTRAINT|CHECK|UNIQUE|PRIMARY|FOREIGN|VALUE)\b))",
                              icase);
  const std::regex not_null(R"(\bNOT\s+NULL\b)", icase);
  const std::regex with_default(R"(\bDEFAULT\b)", icase);
  const std::regex inline_constraint(R"(\b(REFERENCES|UNIQUE|CHECK|PRIMARY\s+KEY)\b)", icase);
  const std::vector<std::pair<std::string, std::function<bool(const std::string&)>>> rules = {
      {"DROP", [&](const std::string& clause) {
         return std::regex_search(clause, std::regex(R"(\bDROP\b(?!\s+NOT\s+NULL))", icase));
       }},
      {"RENAME",
       [&](const std::string& clause) {
         return std::regex_search(clause, std::regex(R"(\bRENAME\b)", icase));
       }},
      {"ALTER COLUMN (type or NOT NULL)",
       [&](const std::string& clause) {
         return std::regex_search(
             clause, std::regex(R"(\bALTER\s+(COLUMN\s+)?"?\w+"?\s+((SET\s+DATA\s+)?TYPE|SET\s+NOT\s+NULL)\b)",
                                icase));
       }},
      {"ADD COLUMN NOT NULL without DEFAULT",
       [&](const std::string& clause) {
         return std::regex_search(clause, add_column) && std::regex_search(clause, not_null) &&
                !std::regex_search(clause, with_default);
       }},
      {"ADD COLUMN with a constraint",
       [&](const std::string& clause) {
         return std::regex_search(clause, add_column) &&
                std::regex_search(clause, inline_constraint);
       }},
      {"ADD CONSTRAINT",
       [&](const std::string& clause) {
         return std::regex_search(
             clause, std::regex(R"(\bADD\s+(CONSTRAINT|CHECK|UNIQUE|PRIMARY|FOREIGN)\b)", icase));
       }},
      {"CREATE UNIQUE INDEX",
       [&](const std::string& clause) {
         return std::regex_search(clause, std::regex(R"(\bCREATE\s+UNIQUE\s+INDEX\b)", icase));
       }},
      {"CREATE TRIGGER",
       [&](const std::string& clause) {
         return std::regex_search(clause,
                                  std::regex(R"(\bCREATE\s+(CONSTRAINT\s+)?TRIGGER\b)", icase));
       }},
      {"CREATE OR REPLACE",
       [&](const std::string& clause) {
         return std::regex_search(clause, std::regex(R"(\bCREATE\s+OR\s+REPLACE\b)", icase));
       }},
      {"TRUNCATE or DELETE",
       [&](const std::string& clause) {
         return std::regex_search(clause, std::regex(R"(\b(TRUNCATE|DELETE)\b)", icase));
       }},
  };
  const std::vector<std::string> clauses = Clauses(sql);
  std::vector<std::string> found;
  for (const auto& [what, breaks] : rules) {
    if (std::any_of(clauses.begin(), clauses.end(), breaks)) found.push_back(what);
  }
  return found;
}

TEST(ExpandRuleTest, FindsWhatBreaksOlderBinaries) {
  EXPECT_THAT(ExpandViolations("CREATE TABLE t (x int NOT NULL UNIQUE, y int REFERENCES a);\n"
                               "ALTER TABLE a ADD COLUMN y int NOT NULL DEFAULT 0;\n"
                               "ALTER TABLE a ADD COLUMN z numeric(10,2), ADD w text;\n"
                               "ALTER TABLE a ALTER COLUMN w DROP NOT NULL;\n"
                               "ALTER TABLE a ALTER COLUMN y SET DEFAULT 3;\n"
                               "ALTER TYPE mood ADD VALUE 'calm';\n"
                               "CREATE INDEX a_y ON a (y);\n"
                               "CREATE FUNCTION g() RETURNS int LANGUAGE sql AS $$\n"
                               "  DELETE FROM t RETURNING 1; $$;\n"
                               "UPDATE a SET y = 1, z = 2; -- DROP TABLE a (a comment)\n"),
              IsEmpty());
  const std::vector<std::pair<std::string, std::string>> breaking = {
      {"ALTER TABLE a DROP COLUMN x;", "DROP"},
      {"DROP TABLE a;", "DROP"},
      {"drop index a_y;", "DROP"},
      {"ALTER TABLE a ALTER COLUMN y DROP DEFAULT;", "DROP"},
      {"ALTER TABLE a RENAME COLUMN x TO y;", "RENAME"},
      {"ALTER TABLE a ALTER COLUMN x TYPE bigint;", "ALTER COLUMN (type or NOT NULL)"},
      {"ALTER TABLE a ALTER x SET DATA TYPE bigint;", "ALTER COLUMN (type or NOT NULL)"},
      {"ALTER TABLE a ALTER COLUMN x SET NOT NULL;", "ALTER COLUMN (type or NOT NULL)"},
      {"ALTER TABLE a ADD COLUMN y int NOT NULL;", "ADD COLUMN NOT NULL without DEFAULT"},
      {"ALTER TABLE a ADD y int NOT NULL;", "ADD COLUMN NOT NULL without DEFAULT"},
      {"ALTER TABLE a ADD COLUMN y numeric(10,2) NOT NULL;", "ADD COLUMN NOT NULL without DEFAULT"},
      {"ALTER TABLE a ADD COLUMN z int DEFAULT 1, ADD COLUMN y int NOT NULL;",
       "ADD COLUMN NOT NULL without DEFAULT"},
      {"ALTER TABLE a ADD COLUMN b_id int REFERENCES b (id);", "ADD COLUMN with a constraint"},
      {"ALTER TABLE a ADD y int UNIQUE;", "ADD COLUMN with a constraint"},
      {"ALTER TABLE a ADD COLUMN y int CHECK (y > 0);", "ADD COLUMN with a constraint"},
      {"ALTER TABLE a ADD CONSTRAINT positive CHECK (x > 0);", "ADD CONSTRAINT"},
      {"ALTER TABLE a ADD PRIMARY KEY (x);", "ADD CONSTRAINT"},
      {"CREATE UNIQUE INDEX a_x ON a (x);", "CREATE UNIQUE INDEX"},
      {"CREATE TRIGGER t BEFORE INSERT ON a FOR EACH ROW EXECUTE FUNCTION f();", "CREATE TRIGGER"},
      {"CREATE OR REPLACE FUNCTION f() RETURNS int LANGUAGE sql AS 'SELECT 1';",
       "CREATE OR REPLACE"},
      {"DELETE FROM a;", "TRUNCATE or DELETE"},
  };
  for (const auto& [sql, what] : breaking) {
    EXPECT_THAT(ExpandViolations(sql), ElementsAre(what)) << sql;
  }
}

// Every migration from 0014 on says which older binaries run on it, and an expand migration does
// nothing the rule forbids; the 13 before the rule count as contracts (see migrations.h).
TEST(EmbeddedMigrationsTest, FollowExpandAndContract) {
  constexpr int kFirstUnderTheRule = 14;
  for (const Migration& migration : EmbeddedMigrations()) {
    const absl::StatusOr<int> oldest = OldestBinarySchema(migration);
    ASSERT_TRUE(oldest.ok()) << oldest.status();
    if (migration.version < kFirstUnderTheRule) {
      EXPECT_EQ(*oldest, migration.version) << migration.name;
      continue;
    }
    EXPECT_EQ(migration.sql.rfind("-- kahve-migration:", 0), 0u)
        << migration.name << " must begin with its expand or contract line";
    if (*oldest == 0) {
      EXPECT_THAT(ExpandViolations(migration.sql), IsEmpty())
          << migration.name << " is marked expand; make it a contract migration or split it";
    }
  }
}

// 0008 moves the rating history onto the match rows: what a database held before must read the
// same after. (Real migrations, applied up to 0007, then the rest.)
TEST_F(MigrateTest, RatingHistoryMovesOntoTheMatchRowsWithNothingLost) {
  const std::vector<Migration>& embedded = EmbeddedMigrations();
  ASSERT_GE(embedded.size(), 8u);
  ASSERT_EQ(embedded[7].version, 8);
  ASSERT_TRUE(Migrate(url_, {embedded.begin(), embedded.begin() + 7}).ok());
  {
    pqxx::connection connection(url_);
    pqxx::work tx(connection);
    tx.exec0(
        "INSERT INTO rating_matches (match_id, ruleset, mode, started_us, ended_us, rated, "
        "request_sha256, record) VALUES ('rated', 'okey', 2, 1, 10, true, '', ''), "
        "('unrated', 'okey', 1, 1, 20, false, '', '')");
    tx.exec0(
        "INSERT INTO rating_match_players VALUES ('ana', 10, 'rated', 'okey'), "
        "('ben', 10, 'rated', 'okey'), ('ana', 20, 'unrated', 'okey')");
    tx.exec0(
        "INSERT INTO rating_history VALUES ('ana', 'okey', 2, 10, 'rated', 26.5, 8.1, 2.2), "
        "('ben', 'okey', 2, 10, 'rated', 23.5, 8.2, -1.1)");
    tx.commit();
  }
  const absl::StatusOr<MigrateResult> rest = Migrate(url_, embedded);
  ASSERT_TRUE(rest.ok()) << rest.status();
  EXPECT_EQ(rest->applied.front(), 8);
  pqxx::connection connection(url_);
  pqxx::nontransaction tx(connection);
  std::vector<std::string> rows;
  for (const pqxx::row& row :
       tx.exec("SELECT concat_ws(' ', player_id, ended_us, match_id, ruleset, mode, "
               "coalesce(mu::text, '-'), coalesce(sigma::text, '-'), coalesce(display::text, '-')) "
               "FROM rating_match_players ORDER BY match_id, player_id")) {
    rows.push_back(row[0].as<std::string>());
  }
  EXPECT_THAT(rows,
              ElementsAre("ana 10 rated okey 2 26.5 8.1 2.2", "ben 10 rated okey 2 23.5 8.2 -1.1",
                          "ana 20 unrated okey 1 - - -"));
  EXPECT_EQ(Count("SELECT count(*) FROM pg_tables WHERE tablename = 'rating_history'"), 0);
}

// 0009 defines which tickets are in play: an Enqueue request id stays bound to those. (Real
// migrations, applied up to 0008, then 0009; 0012 redefines it below.)
TEST_F(MigrateTest, TicketsInPlayAreTheQueuedOnesAndThoseWhoseGameGoesOn) {
  const std::vector<Migration>& embedded = EmbeddedMigrations();
  ASSERT_GE(embedded.size(), 9u);
  ASSERT_EQ(embedded[8].version, 9);
  ASSERT_TRUE(Migrate(url_, {embedded.begin(), embedded.begin() + 8}).ok());
  {
    pqxx::connection connection(url_);
    pqxx::work tx(connection);
    tx.exec0(
        "INSERT INTO mm_tickets (ticket_id, queue_key, owner, request_id, settings, teams,"
        " longest_wait_us, state, enqueued_us, match_id) VALUES"
        " ('waiting', 'q', 'ana', 'r-1', '', false, 0, 'waiting', 10, NULL),"
        " ('placing', 'q', 'ben', 'r-1', '', false, 0, 'placing', 15, 'm-placing'),"
        " ('playing', 'q', 'cem', 'r-1', '', false, 0, 'matched', 20, 'm-playing'),"
        " ('played', 'q', 'dua', 'r-1', '', false, 0, 'matched', 30, 'm-played'),"
        " ('no-table', 'q', 'eda', 'r-1', '', false, 0, 'matched', 40, 'm-gone'),"
        " ('cancelled', 'q', 'fer', 'r-1', '', false, 0, 'cancelled', 50, NULL),"
        " ('expired', 'q', 'gul', 'r-1', '', false, 0, 'expired', 60, NULL)");
    tx.exec0(
        "INSERT INTO table_tables (table_id, host_id, match_id, ruleset, created_us, finished_us)"
        " VALUES ('t-playing', 'h', 'm-playing', 'liars_dice', 1, NULL),"
        " ('t-played', 'h', 'm-played', 'liars_dice', 1, 99)");
    tx.commit();
  }
  const absl::StatusOr<MigrateResult> rest =
      Migrate(url_, {embedded.begin(), embedded.begin() + 9});
  ASSERT_TRUE(rest.ok()) << rest.status();
  EXPECT_THAT(rest->applied, ElementsAre(9));
  EXPECT_THAT(TicketsInPlay(),
              ElementsAre("waiting true", "placing true", "playing true", "played false",
                          "no-table false", "cancelled false", "expired false"));
  EXPECT_EQ(Count("SELECT count(*) FROM mm_tickets WHERE released_request_id IS NULL"), 7);
}

// 0012 stops matchmaking reading the table service's tables: a matched ticket is in play until
// matchmaking has heard that its game ended (mm_matches.game_over), whatever table_tables says.
// (Real migrations, applied up to 0011, then the rest.)
TEST_F(MigrateTest, TicketsInPlayFollowTheGameEndsMatchmakingHeardOf) {
  const std::vector<Migration>& embedded = EmbeddedMigrations();
  ASSERT_GE(embedded.size(), 12u);
  ASSERT_EQ(embedded[11].version, 12);
  ASSERT_TRUE(Migrate(url_, {embedded.begin(), embedded.begin() + 11}).ok());
  {
    pqxx::connection connection(url_);
    pqxx::work tx(connection);
    tx.exec0(
        "INSERT INTO mm_tickets (ticket_id, queue_key, owner, request_id, settings, teams,"
        " longest_wait_us, state, enqueued_us, match_id) VALUES"
        " ('waiting', 'q', 'ana', 'r-1', '', false, 0, 'waiting', 10, NULL),"
        " ('playing', 'q', 'cem', 'r-1', '', false, 0, 'matched', 20, 'm-playing'),"
        " ('played', 'q', 'dua', 'r-1', '', false, 0, 'matched', 30, 'm-played'),"
        " ('cancelled', 'q', 'fer', 'r-1', '', false, 0, 'cancelled', 50, NULL)");
    tx.exec0(
        "INSERT INTO mm_matches (match_id, queue_key, state, host_id, request, rating_spread,"
        " created_us) VALUES ('m-playing', 'q', 'placed', 'h', '', 0, 1),"
        " ('m-played', 'q', 'placed', 'h', '', 0, 1)");
    // The table service says the game of m-played ended; matchmaking has not asked yet.
    tx.exec0(
        "INSERT INTO table_tables (table_id, host_id, match_id, ruleset, created_us, finished_us)"
        " VALUES ('t-played', 'h', 'm-played', 'liars_dice', 1, 99)");
    tx.commit();
  }
  const absl::StatusOr<MigrateResult> rest = Migrate(url_, embedded);
  ASSERT_TRUE(rest.ok()) << rest.status();
  EXPECT_EQ(rest->applied.front(), 12);
  EXPECT_THAT(TicketsInPlay(),
              ElementsAre("waiting true", "playing true", "played true", "cancelled false"));
  EXPECT_EQ(Count("UPDATE mm_matches SET game_over = true WHERE match_id = 'm-played'"
                  " RETURNING 1"),
            1);
  EXPECT_THAT(TicketsInPlay(),
              ElementsAre("waiting true", "playing true", "played false", "cancelled false"));
}

// 0010 gives every ticket player row its ticket's enqueue time: GetMyTicket reads a player's
// newest tickets by it. (Real migrations, applied up to 0009, then the rest.)
TEST_F(MigrateTest, TicketPlayersGetTheirTicketsEnqueueTimes) {
  const std::vector<Migration>& embedded = EmbeddedMigrations();
  ASSERT_GE(embedded.size(), 10u);
  ASSERT_EQ(embedded[9].version, 10);
  ASSERT_TRUE(Migrate(url_, {embedded.begin(), embedded.begin() + 9}).ok());
  {
    pqxx::connection connection(url_);
    pqxx::work tx(connection);
    tx.exec0(
        "INSERT INTO mm_tickets (ticket_id, queue_key, owner, settings, teams, longest_wait_us,"
        " state, enqueued_us) VALUES ('solo', 'q', 'ana', '', false, 0, 'matched', 10),"
        " ('party', 'q', 'ben', '', false, 0, 'waiting', 20)");
    tx.exec0(
        "INSERT INTO mm_ticket_players (ticket_id, player_id, position, active) VALUES"
        " ('solo', 'ana', 0, false), ('party', 'ben', 0, true), ('party', 'cem', 1, true)");
    tx.commit();
  }
  const absl::StatusOr<MigrateResult> rest = Migrate(url_, embedded);
  ASSERT_TRUE(rest.ok()) << rest.status();
  EXPECT_EQ(rest->applied.front(), 10);
  pqxx::connection connection(url_);
  pqxx::nontransaction tx(connection);
  std::vector<std::string> rows;
  for (const pqxx::row& row :
       tx.exec("SELECT concat_ws(' ', ticket_id, player_id, enqueued_us) FROM mm_ticket_players"
               "  ORDER BY enqueued_us, player_id")) {
    rows.push_back(row[0].as<std::string>());
  }
  EXPECT_THAT(rows, ElementsAre("solo ana 10", "party ben 20", "party cem 20"));
}

// The test databases come from the template the harness migrated with the embedded migrations.
class TemplateTest : public PgTest {};

TEST_F(TemplateTest, TestDatabasesHoldEveryEmbeddedMigration) {
  const absl::StatusOr<MigrateResult> result = Migrate(url(), EmbeddedMigrations());
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_THAT(result->applied, IsEmpty());
  EXPECT_EQ(result->version,
            EmbeddedMigrations().empty() ? 0 : EmbeddedMigrations().back().version);
}

}  // namespace
}  // namespace kahve::common

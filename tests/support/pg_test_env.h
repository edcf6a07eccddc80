#ifndef KAHVE_TESTS_SUPPORT_PG_TEST_ENV_H_
#define KAHVE_TESTS_SUPPORT_PG_TEST_ENV_H_

// A real PostgreSQL for service tests (files *_pgtest.cc). One server per test run: ctest starts it
// once (fixture `pg`, tests/support/pg_harness) and passes the path of a file holding its admin URL
// in KAHVE_TEST_PG_URL_FILE; a test binary run by hand without it starts its own in a temporary
// folder and stops it at exit. Each test gets a fresh database cloned from a template that holds
// every migration.

#include <memory>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "gtest/gtest.h"

namespace kahve::testing {

// The migrated template every test database is cloned from.
inline constexpr char kTemplateDatabase[] = "kahve_template";
// The file, inside a server's folder, that holds its admin URL.
inline constexpr char kAdminUrlFile[] = "admin_url";

// The harness's side (tests/support/pg_harness.cc), built from the same code as the servers tests
// start themselves. StartServerIn stops a server an earlier run left in `dir` and wipes the folder,
// then runs initdb (its data in /dev/shm when that has room, linked from dir/data), starts
// PostgreSQL on a free 127.0.0.1 port (socket in `dir`, durability off for speed), creates the
// migrated template and writes the admin URL to dir/admin_url. The server outlives the calling
// process. Returns the admin URL.
absl::StatusOr<std::string> StartServerIn(const std::string& dir);
// Stops the server in `dir` (if any) and removes everything there but its log (and the marker that
// lets a later StartServerIn wipe the folder).
absl::Status StopServerIn(const std::string& dir);

// A PostgreSQL server for tests. Its methods throw std::runtime_error saying what failed (gtest
// reports it as the test's failure); Stop on the shared server of a ctest run throws
// std::logic_error.
class PgTestServer {
 public:
  // The server of this run, started on first use.
  static PgTestServer& Get();
  // URL of the maintenance database (postgres).
  virtual std::string AdminUrl() const = 0;
  // Creates a database from the migrated template; returns its URL.
  virtual std::string CreateDatabase(const std::string& name) = 0;
  virtual void DropDatabase(const std::string& name) = 0;
  // A server of the caller's own, for tests that stop and start it (the shared one must stay up for
  // tests running in parallel). Stopped and removed when destroyed.
  static std::unique_ptr<PgTestServer> StartPrivate();
  // Stops / starts the server, keeping its data and port.
  virtual void Stop() = 0;
  virtual void Start() = 0;
  virtual ~PgTestServer() = default;
};

// A fixture whose every test has a fresh migrated database at url().
class PgTest : public ::testing::Test {
 protected:
  void SetUp() override;
  void TearDown() override;
  const std::string& url() const { return url_; }

 private:
  std::string name_;
  std::string url_;
};

}  // namespace kahve::testing

#endif  // KAHVE_TESTS_SUPPORT_PG_TEST_ENV_H_

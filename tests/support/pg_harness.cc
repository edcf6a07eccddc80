// kahve_pg_harness start DIR | stop DIR: the PostgreSQL of a ctest run (fixture `pg`). `start`
// leaves a running server with the migrated template in DIR and its admin URL in DIR/admin_url,
// which tests find through KAHVE_TEST_PG_URL_FILE; `stop` stops it and clears DIR.

#include <cstdio>
#include <string>

#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "tests/support/pg_test_env.h"

int main(int argc, char** argv) {
  const std::string command = argc == 3 ? argv[1] : "";
  if (command != "start" && command != "stop") {
    std::fprintf(stderr, "usage: %s start|stop DIR\n", argv[0]);
    return 2;
  }
  const std::string dir = argv[2];
  const absl::Time begin = absl::Now();
  if (command == "start") {
    const absl::StatusOr<std::string> url = kahve::testing::StartServerIn(dir);
    if (!url.ok()) {
      std::fprintf(stderr, "kahve_pg_harness: %s\n", url.status().ToString().c_str());
      return 1;
    }
    std::printf("PostgreSQL ready at %s in %s (folder %s)\n", url->c_str(),
                absl::FormatDuration(absl::Now() - begin).c_str(), dir.c_str());
    return 0;
  }
  const absl::Status stopped = kahve::testing::StopServerIn(dir);
  if (!stopped.ok()) {
    std::fprintf(stderr, "kahve_pg_harness: %s\n", stopped.ToString().c_str());
    return 1;
  }
  std::printf("PostgreSQL in %s stopped in %s\n", dir.c_str(),
              absl::FormatDuration(absl::Now() - begin).c_str());
  return 0;
}

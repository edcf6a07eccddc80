#include "services/common/config.h"

#include <cstdlib>
#include <string>

#include "absl/flags/declare.h"
#include "absl/flags/flag.h"
#include "absl/flags/reflection.h"
#include "absl/synchronization/notification.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "services/common/logging.h"
#include "services/common/request_id.h"
#include "services/common/worker_pool.h"

ABSL_DECLARE_FLAG(int32_t, provisional_games);
ABSL_DECLARE_FLAG(std::string, log_level);

namespace kahve::common {
namespace {

using ::testing::Contains;
using ::testing::HasSubstr;
using ::testing::Not;

class ConfigTest : public ::testing::Test {
 protected:
  void TearDown() override {
    unsetenv("KAHVE_PROVISIONAL_GAMES");
    unsetenv("KAHVE_LOG_LEVEL");
  }
  absl::FlagSaver saver_;
};

TEST_F(ConfigTest, VariableNames) {
  EXPECT_EQ(EnvironmentVariableFor("database"), "KAHVE_DATABASE");
  EXPECT_EQ(EnvironmentVariableFor("jwt_hs256_secret"), "KAHVE_JWT_HS256_SECRET");
}

TEST_F(ConfigTest, EnvironmentSetsFlags) {
  setenv("KAHVE_PROVISIONAL_GAMES", "7", 1);
  setenv("KAHVE_LOG_LEVEL", "error", 1);
  ASSERT_TRUE(ApplyEnvironmentToFlags().ok());
  EXPECT_EQ(absl::GetFlag(FLAGS_provisional_games), 7);
  EXPECT_EQ(MinLogLevel(), LogLevel::kError);
}

TEST_F(ConfigTest, BadValueNamesTheVariableAndChangesNothing) {
  setenv("KAHVE_PROVISIONAL_GAMES", "seven", 1);
  const absl::Status status = ApplyEnvironmentToFlags();
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(status.message(), HasSubstr("KAHVE_PROVISIONAL_GAMES"));
  EXPECT_EQ(absl::GetFlag(FLAGS_provisional_games), 10);
}

TEST_F(ConfigTest, CommandLineWinsOverEnvironment) {
  setenv("KAHVE_PROVISIONAL_GAMES", "7", 1);
  char program[] = "test";
  char flag[] = "--provisional_games=3";
  char* argv[] = {program, flag};
  ParseFlags(2, argv);
  EXPECT_EQ(absl::GetFlag(FLAGS_provisional_games), 3);
}

TEST_F(ConfigTest, OnlyKahveFlagsAreListed) {
  const std::vector<std::string> names = KahveFlagNames();
  EXPECT_THAT(names, Contains("provisional_games"));
  EXPECT_THAT(names, Contains("port"));
  EXPECT_THAT(names, Contains("jwt_hs256_secret"));
  EXPECT_THAT(names, Not(Contains("flagfile")));
}

TEST(LoggingTest, OneJsonObjectPerLine) {
  const std::string line = FormatLogLine(
      LogLevel::kWarning, "table \"7\"\nlost",
      {{"table", std::string("t-1")}, {"seats", int64_t{4}}, {"ratio", 0.5}, {"ok", true}},
      /*unix_micros=*/1'700'000'000'123'456);
  EXPECT_EQ(line,
            "{\"ts\":\"2023-11-14T22:13:20.123456Z\",\"level\":\"warning\",\"msg\":\"table "
            "\\\"7\\\"\\nlost\",\"table\":\"t-1\",\"seats\":4,\"ratio\":0.5,\"ok\":true}");
}

// Lines written for a call carry its request id, on the thread that took the call and on the
// workers its tasks run on; lines of no call carry none.
TEST(LoggingTest, LinesOfACallCarryItsRequestIdOnEveryThreadItsWorkRuns) {
  auto line = [] { return FormatLogLine(LogLevel::kInfo, "m", {}, 0); };
  EXPECT_THAT(line(), Not(HasSubstr("request_id")));
  WorkerPool workers(2);
  std::string on_worker;
  std::string unscoped_on_worker = "(not run)";
  absl::Notification scoped_ran, unscoped_ran;
  {
    const ScopedRequestId call("req-1");
    EXPECT_THAT(line(), HasSubstr(",\"request_id\":\"req-1\"}"));
    {
      const ScopedRequestId nested("req-2");
      EXPECT_THAT(line(), HasSubstr("\"request_id\":\"req-2\""));
    }
    EXPECT_THAT(line(), HasSubstr("\"request_id\":\"req-1\""));
    workers.Schedule([&] {
      on_worker = line();
      scoped_ran.Notify();
    });
  }
  EXPECT_THAT(line(), Not(HasSubstr("request_id")));
  workers.Schedule([&] {
    unscoped_on_worker = line();
    unscoped_ran.Notify();
  });
  ASSERT_TRUE(scoped_ran.WaitForNotificationWithTimeout(absl::Seconds(10)));
  ASSERT_TRUE(unscoped_ran.WaitForNotificationWithTimeout(absl::Seconds(10)));
  EXPECT_THAT(on_worker, HasSubstr("\"request_id\":\"req-1\""));
  EXPECT_THAT(unscoped_on_worker, Not(HasSubstr("request_id")));
}

TEST(RequestIdTest, OnlyPlainTokensAreTakenFromCallers) {
  for (const char* plain : {"a", "0f8e2c1a-77b1-4c6e-9a61-2c0d5f1e8b3a", "edge.7_f-3"}) {
    EXPECT_TRUE(IsPlainRequestId(plain)) << plain;
  }
  for (const std::string& bad :
       {std::string(), std::string(65, 'x'), std::string("a b"), std::string("a\"b"),
        std::string("a\nb"), std::string("\xc3\xa7")}) {
    EXPECT_FALSE(IsPlainRequestId(bad)) << bad;
  }
}

}  // namespace
}  // namespace kahve::common

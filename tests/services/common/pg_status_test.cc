#include "services/common/pg_status.h"

#include <stdexcept>
#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "pqxx/except"
#include "services/common/status.h"

namespace kahve::common {
namespace {

using ::testing::HasSubstr;

// What the edge makes of `error` once thrown.
template <typename Exception>
PgError Mapped(const Exception& error) {
  try {
    throw error;
  } catch (...) {
    return CurrentPgError();
  }
}

bool FromTheDatabase(const absl::Status& status) {
  return status.GetPayload(kDatabasePayload).has_value();
}

TEST(PgStatusTest, BrokenConnectionIsUnavailableAndLost) {
  const PgError error =
      Mapped(pqxx::broken_connection("could not connect to server\nIs the server running?"));
  EXPECT_EQ(error.status.code(), absl::StatusCode::kUnavailable);
  EXPECT_TRUE(error.connection_lost);
  EXPECT_FALSE(IsRetryable(error.status));
  EXPECT_EQ(SqlStateOf(error.status), "");
  EXPECT_EQ(error.status.message(), "database unavailable: could not connect to server");
  EXPECT_TRUE(FromTheDatabase(error.status));
}

TEST(PgStatusTest, InDoubtCommitIsUnavailableAndLost) {
  const PgError error = Mapped(pqxx::in_doubt_error("connection lost during COMMIT"));
  EXPECT_EQ(error.status.code(), absl::StatusCode::kUnavailable);
  EXPECT_TRUE(error.connection_lost);
  EXPECT_FALSE(IsRetryable(error.status));
  EXPECT_THAT(error.status.message(), HasSubstr("outcome is unknown"));
}

// libpqxx 6.4 throws these without an SQLSTATE; the edge names it from the type.
TEST(PgStatusTest, SerializationFailureAndDeadlockAreRetryable) {
  const PgError serialization = Mapped(pqxx::serialization_failure("could not serialize"));
  EXPECT_EQ(serialization.status.code(), absl::StatusCode::kAborted);
  EXPECT_TRUE(IsRetryable(serialization.status));
  EXPECT_FALSE(serialization.connection_lost);
  EXPECT_EQ(SqlStateOf(serialization.status), "40001");

  const PgError deadlock = Mapped(pqxx::deadlock_detected("deadlock detected"));
  EXPECT_EQ(deadlock.status.code(), absl::StatusCode::kAborted);
  EXPECT_TRUE(IsRetryable(deadlock.status));
  EXPECT_EQ(SqlStateOf(deadlock.status), "40P01");
}

TEST(PgStatusTest, OtherRollbacksAreInternal) {
  const PgError unknown = Mapped(pqxx::statement_completion_unknown("completion unknown"));
  EXPECT_EQ(unknown.status.code(), absl::StatusCode::kInternal);
  EXPECT_EQ(SqlStateOf(unknown.status), "40003");
  EXPECT_FALSE(IsRetryable(unknown.status));

  const PgError rollback = Mapped(pqxx::transaction_rollback("rolled back"));
  EXPECT_EQ(rollback.status.code(), absl::StatusCode::kInternal);
  EXPECT_EQ(SqlStateOf(rollback.status), "40000");
  EXPECT_FALSE(rollback.connection_lost);
}

TEST(PgStatusTest, SqlErrorWithASerializationStateIsRetryable) {
  for (const char* sqlstate : {"40001", "40P01"}) {
    const PgError error = Mapped(pqxx::sql_error("ERROR:  conflict", "UPDATE t", sqlstate));
    EXPECT_EQ(error.status.code(), absl::StatusCode::kAborted) << sqlstate;
    EXPECT_TRUE(IsRetryable(error.status)) << sqlstate;
    EXPECT_EQ(SqlStateOf(error.status), sqlstate);
    EXPECT_THAT(error.status.message(), HasSubstr(sqlstate));
  }
}

TEST(PgStatusTest, ConnectionClassAndShutdownStatesAreLost) {
  for (const char* sqlstate : {"08006", "08003", "57P01", "57P02", "57P03"}) {
    const PgError error =
        Mapped(pqxx::sql_error("FATAL:  terminating connection", "SELECT 1", sqlstate));
    EXPECT_EQ(error.status.code(), absl::StatusCode::kUnavailable) << sqlstate;
    EXPECT_TRUE(error.connection_lost) << sqlstate;
    EXPECT_EQ(SqlStateOf(error.status), sqlstate);
    EXPECT_EQ(error.status.message(), "database unavailable: terminating connection");
  }
  const PgError query_canceled = Mapped(pqxx::sql_error("ERROR:  canceled", "SELECT 1", "57014"));
  EXPECT_EQ(query_canceled.status.code(), absl::StatusCode::kInternal);
  EXPECT_FALSE(query_canceled.connection_lost);
}

TEST(PgStatusTest, UniqueViolationIsAnInternalDataError) {
  const PgError error = Mapped(pqxx::unique_violation(
      "ERROR:  duplicate key value violates unique constraint \"once_pkey\"\nDETAIL:  Key (id)=(1)",
      "INSERT INTO once VALUES (1)", "23505"));
  EXPECT_EQ(error.status.code(), absl::StatusCode::kInternal);
  EXPECT_FALSE(error.connection_lost);
  EXPECT_FALSE(IsRetryable(error.status));
  EXPECT_EQ(SqlStateOf(error.status), "23505");
  EXPECT_TRUE(IsUniqueViolation(error.status));
  EXPECT_TRUE(IsDataError(error.status));
  EXPECT_EQ(error.status.message(),
            "database error (SQLSTATE 23505): duplicate key value violates unique constraint "
            "\"once_pkey\"");
  EXPECT_TRUE(FromTheDatabase(error.status));
}

TEST(PgStatusTest, DataClassesAreDataErrors) {
  const PgError invalid_text =
      Mapped(pqxx::data_exception("ERROR:  invalid input syntax", "SELECT 'x'::int", "22P02"));
  EXPECT_TRUE(IsDataError(invalid_text.status));
  EXPECT_FALSE(IsUniqueViolation(invalid_text.status));
  const PgError foreign_key =
      Mapped(pqxx::foreign_key_violation("ERROR:  violates foreign key", "INSERT", "23503"));
  EXPECT_TRUE(IsDataError(foreign_key.status));
  EXPECT_FALSE(IsUniqueViolation(foreign_key.status));
}

TEST(PgStatusTest, OtherSqlStatesAreInternalAndNotDataErrors) {
  const PgError error =
      Mapped(pqxx::undefined_table("ERROR:  relation does not exist", "SELECT", "42P01"));
  EXPECT_EQ(error.status.code(), absl::StatusCode::kInternal);
  EXPECT_EQ(SqlStateOf(error.status), "42P01");
  EXPECT_FALSE(IsDataError(error.status));
  EXPECT_FALSE(error.connection_lost);
}

TEST(PgStatusTest, OtherExceptionsAreInternalWithoutSqlState) {
  for (const PgError& error :
       {Mapped(std::runtime_error("oops")), Mapped(pqxx::usage_error("oops: misused")),
        Mapped(pqxx::conversion_error("oops: not an int"))}) {
    EXPECT_EQ(error.status.code(), absl::StatusCode::kInternal);
    EXPECT_THAT(error.status.message(), HasSubstr("oops"));
    EXPECT_EQ(SqlStateOf(error.status), "");
    EXPECT_FALSE(error.connection_lost);
    EXPECT_TRUE(FromTheDatabase(error.status));
  }
  const PgError odd = Mapped(42);
  EXPECT_EQ(odd.status.code(), absl::StatusCode::kInternal);
  EXPECT_FALSE(odd.connection_lost);
}

TEST(PgStatusTest, ConnectionLostMakesAFailureUnavailable) {
  const absl::Status status = ConnectionLost(absl::InternalError("server closed\nunexpectedly"));
  EXPECT_EQ(status.code(), absl::StatusCode::kUnavailable);
  EXPECT_EQ(status.message(), "database connection lost: server closed");
  EXPECT_TRUE(FromTheDatabase(status));
}

TEST(PgStatusTest, StatusesFromElsewhereCarryNoSqlState) {
  const absl::Status aborted = absl::AbortedError("a concurrent change");
  EXPECT_TRUE(IsRetryable(aborted));
  EXPECT_EQ(SqlStateOf(aborted), "");
  EXPECT_FALSE(IsDataError(absl::InvalidArgumentError("bad")));
  EXPECT_FALSE(IsUniqueViolation(absl::OkStatus()));
  EXPECT_EQ(SqlStateOf(absl::OkStatus()), "");
}

}  // namespace
}  // namespace kahve::common

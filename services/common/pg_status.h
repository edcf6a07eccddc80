#ifndef KAHVE_SERVICES_COMMON_PG_STATUS_H_
#define KAHVE_SERVICES_COMMON_PG_STATUS_H_

// The database edge: the one place where a libpqxx exception becomes an absl::Status. PgPool::Run,
// the event log's writer and migrations all map through CurrentPgError; stores never catch pqxx
// types, they let the exception reach the edge and read the status (IsUniqueViolation for "already
// there", IsDataError for a refusal that would repeat, IsRetryable for a conflict worth retrying).
//
// Codes, by what the caller should do next:
//   connection lost (broken_connection, SQLSTATE class 08, 57P01..57P03)  Unavailable, lost
//   commit outcome unknown (in_doubt_error)                                Unavailable, lost
//   serialization failure 40001, deadlock 40P01                            Aborted (retryable)
//   any other SQLSTATE (data 22xxx and integrity 23xxx included)           Internal
//   any other exception                                                    Internal, no SQLSTATE
// Every status carries FromDatabase's mark, and its SQLSTATE when the server sent one. Messages
// hold the server's first line: fine for logs, never for clients (ToGrpcStatus hides them).

#include <string>

#include "absl/status/status.h"

namespace kahve::common {

struct PgError {
  absl::Status status;
  // The connection the exception came from is unusable and must be dropped.
  bool connection_lost = false;
};

// Maps the exception in flight. Call it only inside a catch block.
PgError CurrentPgError();

// The status for a failure (`status`) of work whose connection turned out to be closed:
// Unavailable, whatever the work's own error said, since the closing is what made it fail.
absl::Status ConnectionLost(const absl::Status& status);

// Whether a status is worth retrying the whole unit of work for (Aborted).
bool IsRetryable(const absl::Status& status);

// The SQLSTATE ("42P01") a status from the edge carries as a payload, or "" when it carries none.
std::string SqlStateOf(const absl::Status& status);

// The database refused the data itself (SQLSTATE class 22 data exception or 23 integrity
// violation): the same statement with the same values would fail again.
bool IsDataError(const absl::Status& status);

// A unique constraint refused a row (23505): usually someone else stored it first.
bool IsUniqueViolation(const absl::Status& status);

}  // namespace kahve::common

#endif  // KAHVE_SERVICES_COMMON_PG_STATUS_H_

#include "services/common/pg_status.h"

#include <exception>
#include <utility>

#include "absl/strings/cord.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "pqxx/except"
#include "services/common/status.h"

namespace kahve::common {
namespace {

constexpr char kSqlStatePayload[] = "kahve/sqlstate";

// The first line of a libpq or server message, without its "ERROR:  " style prefix.
std::string FirstLine(absl::string_view text) {
  text = text.substr(0, text.find('\n'));
  for (absl::string_view prefix : {"ERROR:  ", "FATAL:  ", "PANIC:  "}) {
    if (absl::StartsWith(text, prefix)) text.remove_prefix(prefix.size());
  }
  return std::string(text);
}

absl::Status WithSqlState(absl::Status status, absl::string_view sqlstate) {
  if (!sqlstate.empty()) status.SetPayload(kSqlStatePayload, absl::Cord(sqlstate));
  return FromDatabase(std::move(status));
}

absl::Status Unavailable(absl::string_view what, absl::string_view detail,
                         absl::string_view sqlstate = "") {
  std::string message(what);
  if (!detail.empty()) absl::StrAppend(&message, ": ", FirstLine(detail));
  return WithSqlState(absl::UnavailableError(message), sqlstate);
}

absl::Status Aborted(absl::string_view sqlstate, absl::string_view detail) {
  return WithSqlState(
      absl::AbortedError(absl::StrCat("database transaction aborted (SQLSTATE ",
                                      std::string(sqlstate), "): ", FirstLine(detail))),
      sqlstate);
}

absl::Status Internal(absl::string_view sqlstate, absl::string_view detail) {
  if (sqlstate.empty())
    return FromDatabase(absl::InternalError(absl::StrCat("database error: ", FirstLine(detail))));
  return WithSqlState(
      absl::InternalError(absl::StrCat("database error (SQLSTATE ", std::string(sqlstate),
                                       "): ", FirstLine(detail))),
      sqlstate);
}

bool IsConnectionLoss(absl::string_view sqlstate) {
  // Class 08: connection exceptions; 57P01..57P03: admin_shutdown, crash_shutdown,
  // cannot_connect_now (the server is going away or not back yet).
  return absl::StartsWith(sqlstate, "08") || sqlstate == "57P01" || sqlstate == "57P02" ||
         sqlstate == "57P03";
}

}  // namespace

// libpqxx 6.4 throws the transaction_rollback family without an SQLSTATE (they are not
// sql_errors), so their codes are filled in from the type.
PgError CurrentPgError() {
  try {
    throw;
  } catch (const pqxx::broken_connection& e) {
    return {Unavailable("database unavailable", e.what()), /*connection_lost=*/true};
  } catch (const pqxx::serialization_failure& e) {
    return {Aborted("40001", e.what())};
  } catch (const pqxx::deadlock_detected& e) {
    return {Aborted("40P01", e.what())};
  } catch (const pqxx::statement_completion_unknown& e) {
    return {Internal("40003", e.what())};
  } catch (const pqxx::transaction_rollback& e) {
    return {Internal("40000", e.what())};
  } catch (const pqxx::in_doubt_error& e) {
    return {Unavailable("database connection lost during commit; the outcome is unknown", e.what()),
            /*connection_lost=*/true};
  } catch (const pqxx::sql_error& e) {
    const std::string& sqlstate = e.sqlstate();
    if (sqlstate == "40001" || sqlstate == "40P01") return {Aborted(sqlstate, e.what())};
    if (IsConnectionLoss(sqlstate)) {
      return {Unavailable("database unavailable", e.what(), sqlstate), /*connection_lost=*/true};
    }
    return {Internal(sqlstate, e.what())};
  } catch (const std::exception& e) {
    return {Internal("", e.what())};
  } catch (...) {
    return {FromDatabase(absl::InternalError("database work threw a non-standard exception"))};
  }
}

absl::Status ConnectionLost(const absl::Status& status) {
  return Unavailable("database connection lost", status.message());
}

bool IsRetryable(const absl::Status& status) { return status.code() == absl::StatusCode::kAborted; }

std::string SqlStateOf(const absl::Status& status) {
  const absl::optional<absl::Cord> payload = status.GetPayload(kSqlStatePayload);
  return payload.has_value() ? std::string(*payload) : std::string();
}

bool IsDataError(const absl::Status& status) {
  const std::string sqlstate = SqlStateOf(status);
  return absl::StartsWith(sqlstate, "22") || absl::StartsWith(sqlstate, "23");
}

bool IsUniqueViolation(const absl::Status& status) { return SqlStateOf(status) == "23505"; }

}  // namespace kahve::common

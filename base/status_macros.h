#ifndef KAHVE_BASE_STATUS_MACROS_H_
#define KAHVE_BASE_STATUS_MACROS_H_

#include "absl/status/status.h"
#include "absl/status/statusor.h"

// Abseil 20220623 has no RETURN_IF_ERROR / ASSIGN_OR_RETURN; these are the project's only copies.

#define KAHVE_RETURN_IF_ERROR(expr)                \
  do {                                             \
    ::absl::Status kahve_status_ = (expr);         \
    if (!kahve_status_.ok()) return kahve_status_; \
  } while (false)

#define KAHVE_STATUS_CONCAT_INNER_(a, b) a##b
#define KAHVE_STATUS_CONCAT_(a, b) KAHVE_STATUS_CONCAT_INNER_(a, b)

#define KAHVE_ASSIGN_OR_RETURN(lhs, expr) \
  KAHVE_ASSIGN_OR_RETURN_IMPL_(KAHVE_STATUS_CONCAT_(kahve_statusor_, __LINE__), lhs, expr)

#define KAHVE_ASSIGN_OR_RETURN_IMPL_(statusor, lhs, expr)  \
  auto statusor = (expr);                                  \
  if (!statusor.ok()) return std::move(statusor).status(); \
  lhs = std::move(statusor).value()

#endif  // KAHVE_BASE_STATUS_MACROS_H_

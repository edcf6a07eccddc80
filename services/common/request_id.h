#ifndef KAHVE_SERVICES_COMMON_REQUEST_ID_H_
#define KAHVE_SERVICES_COMMON_REQUEST_ID_H_

// A request id per call, so that an operator can find every log line of one call and a client
// can quote it. The id is the caller's `x-request-id` when it is a plain token (the entry proxy,
// Envoy, gives every call a new one) or else a new random one; the server returns it as
// `x-request-id` in the response's trailing metadata. Log lines written while a call's work runs
// carry it as `request_id` (ScopedRequestId, logging.h): a handler sets it around the work it
// schedules, and the worker pool passes it on to every task scheduled under it.

#include <string>

#include "absl/strings/string_view.h"
#include "grpcpp/grpcpp.h"
#include "services/common/logging.h"

namespace kahve::common {

inline constexpr char kRequestIdKey[] = "x-request-id";

// Whether `id` may be used as a request id: 1-64 characters of letters, digits, '-', '_', '.'
// (a UUID, a hex string). Anything else a client sends is replaced, never logged.
bool IsPlainRequestId(absl::string_view id);

// The call's request id (its x-request-id when plain, else a new one), returned to the client in
// the trailing metadata. Call once per call.
std::string AssignRequestId(grpc::ServerContextBase& context);

}  // namespace kahve::common

#endif  // KAHVE_SERVICES_COMMON_REQUEST_ID_H_

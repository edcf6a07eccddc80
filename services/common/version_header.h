#ifndef KAHVE_SERVICES_COMMON_VERSION_HEADER_H_
#define KAHVE_SERVICES_COMMON_VERSION_HEADER_H_

// Tells clients which kahve version answered: every call's response carries
// `kahve-server-version: <version>` (docs/api.md, "Versions"). It goes in the initial metadata
// (headers) of every answer that sends them, and in the trailing metadata of every call. A call
// refused before it sent anything is answered without headers (a "Trailers-Only" response, which
// clients' automatic retries rely on), so there it is in the trailers only.

#include <memory>

#include "grpcpp/support/server_interceptor.h"

namespace kahve::common {

inline constexpr char kServerVersionHeader[] = "kahve-server-version";

// The interceptor that writes the header; the server adds it to every service.
std::unique_ptr<grpc::experimental::ServerInterceptorFactoryInterface>
ServerVersionInterceptorFactory();

}  // namespace kahve::common

#endif  // KAHVE_SERVICES_COMMON_VERSION_HEADER_H_

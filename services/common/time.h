#ifndef KAHVE_SERVICES_COMMON_TIME_H_
#define KAHVE_SERVICES_COMMON_TIME_H_

#include "google/protobuf/timestamp.pb.h"

namespace kahve::common {

// Whether a Timestamp lies in 0001-01-01..9999-12-31 with nanos in 0..999999999, the range the
// protobuf spec allows (protobuf 3.21 keeps its own check private).
inline bool IsValidTimestamp(const google::protobuf::Timestamp& time) {
  constexpr int64_t kMinSeconds = -62135596800;
  constexpr int64_t kMaxSeconds = 253402300799;
  return time.seconds() >= kMinSeconds && time.seconds() <= kMaxSeconds && time.nanos() >= 0 &&
         time.nanos() <= 999999999;
}

}  // namespace kahve::common

#endif  // KAHVE_SERVICES_COMMON_TIME_H_

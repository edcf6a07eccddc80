#ifndef KAHVE_SERVICES_COMMON_IDS_H_
#define KAHVE_SERVICES_COMMON_IDS_H_

// The id rules every service shares, so that an id one service accepts (a table's match id, its
// players) is never one another refuses later (the rating service recording that match).

#include <algorithm>
#include <cstddef>
#include <string_view>

namespace kahve::common {

inline constexpr size_t kMaxIdLength = 128;
// What IsValidMatchId accepts, for error messages.
inline constexpr char kMatchIdRule[] = "1..128 characters of [A-Za-z0-9._:-]";
inline constexpr char kPlayerIdRule[] = "1..128 characters";

// A match id: 1..128 characters of [A-Za-z0-9._:-] (safe in URLs, logs and file names).
inline bool IsValidMatchId(std::string_view id) {
  return !id.empty() && id.size() <= kMaxIdLength && std::all_of(id.begin(), id.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' ||
           c == '_' || c == '.' || c == ':';
  });
}

// A player id: 1..128 characters of any kind (identity providers choose them).
inline bool IsValidPlayerId(std::string_view id) {
  return !id.empty() && id.size() <= kMaxIdLength;
}

}  // namespace kahve::common

#endif  // KAHVE_SERVICES_COMMON_IDS_H_

#ifndef KAHVE_SERVICES_COMMON_LOGGING_H_
#define KAHVE_SERVICES_COMMON_LOGGING_H_

// Logs: one JSON object per line on stdout: {"ts": RFC 3339 UTC, "level", "msg", ...fields}.
// Lines are written whole under a lock, so concurrent threads never interleave.
// Never log tokens, hidden tiles or dice: fields are for public facts and ids.

#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>
#include <utility>
#include <variant>

namespace kahve::common {

enum class LogLevel { kDebug, kInfo, kWarning, kError };

using LogValue = std::variant<std::string, int64_t, double, bool>;
using LogField = std::pair<std::string, LogValue>;

// Lines below this level are dropped (--log_level: debug, info, warning, error).
LogLevel MinLogLevel();

void Log(LogLevel level, std::string_view message, std::initializer_list<LogField> fields = {});

// `text` as a JSON string literal, quotes included (every quote, backslash and control character
// escaped; other bytes as they are).
std::string JsonString(std::string_view text);

// The JSON line Log would print, without the newline (tests); with this thread's request id.
std::string FormatLogLine(LogLevel level, std::string_view message,
                          std::initializer_list<LogField> fields, int64_t unix_micros);

// The request id of the call whose work this thread runs now (request_id.h), added to every line
// as `request_id`; empty when none.
const std::string& CurrentRequestId();

// Sets this thread's request id for its lifetime, then restores the previous one.
class ScopedRequestId {
 public:
  explicit ScopedRequestId(std::string id);
  ~ScopedRequestId();
  ScopedRequestId(const ScopedRequestId&) = delete;
  ScopedRequestId& operator=(const ScopedRequestId&) = delete;

 private:
  std::string previous_;
};

inline void LogInfo(std::string_view message, std::initializer_list<LogField> fields = {}) {
  Log(LogLevel::kInfo, message, fields);
}
inline void LogWarning(std::string_view message, std::initializer_list<LogField> fields = {}) {
  Log(LogLevel::kWarning, message, fields);
}
inline void LogError(std::string_view message, std::initializer_list<LogField> fields = {}) {
  Log(LogLevel::kError, message, fields);
}

}  // namespace kahve::common

#endif  // KAHVE_SERVICES_COMMON_LOGGING_H_

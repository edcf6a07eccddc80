#include "services/common/logging.h"

#include <cstdio>
#include <utility>

#include "absl/flags/flag.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"

ABSL_FLAG(std::string, log_level, "info", "Lowest log level written: debug, info, warning, error.");

namespace kahve::common {
namespace {

const char* LevelName(LogLevel level) {
  switch (level) {
    case LogLevel::kDebug:
      return "debug";
    case LogLevel::kInfo:
      return "info";
    case LogLevel::kWarning:
      return "warning";
    case LogLevel::kError:
      return "error";
  }
  return "info";
}

void AppendJsonString(std::string& out, std::string_view text) {
  out.reserve(out.size() + text.size() + 2);
  out.push_back('"');
  for (const char c : text) {
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\t':
        out += "\\t";
        break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          out += absl::StrFormat("\\u%04x", c);
        } else {
          out.push_back(c);
        }
    }
  }
  out.push_back('"');
}

void AppendValue(std::string& out, const LogValue& value) {
  if (const auto* text = std::get_if<std::string>(&value)) {
    AppendJsonString(out, *text);
  } else if (const auto* integer = std::get_if<int64_t>(&value)) {
    absl::StrAppend(&out, *integer);
  } else if (const auto* real = std::get_if<double>(&value)) {
    absl::StrAppend(&out, absl::StrFormat("%.17g", *real));
  } else {
    out += std::get<bool>(value) ? "true" : "false";
  }
}

absl::Mutex stdout_mutex;

}  // namespace

std::string JsonString(std::string_view text) {
  std::string out;
  AppendJsonString(out, text);
  return out;
}

namespace {
thread_local std::string current_request_id;
}  // namespace

const std::string& CurrentRequestId() { return current_request_id; }

ScopedRequestId::ScopedRequestId(std::string id) : previous_(std::move(current_request_id)) {
  current_request_id = std::move(id);
}

ScopedRequestId::~ScopedRequestId() { current_request_id = std::move(previous_); }

LogLevel MinLogLevel() {
  const std::string level = absl::GetFlag(FLAGS_log_level);
  if (level == "debug") return LogLevel::kDebug;
  if (level == "warning") return LogLevel::kWarning;
  if (level == "error") return LogLevel::kError;
  return LogLevel::kInfo;
}

std::string FormatLogLine(LogLevel level, std::string_view message,
                          std::initializer_list<LogField> fields, int64_t unix_micros) {
  std::string line = "{\"ts\":\"";
  line += absl::FormatTime("%Y-%m-%d%ET%H:%M:%E6SZ", absl::FromUnixMicros(unix_micros),
                           absl::UTCTimeZone());
  line += "\",\"level\":\"";
  line += LevelName(level);
  line += "\",\"msg\":";
  AppendJsonString(line, message);
  for (const auto& [key, value] : fields) {
    line.push_back(',');
    AppendJsonString(line, key);
    line.push_back(':');
    AppendValue(line, value);
  }
  // The call this thread works for (request_id.h).
  if (const std::string& request_id = CurrentRequestId(); !request_id.empty()) {
    line += ",\"request_id\":";
    AppendJsonString(line, request_id);
  }
  line.push_back('}');
  return line;
}

void Log(LogLevel level, std::string_view message, std::initializer_list<LogField> fields) {
  if (level < MinLogLevel()) return;
  std::string line = FormatLogLine(level, message, fields, absl::ToUnixMicros(absl::Now()));
  line.push_back('\n');
  absl::MutexLock lock(&stdout_mutex);
  std::fwrite(line.data(), 1, line.size(), stdout);
  std::fflush(stdout);
}

}  // namespace kahve::common

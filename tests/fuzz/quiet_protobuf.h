#ifndef KAHVE_TESTS_FUZZ_QUIET_PROTOBUF_H_
#define KAHVE_TESTS_FUZZ_QUIET_PROTOBUF_H_

#include <cstdio>
#include <string>

#include "google/protobuf/stubs/logging.h"

namespace kahve::fuzz {

// Protobuf logs an error for every string field that is not UTF-8 when a parse fails, which fuzzed
// inputs do thousands of times a second; only its fatal messages (before an abort) still print.
inline void QuietProtobufLogs() {
  google::protobuf::SetLogHandler(
      [](google::protobuf::LogLevel level, const char* file, int line, const std::string& message) {
        if (level == google::protobuf::LOGLEVEL_FATAL) {
          std::fprintf(stderr, "%s:%d: %s\n", file, line, message.c_str());
        }
      });
}

}  // namespace kahve::fuzz

#endif  // KAHVE_TESTS_FUZZ_QUIET_PROTOBUF_H_

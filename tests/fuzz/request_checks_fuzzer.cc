// libFuzzer target: kahve.v1 requests through common::CheckRequestStrings; the format and checks
// are request_fuzz.h's.

#include <cstddef>
#include <cstdint>

#include "tests/fuzz/quiet_protobuf.h"
#include "tests/fuzz/request_fuzz.h"

extern "C" int LLVMFuzzerInitialize(int* /*argc*/, char*** /*argv*/) {
  kahve::fuzz::QuietProtobufLogs();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  kahve::fuzz::RunRequestInput(data, size);
  return 0;
}

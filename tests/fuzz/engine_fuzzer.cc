// libFuzzer target: games of the ruleset KAHVE_FUZZ_RULESET (set by CMake, one executable per
// ruleset) played from fuzzed settings, seed and moves; the format and checks are engine_fuzz.h's.

#include <cstddef>
#include <cstdint>

#include "tests/fuzz/engine_fuzz.h"
#include "tests/fuzz/quiet_protobuf.h"

extern "C" int LLVMFuzzerInitialize(int* /*argc*/, char*** /*argv*/) {
  kahve::fuzz::QuietProtobufLogs();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const kahve::fuzz::FuzzedRuleset& ruleset =
      kahve::fuzz::FuzzedRulesetFor(KAHVE_FUZZ_RULESET);
  kahve::fuzz::RunEngineInput(ruleset, data, size);
  return 0;
}

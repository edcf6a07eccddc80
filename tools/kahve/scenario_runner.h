#ifndef KAHVE_TOOLS_KAHVE_SCENARIO_RUNNER_H_
#define KAHVE_TOOLS_KAHVE_SCENARIO_RUNNER_H_

// Runs scenario files (kahve.v1.Scenario in protobuf's JSON mapping) against the engine.

#include <string>

#include "absl/status/statusor.h"
#include "kahve/v1/scenario.pb.h"

namespace kahve::tools {

// Reads and parses one scenario file; InvalidArgument names the file and the parse error.
absl::StatusOr<v1::Scenario> LoadScenario(const std::string& path);

// OK when every step and the end match; otherwise FailedPrecondition naming the first mismatch
// (step number, seat, move, what was expected and what came). Also checks, after every step, the
// engine's invariants and that a rejected move changed nothing.
absl::Status RunScenario(const v1::Scenario& scenario);

}  // namespace kahve::tools

#endif  // KAHVE_TOOLS_KAHVE_SCENARIO_RUNNER_H_

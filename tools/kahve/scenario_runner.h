#ifndef KAHVE_TOOLS_KAHVE_SCENARIO_RUNNER_H_
#define KAHVE_TOOLS_KAHVE_SCENARIO_RUNNER_H_

// Runs scenario files (kahve.v1.Scenario in protobuf's JSON mapping) against the engine.

#include <string>

#include "absl/status/statusor.h"
#include "google/protobuf/struct.pb.h"
#include "kahve/v1/scenario.pb.h"

namespace kahve::tools {

// A scenario file: the message, and the JSON as written. An expected event is compared on the
// fields the file writes, a field written with its default value (0, "", false) included, which
// the message alone cannot tell from a field left out.
struct ScenarioFile {
  v1::Scenario scenario;
  google::protobuf::Struct as_written;
};

// Reads and parses one scenario file; InvalidArgument names the file and the parse error.
absl::StatusOr<ScenarioFile> LoadScenario(const std::string& path);

// OK when every step and the end match; otherwise FailedPrecondition naming the first mismatch
// (step number, seat, move, what was expected and what came). Also checks, after every step, the
// engine's invariants and that a rejected move changed nothing. Expected events, views and
// results are compared on the fields `as_written` gives them, or without it on the fields they set
// to other than defaults. A file with `create_error` passes when creating the game fails so;
// `dealt` is checked against the deal before the first step. InvalidArgument for a file that
// contradicts itself (a rejection naming no reason, a view of no seat).
absl::Status RunScenario(const v1::Scenario& scenario,
                         const google::protobuf::Struct* as_written = nullptr);
inline absl::Status RunScenario(const ScenarioFile& file) {
  return RunScenario(file.scenario, &file.as_written);
}

}  // namespace kahve::tools

#endif  // KAHVE_TOOLS_KAHVE_SCENARIO_RUNNER_H_

#include <cstdio>

#include "tools/kahve/commands.h"
#include "tools/kahve/scenario_runner.h"

namespace kahve::tools {

int ScenarioCommand(const std::vector<std::string>& args) {
  if (args.empty()) {
    std::fputs("kahve scenario: name at least one scenario file\n", stderr);
    return 2;
  }
  for (const std::string& path : args) {
    auto scenario = LoadScenario(path);
    if (!scenario.ok()) {
      std::fprintf(stderr, "FAIL %s\n", std::string(scenario.status().message()).c_str());
      return 1;
    }
    const absl::Status status = RunScenario(*scenario);
    if (!status.ok()) {
      std::fprintf(stderr, "FAIL %s: %s\n", path.c_str(), std::string(status.message()).c_str());
      return 1;
    }
    std::printf("ok   %s  (%s)\n", path.c_str(), scenario->scenario.rule().c_str());
  }
  return 0;
}

}  // namespace kahve::tools

#ifndef KAHVE_TOOLS_KAHVE_COMMANDS_H_
#define KAHVE_TOOLS_KAHVE_COMMANDS_H_

// Subcommands of `kahve`. Each takes the positional arguments after its name (flags are parsed
// once, by main) and returns the process exit code.

#include <string>
#include <vector>

namespace kahve::tools {

int SimCommand(const std::vector<std::string>& args);
int ScenarioCommand(const std::vector<std::string>& args);

}  // namespace kahve::tools

#endif  // KAHVE_TOOLS_KAHVE_COMMANDS_H_

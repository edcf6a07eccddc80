#ifndef KAHVE_SERVICES_COMMON_CONFIG_H_
#define KAHVE_SERVICES_COMMON_CONFIG_H_

// Configuration: every flag (ABSL_FLAG, defined in the file that owns it) can also be set through
// an environment variable KAHVE_<FLAG NAME IN CAPITALS>; the command line wins over the
// environment. docs/configuration.md lists every flag in one table.

#include <cstdio>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"

namespace kahve::common {

// The environment variable for a flag: "database" -> "KAHVE_DATABASE".
std::string EnvironmentVariableFor(const std::string& flag_name);

// Sets each of kahve's flags whose KAHVE_ variable is present. InvalidArgument naming the variable
// when a value does not parse. Only flags defined in kahve's own sources are considered.
absl::Status ApplyEnvironmentToFlags();

// The binaries' flag parsing: the environment first, then absl::ParseCommandLine (which exits on a
// bad flag). Exits with a message when an environment value is bad. Returns the positional args.
// --help prints the program's usage message and its own flags (PrintFlagHelp) and exits 0.
std::vector<char*> ParseFlags(int argc, char** argv);

// Whether the command line asks for --help (or -h). kahve answers it itself: absl's --help lists
// only the flags of the file holding main. (--helpfull stays absl's: every flag, Abseil's too.)
bool AsksForHelp(int argc, char** argv);
// `usage`, then every kahve flag this binary holds that `shown` selects by name (all when null),
// sorted: `--name=DEFAULT  (KAHVE_NAME)` and the flag's help on the next line.
void PrintFlagHelp(std::FILE* out, std::string_view usage,
                   const std::function<bool(std::string_view name)>& shown = nullptr);

// Names of every flag defined in kahve's own sources, sorted (documentation checks).
std::vector<std::string> KahveFlagNames();

}  // namespace kahve::common

#endif  // KAHVE_SERVICES_COMMON_CONFIG_H_

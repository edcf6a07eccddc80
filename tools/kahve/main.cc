// kahve: the command-line tool. `kahve help` lists the commands.

#include <cstdio>
#include <string>
#include <vector>

#include "absl/flags/parse.h"
#include "absl/flags/usage.h"
#include "tools/kahve/commands.h"

namespace {

constexpr char kUsage[] =
    "kahve COMMAND [flags]\n"
    "  sim --game G --games N --seed S [--players P] [--dice D] [--rounds R] [--bots a,b,...]\n"
    "      plays N bot games and prints one JSON summary\n"
    "  scenario FILE.json...\n"
    "      runs scenario files; exits non-zero at the first mismatch\n";

}  // namespace

int main(int argc, char** argv) {
  absl::SetProgramUsageMessage(kUsage);
  std::vector<char*> positional = absl::ParseCommandLine(argc, argv);
  if (positional.size() < 2) {
    std::fputs(kUsage, stderr);
    return 2;
  }
  const std::string command = positional[1];
  const std::vector<std::string> args(positional.begin() + 2, positional.end());
  if (command == "sim") return kahve::tools::SimCommand(args);
  if (command == "scenario") return kahve::tools::ScenarioCommand(args);
  if (command == "help") {
    std::fputs(kUsage, stdout);
    return 0;
  }
  std::fprintf(stderr, "kahve: unknown command \"%s\"\n%s", command.c_str(), kUsage);
  return 2;
}

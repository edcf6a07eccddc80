#include "services/common/config.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>

#include "absl/flags/parse.h"
#include "absl/flags/reflection.h"
#include "absl/flags/usage.h"
#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"

namespace kahve::common {
namespace {

// Flags of kahve itself, not Abseil's or gRPC's: recognised by the file that defines them.
bool IsKahveFlag(const absl::CommandLineFlag& flag) {
  const std::string file = flag.Filename();
  return absl::StrContains(file, "services/") || absl::StrContains(file, "tools/kahve/") ||
         absl::StrContains(file, "engine/");
}

}  // namespace

std::string EnvironmentVariableFor(const std::string& flag_name) {
  return absl::StrCat("KAHVE_", absl::AsciiStrToUpper(flag_name));
}

absl::Status ApplyEnvironmentToFlags() {
  for (const auto& [name, flag] : absl::GetAllFlags()) {
    if (!IsKahveFlag(*flag)) continue;
    const std::string variable = EnvironmentVariableFor(std::string(name));
    const char* value = std::getenv(variable.c_str());
    if (value == nullptr) continue;
    std::string error;
    if (!flag->ParseFrom(value, &error)) {
      return absl::InvalidArgumentError(absl::StrCat(variable, ": ", error));
    }
  }
  return absl::OkStatus();
}

bool AsksForHelp(int argc, char** argv) {
  for (int index = 1; index < argc; ++index) {
    const std::string_view arg = argv[index];
    if (arg == "--") return false;
    if (arg == "--help" || arg == "-help" || arg == "-h") return true;
  }
  return false;
}

void PrintFlagHelp(std::FILE* out, std::string_view usage,
                   const std::function<bool(std::string_view name)>& shown) {
  std::fprintf(out, "%s%s", std::string(usage).c_str(), usage.ends_with('\n') ? "" : "\n");
  std::vector<const absl::CommandLineFlag*> flags;
  for (const auto& [name, flag] : absl::GetAllFlags()) {
    if (IsKahveFlag(*flag) && (!shown || shown(std::string(name)))) flags.push_back(flag);
  }
  if (flags.empty()) return;
  std::sort(flags.begin(), flags.end(),
            [](const auto* a, const auto* b) { return a->Name() < b->Name(); });
  std::fprintf(out,
               "\nFlags (each also read from its environment variable; the command line wins):\n");
  for (const absl::CommandLineFlag* flag : flags) {
    const std::string name(flag->Name());
    std::fprintf(out, "  --%s=%s  (%s)\n      %s\n", name.c_str(), flag->DefaultValue().c_str(),
                 EnvironmentVariableFor(name).c_str(), flag->Help().c_str());
  }
}

std::vector<char*> ParseFlags(int argc, char** argv) {
  if (AsksForHelp(argc, argv)) {
    PrintFlagHelp(stdout, std::string(absl::ProgramUsageMessage()));
    std::exit(0);
  }
  const absl::Status status = ApplyEnvironmentToFlags();
  if (!status.ok()) {
    std::fprintf(stderr, "%s\n", std::string(status.message()).c_str());
    std::exit(2);
  }
  return absl::ParseCommandLine(argc, argv);
}

std::vector<std::string> KahveFlagNames() {
  std::vector<std::string> names;
  for (const auto& [name, flag] : absl::GetAllFlags()) {
    if (IsKahveFlag(*flag)) names.emplace_back(name);
  }
  std::sort(names.begin(), names.end());
  return names;
}

}  // namespace kahve::common

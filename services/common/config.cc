#include "services/common/config.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>

#include "absl/flags/parse.h"
#include "absl/flags/reflection.h"
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

std::vector<char*> ParseFlags(int argc, char** argv) {
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

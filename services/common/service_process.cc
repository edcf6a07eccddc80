#include "services/common/service_process.h"

#include "absl/flags/usage.h"
#include "absl/flags/usage_config.h"
#include "absl/strings/str_cat.h"
#include "kahve/version.h"
#include "services/common/logging.h"

namespace kahve::common {

int RunServiceMain(int argc, char** argv, const ServiceDescription& service) {
  const std::string name(service.name);
  absl::SetProgramUsageMessage(absl::StrCat(
      name, ": ", std::string(service.summary), "\nUsage: ", name,
      " [--flag=value ...]   (docs/configuration.md has every flag; docs/operations.md how to run "
      "it)"));
  absl::FlagsUsageConfig usage;
  usage.version_string = [name] { return absl::StrCat(name, " ", kKahveVersion, "\n"); };
  absl::SetFlagsUsageConfig(usage);
  StartServiceProcess(argc, argv);
  auto process =
      service.start(ServerSettingsFromFlags(service.default_port, service.default_metrics_port));
  if (!process.ok()) return CannotStart(service.name, process.status());
  LogInfo(std::string(service.name) + " serving", {{"port", (*process)->port()}});
  WaitForTerminationSignal();
  (*process)->Stop();
  return 0;
}

}  // namespace kahve::common

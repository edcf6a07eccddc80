#include "services/common/service_process.h"

#include "services/common/logging.h"

namespace kahve::common {

int RunServiceMain(int argc, char** argv, const ServiceDescription& service) {
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

// kahve serve: kahve-rating, kahve-table and kahve-matchmaking in one process, for local use. Each
// keeps its own server, metrics and database pool, as if it ran alone.

#include <algorithm>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "absl/flags/declare.h"
#include "absl/flags/flag.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "services/common/logging.h"
#include "services/common/server.h"
#include "services/common/service_process.h"
#include "services/matchmaking/matchmaking_process.h"
#include "services/rating/rating_process.h"
#include "services/table/table_process.h"
#include "tools/kahve/commands.h"

ABSL_FLAG(bool, all, false, "serve: run all three services (rating, table, matchmaking).");
ABSL_DECLARE_FLAG(int32_t, port);
ABSL_DECLARE_FLAG(int32_t, metrics_port);
ABSL_DECLARE_FLAG(std::string, rating_target);
ABSL_DECLARE_FLAG(std::string, table_target);

namespace kahve::tools {
namespace {

// In the order they start: the rating service first, so the other two can be pointed at it.
const common::ServiceDescription* ServiceNamed(const std::string& name) {
  if (name == "rating") return &rating::kRatingService;
  if (name == "table") return &table::kTableService;
  if (name == "matchmaking") return &matchmaking::kMatchmakingService;
  return nullptr;
}

int Usage(const std::string& problem) {
  std::fprintf(stderr,
               "kahve serve: %s\nusage: kahve serve --all | SERVICE... (rating, table, "
               "matchmaking) [--port -1|0] [--metrics_port -1|0]\n",
               problem.c_str());
  return 2;
}

}  // namespace

int ServeCommand(const std::vector<std::string>& args) {
  std::vector<std::string> names = args;
  if (absl::GetFlag(FLAGS_all)) {
    if (!names.empty()) return Usage("--all and service names together");
    names = {"rating", "table", "matchmaking"};
  }
  if (names.empty()) return Usage("which services? (--all for all three)");
  for (const std::string& name : names) {
    if (ServiceNamed(name) == nullptr) return Usage(absl::StrCat("no service \"", name, "\""));
  }
  // Each named service once, in start order.
  std::vector<const common::ServiceDescription*> services;
  for (const char* start_order : {"rating", "table", "matchmaking"}) {
    if (std::find(names.begin(), names.end(), start_order) != names.end()) {
      services.push_back(ServiceNamed(start_order));
    }
  }
  // One port flag cannot name three ports: each takes its default (-1) or a free one (0).
  for (const int port : {absl::GetFlag(FLAGS_port), absl::GetFlag(FLAGS_metrics_port)}) {
    if (port > 0) return Usage("--port and --metrics_port can only be -1 (defaults) or 0 (free)");
  }

  common::BlockTerminationSignals();
  common::StopCheckingLockCycles();
  std::vector<std::unique_ptr<common::ServiceProcess>> running;
  std::vector<std::string> endpoints;
  for (const common::ServiceDescription* service : services) {
    auto process = service->start(
        common::ServerSettingsFromFlags(service->default_port, service->default_metrics_port));
    if (!process.ok()) {
      for (auto it = running.rbegin(); it != running.rend(); ++it) (*it)->Stop();
      return common::CannotStart(service->name, process.status());
    }
    const std::string name(service->name);
    common::LogInfo(name + " serving", {{"port", (*process)->port()}});
    endpoints.push_back(absl::StrCat(name, "=127.0.0.1:", (*process)->port()));
    // The services started next call this process's rating service.
    if (service == &rating::kRatingService) {
      absl::SetFlag(&FLAGS_rating_target, absl::StrCat("127.0.0.1:", (*process)->port()));
    }
    // And matchmaking asks this process's table service where tables go.
    if (service == &table::kTableService) {
      absl::SetFlag(&FLAGS_table_target, absl::StrCat("127.0.0.1:", (*process)->port()));
    }
    running.push_back(*std::move(process));
  }
  common::LogInfo("kahve serve ready", {{"endpoints", absl::StrJoin(endpoints, " ")}});

  common::WaitForTerminationSignal();
  // Reverse order: matchmaking stops placing before the tables go, the tables flush their results
  // to the rating service before it goes.
  for (auto it = running.rbegin(); it != running.rend(); ++it) (*it)->Stop();
  return 0;
}

}  // namespace kahve::tools

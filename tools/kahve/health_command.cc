// kahve health: one grpc.health.v1.Health/Check call, the probe scripts and containers use (this
// machine has no grpc_health_probe). Prints the status; exits 0 only on SERVING.

#include <cstdio>
#include <string>
#include <vector>

#include "absl/flags/declare.h"
#include "absl/flags/flag.h"
#include "grpcpp/grpcpp.h"
#include "tools/kahve/commands.h"
#include "tools/kahve/health_check.h"

ABSL_DECLARE_FLAG(std::string, target);
ABSL_FLAG(std::string, service, "",
          "health: the service name to ask about (empty: the server as a whole)");

namespace kahve::tools {
namespace {

constexpr absl::Duration kDeadline = absl::Seconds(5);

}  // namespace

int HealthCommand(const std::vector<std::string>& args) {
  if (!args.empty()) {
    std::fprintf(stderr, "kahve health: unexpected argument \"%s\"\n", args[0].c_str());
    return 2;
  }
  const std::string target = absl::GetFlag(FLAGS_target);
  const std::string service = absl::GetFlag(FLAGS_service);
  const absl::StatusOr<std::string> serving = CheckHealth(
      grpc::CreateChannel(target, grpc::InsecureChannelCredentials()), service, kDeadline);
  if (!serving.ok()) {
    const std::string asked = service.empty() ? target : target + " " + service;
    std::fprintf(stderr, "kahve health: %s: error %d: %s\n", asked.c_str(),
                 static_cast<int>(serving.status().code()),
                 std::string(serving.status().message()).c_str());
    return 1;
  }
  std::printf("%s\n", serving->c_str());
  return *serving == "SERVING" ? 0 : 1;
}

}  // namespace kahve::tools

// --rating_target lives apart from service_process.cc so that only the binaries that call the
// rating service (table, matchmaking, `kahve`) carry the flag.

#include "absl/flags/flag.h"
#include "services/common/service_process.h"

ABSL_FLAG(std::string, rating_target, "127.0.0.1:50053",
          "Table and matchmaking: the rating service (host:port, or dns:///name:port to spread "
          "calls over every address the name resolves to). The table sends finished matches "
          "there; matchmaking reads skills from it.");

namespace kahve::common {

std::string RatingTargetFromFlags() { return absl::GetFlag(FLAGS_rating_target); }

std::shared_ptr<grpc::Channel> RoundRobinChannel(const std::string& target) {
  // With a headless Service (dns:///...) each pod gets its share, where one HTTP/2 connection to
  // a virtual IP would pin a single pod.
  grpc::ChannelArguments arguments;
  arguments.SetLoadBalancingPolicyName("round_robin");
  return grpc::CreateCustomChannel(target, grpc::InsecureChannelCredentials(), arguments);
}

std::shared_ptr<grpc::Channel> ChannelToRatingService() {
  return RoundRobinChannel(RatingTargetFromFlags());
}

}  // namespace kahve::common

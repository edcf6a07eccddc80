#ifndef KAHVE_TOOLS_KAHVE_PLAYER_CHANNEL_H_
#define KAHVE_TOOLS_KAHVE_PLAYER_CHANNEL_H_

// The channel a well-behaved client opens to kahve: a call refused for its identity's call rate
// (RESOURCE_EXHAUSTED, with the grpc-retry-pushback-ms trailer) is retried by gRPC itself after the
// delay the server names, up to four times more. Retrying is safe for every method: the refusal
// comes from the gate, before anything is looked up or changed (docs/api.md, "Errors").

#include <memory>
#include <string>

#include "grpcpp/grpcpp.h"

namespace kahve::tools {

inline constexpr char kPlayerServiceConfig[] = R"json({
  "methodConfig": [{
    "name": [{"service": "kahve.v1.TableService"}, {"service": "kahve.v1.MatchmakingService"},
             {"service": "kahve.v1.RatingService"}],
    "retryPolicy": {
      "maxAttempts": 5,
      "initialBackoff": "0.1s",
      "maxBackoff": "2s",
      "backoffMultiplier": 2,
      "retryableStatusCodes": ["RESOURCE_EXHAUSTED"]
    }
  }]
})json";

inline std::shared_ptr<grpc::Channel> PlayerChannel(const std::string& target) {
  grpc::ChannelArguments args;
  args.SetServiceConfigJSON(kPlayerServiceConfig);
  args.SetInt(GRPC_ARG_ENABLE_RETRIES, 1);
  return grpc::CreateCustomChannel(target, grpc::InsecureChannelCredentials(), args);
}

}  // namespace kahve::tools

#endif  // KAHVE_TOOLS_KAHVE_PLAYER_CHANNEL_H_

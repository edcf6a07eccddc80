#ifndef KAHVE_TOOLS_KAHVE_LOAD_CHANNEL_H_
#define KAHVE_TOOLS_KAHVE_LOAD_CHANNEL_H_

// How the `kahve load` drivers open their channels. A driver owns its channels and releases them
// on the thread that ran it, after every call of the run is gone: a call's ClientContext holds a
// reference to its channel, and the last reference dropped inside a completion callback tears the
// channel (and with the last one gRPC's callback completion queue) down under the very thread
// running the callback, which gRPC answers with `ref_counted.h: assertion failed: prior > 0`.

#include <functional>
#include <memory>
#include <string>

#include "grpcpp/grpcpp.h"

namespace kahve::tools {

// Opens a channel to `target` with `args`; unset: an insecure channel (tests pass one that adds
// interceptors).
using ChannelFactory = std::function<std::shared_ptr<grpc::Channel>(
    const std::string& target, const grpc::ChannelArguments& args)>;

inline std::shared_ptr<grpc::Channel> OpenLoadChannel(const ChannelFactory& factory,
                                                      const std::string& target,
                                                      const grpc::ChannelArguments& args) {
  if (factory) return factory(target, args);
  return grpc::CreateCustomChannel(target, grpc::InsecureChannelCredentials(), args);
}

}  // namespace kahve::tools

#endif  // KAHVE_TOOLS_KAHVE_LOAD_CHANNEL_H_

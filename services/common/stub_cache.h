#ifndef KAHVE_SERVICES_COMMON_STUB_CACHE_H_
#define KAHVE_SERVICES_COMMON_STUB_CACHE_H_

// Stubs of one gRPC service at the endpoints a process calls inside the cluster (table hosts by
// their registered endpoints): one plaintext channel per endpoint, made on first use and kept.
// Endpoints come and go with the hosts (pod addresses), so the cache keeps at most
// kMaxEndpoints; a stub handed out stays valid while its holder keeps it.

#include <memory>
#include <string>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_map.h"
#include "absl/synchronization/mutex.h"
#include "grpcpp/grpcpp.h"

namespace kahve::common {

// A channel to a peer inside the cluster. A host that restarts is dialled again within a second
// (gRPC's default backoff grows to two minutes, which a forwarded call would wait out).
inline std::shared_ptr<grpc::Channel> ClusterChannel(const std::string& endpoint) {
  grpc::ChannelArguments arguments;
  arguments.SetInt(GRPC_ARG_INITIAL_RECONNECT_BACKOFF_MS, 100);
  arguments.SetInt(GRPC_ARG_MIN_RECONNECT_BACKOFF_MS, 100);
  arguments.SetInt(GRPC_ARG_MAX_RECONNECT_BACKOFF_MS, 1000);
  return grpc::CreateCustomChannel(endpoint, grpc::InsecureChannelCredentials(), arguments);
}

template <typename Service>
class StubCache {
 public:
  static constexpr size_t kMaxEndpoints = 64;

  std::shared_ptr<typename Service::Stub> For(const std::string& endpoint) {
    absl::MutexLock lock(&mu_);
    auto found = stubs_.find(endpoint);
    if (found != stubs_.end()) return found->second;
    if (stubs_.size() >= kMaxEndpoints) stubs_.erase(stubs_.begin());  // a host long gone, likely
    std::shared_ptr<typename Service::Stub> stub = Service::NewStub(ClusterChannel(endpoint));
    stubs_.emplace(endpoint, stub);
    return stub;
  }

 private:
  absl::Mutex mu_;
  absl::flat_hash_map<std::string, std::shared_ptr<typename Service::Stub>> stubs_
      ABSL_GUARDED_BY(mu_);
};

}  // namespace kahve::common

#endif  // KAHVE_SERVICES_COMMON_STUB_CACHE_H_

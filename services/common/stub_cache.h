#ifndef KAHVE_SERVICES_COMMON_STUB_CACHE_H_
#define KAHVE_SERVICES_COMMON_STUB_CACHE_H_

// Stubs of one gRPC service at the endpoints a process calls inside the cluster (table hosts by
// their registered endpoints): one plaintext channel per endpoint, made on first use and kept.

#include <memory>
#include <string>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_map.h"
#include "absl/synchronization/mutex.h"
#include "grpcpp/grpcpp.h"

namespace kahve::common {

template <typename Service>
class StubCache {
 public:
  typename Service::Stub& For(const std::string& endpoint) {
    absl::MutexLock lock(&mu_);
    std::unique_ptr<typename Service::Stub>& stub = stubs_[endpoint];
    if (stub == nullptr) {
      stub = Service::NewStub(grpc::CreateChannel(endpoint, grpc::InsecureChannelCredentials()));
    }
    return *stub;
  }

 private:
  absl::Mutex mu_;
  absl::flat_hash_map<std::string, std::unique_ptr<typename Service::Stub>> stubs_
      ABSL_GUARDED_BY(mu_);
};

}  // namespace kahve::common

#endif  // KAHVE_SERVICES_COMMON_STUB_CACHE_H_

#include "tools/kahve/health_load.h"

#include <algorithm>
#include <chrono>
#include <memory>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/clock.h"
#include "grpcpp/generic/generic_stub.h"
#include "grpcpp/grpcpp.h"

namespace kahve::tools {
namespace {

constexpr char kHealthCheck[] = "/grpc.health.v1.Health/Check";
constexpr auto kCallDeadline = std::chrono::seconds(5);

// One call's buffers, alive until its completion callback.
struct HealthCall {
  grpc::ClientContext context;
  grpc::ByteBuffer request;
  grpc::ByteBuffer response;
  std::chrono::steady_clock::time_point began = std::chrono::steady_clock::now();
};

// Through the generic stub, so the tool needs no health-check stubs of its own.
class HealthLoad {
 public:
  HealthLoad(const std::string& target, int channels) {
    grpc::ChannelArguments args;
    // Without this, channels to one target share a subchannel, hence one connection.
    args.SetInt(GRPC_ARG_USE_LOCAL_SUBCHANNEL_POOL, 1);
    for (int i = 0; i < channels; ++i) {
      stubs_.push_back(std::make_unique<grpc::GenericStub>(
          grpc::CreateCustomChannel(target, grpc::InsecureChannelCredentials(), args)));
    }
  }

  PhaseResult Run(int concurrency, absl::Duration length) {
    const auto start = std::chrono::steady_clock::now();
    {
      absl::MutexLock lock(&mu_);
      end_ = absl::Now() + length;
      active_ = concurrency;
    }
    for (int lane = 0; lane < concurrency; ++lane) Issue(lane);
    absl::MutexLock lock(&mu_);
    mu_.Await(absl::Condition(
        +[](int* active) { return *active == 0; }, &active_));
    result_.seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return result_;
  }

 private:
  // Each lane keeps one call in flight: its completion issues the next until the time is up.
  void Issue(int lane) {
    auto* call = new HealthCall;
    grpc::Slice empty("");
    call->request = grpc::ByteBuffer(&empty, 1);
    call->context.set_deadline(std::chrono::system_clock::now() + kCallDeadline);
    stubs_[lane % stubs_.size()]->UnaryCall(
        &call->context, kHealthCheck, grpc::StubOptions(), &call->request, &call->response,
        [this, call, lane](grpc::Status status) { Done(call, lane, status); });
  }

  void Done(HealthCall* call, int lane, const grpc::Status& status) {
    const double ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - call->began)
            .count();
    delete call;
    bool again = false;
    {
      absl::MutexLock lock(&mu_);
      if (status.ok()) {
        ++result_.done;
        result_.latencies_ms.push_back(ms);
      } else {
        ++result_.failed;
      }
      again = absl::Now() < end_;
      if (!again) --active_;
    }
    if (again) Issue(lane);
  }

  std::vector<std::unique_ptr<grpc::GenericStub>> stubs_;
  absl::Mutex mu_;
  absl::Time end_ ABSL_GUARDED_BY(mu_);
  int active_ ABSL_GUARDED_BY(mu_) = 0;
  PhaseResult result_ ABSL_GUARDED_BY(mu_);
};

}  // namespace

PhaseResult HealthCheckPhase(const std::string& target, int concurrency, absl::Duration length,
                             int channels) {
  HealthLoad load(target, std::max(1, channels));
  return load.Run(std::max(1, concurrency), length);
}

}  // namespace kahve::tools

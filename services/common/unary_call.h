#ifndef KAHVE_SERVICES_COMMON_UNARY_CALL_H_
#define KAHVE_SERVICES_COMMON_UNARY_CALL_H_

// What every service's unary handlers share: authorising the caller, and running blocking work
// (database calls) on the worker pool so that gRPC's callback threads never block.

#include <chrono>
#include <optional>
#include <string>
#include <utility>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "google/protobuf/message.h"
#include "grpcpp/grpcpp.h"
#include "services/common/auth.h"
#include "services/common/call_gate.h"
#include "services/common/logging.h"
#include "services/common/request_checks.h"
#include "services/common/server.h"
#include "services/common/status.h"
#include "services/common/worker_pool.h"

namespace kahve::common {

// The gate of every call (call_gate.h).
inline absl::StatusOr<Identity> AcceptCall(CallGate& gate, grpc::CallbackServerContext& context,
                                           const char* role,
                                           const google::protobuf::Message& request) {
  return gate.Accept(context, role, request);
}

// AcceptCall for a unary call: on a refusal the call is finished with it and nullopt returned.
inline std::optional<Identity> AuthorizeUnary(CallGate& gate, grpc::CallbackServerContext& context,
                                              grpc::ServerUnaryReactor* reactor, const char* role,
                                              const google::protobuf::Message& request) {
  auto identity = AcceptCall(gate, context, role, request);
  if (!identity.ok()) {
    reactor->Finish(ToGrpcStatus(identity.status()));
    return std::nullopt;
  }
  return *std::move(identity);
}

// Failures that are ours or the database's, worth an operator's attention (not the caller's
// mistakes).
inline bool IsServerFault(const absl::Status& status) {
  return absl::IsInternal(status) || absl::IsUnavailable(status) || absl::IsDataLoss(status) ||
         absl::IsUnknown(status);
}

// Runs `work(finish)` on `workers`; the work (or whatever it hands `finish` to) calls
// finish(status) exactly once, which finishes the call. A call whose client gave up, or whose
// deadline passed while queued, is finished without the work. Server faults are logged with
// `method`.
template <typename Work>
void FinishOffloadedAsync(WorkerPool& workers, grpc::CallbackServerContext* context,
                          grpc::ServerUnaryReactor* reactor, std::string method, Work work) {
  workers.Schedule(
      [reactor, context, method = std::move(method), work = std::move(work)]() mutable {
        if (context->IsCancelled()) {
          reactor->Finish(grpc::Status(grpc::StatusCode::CANCELLED, "cancelled"));
          return;
        }
        if (context->deadline() < std::chrono::system_clock::now()) {
          reactor->Finish(
              grpc::Status(grpc::StatusCode::DEADLINE_EXCEEDED, "deadline passed while queued"));
          return;
        }
        // finish may run on another thread (a batch writer's): its line names this call.
        work([reactor, method, request_id = CurrentRequestId()](const absl::Status& status) {
          const ScopedRequestId scope(request_id);
          if (IsServerFault(status)) {
            LogError("call failed", {{"method", method},
                                     {"code", absl::StatusCodeToString(status.code())},
                                     {"error", std::string(status.message())}});
          }
          reactor->Finish(ToGrpcStatus(status));
        });
      });
}

// FinishOffloadedAsync for work that is done when `work()` (returning absl::Status) returns.
template <typename Work>
void FinishOffloaded(WorkerPool& workers, grpc::CallbackServerContext* context,
                     grpc::ServerUnaryReactor* reactor, std::string method, Work work) {
  FinishOffloadedAsync(workers, context, reactor, std::move(method),
                       [work = std::move(work)](auto finish) mutable { finish(work()); });
}

}  // namespace kahve::common

#endif  // KAHVE_SERVICES_COMMON_UNARY_CALL_H_

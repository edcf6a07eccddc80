#ifndef KAHVE_SERVICES_MATCHMAKING_MATCHMAKING_SERVICE_H_
#define KAHVE_SERVICES_MATCHMAKING_MATCHMAKING_SERVICE_H_

// kahve.v1.MatchmakingService: thin callback handlers. Each authenticates the caller (any role;
// the JWT subject is the player), then hands the work to the worker pool (database calls block).
// Matching itself runs in the Matchmaker, not in any call.

#include <string>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "kahve/v1/matchmaking.grpc.pb.h"
#include "services/common/auth.h"
#include "services/common/call_gate.h"
#include "services/common/clock.h"
#include "services/common/worker_pool.h"
#include "services/matchmaking/mm_metrics.h"
#include "services/matchmaking/mm_store.h"
#include "services/matchmaking/queue_budget.h"
#include "services/matchmaking/table_directory.h"
#include "services/matchmaking/ticket_watch.h"
#include "services/matchmaking/ticket_writer.h"

namespace kahve::matchmaking {

struct MatchmakingServiceSettings {
  // The longest a ticket may wait (longest_wait_seconds may not ask for more).
  absl::Duration ticket_ttl = absl::Minutes(10);
  // Queue statistics and expected waits look at matches this recent.
  absl::Duration stats_window = absl::Hours(1);
  // When cancellations, parties and statistics windows happen. Not owned.
  common::Clock* clock = common::RealClock();
};

class MatchmakingService final : public v1::MatchmakingService::CallbackService {
 public:
  // `metrics` counts the tickets CancelTicket ends; `budget` (may be null: unlimited) admits each
  // Enqueue's ticket (queue_budget.h).
  MatchmakingService(MatchmakingServiceSettings settings, MatchmakingStore* store,
                     TicketWriter* writer, TicketWatchers* watchers,
                     common::CallGate* gate, common::WorkerPool* workers,
                     MatchmakingMetrics* metrics, TableDirectory* tables,
                     QueueBudget* budget = nullptr);

  grpc::ServerUnaryReactor* Enqueue(grpc::CallbackServerContext* context,
                                    const v1::EnqueueRequest* request,
                                    v1::EnqueueResponse* response) override;
  grpc::ServerWriteReactor<v1::TicketUpdate>* WatchTicket(
      grpc::CallbackServerContext* context, const v1::WatchTicketRequest* request) override;
  grpc::ServerUnaryReactor* CancelTicket(grpc::CallbackServerContext* context,
                                         const v1::CancelTicketRequest* request,
                                         v1::CancelTicketResponse* response) override;
  grpc::ServerUnaryReactor* GetQueueStats(grpc::CallbackServerContext* context,
                                          const v1::GetQueueStatsRequest* request,
                                          v1::GetQueueStatsResponse* response) override;
  grpc::ServerUnaryReactor* CreateParty(grpc::CallbackServerContext* context,
                                        const v1::CreatePartyRequest* request,
                                        v1::Party* response) override;
  grpc::ServerUnaryReactor* JoinParty(grpc::CallbackServerContext* context,
                                      const v1::JoinPartyRequest* request,
                                      v1::Party* response) override;
  grpc::ServerUnaryReactor* LeaveParty(grpc::CallbackServerContext* context,
                                       const v1::LeavePartyRequest* request,
                                       v1::LeavePartyResponse* response) override;
  grpc::ServerUnaryReactor* GetMyTicket(grpc::CallbackServerContext* context,
                                        const v1::GetMyTicketRequest* request,
                                        v1::TicketUpdate* response) override;
  grpc::ServerUnaryReactor* GetMyParty(grpc::CallbackServerContext* context,
                                       const v1::GetMyPartyRequest* request,
                                       v1::Party* response) override;

  // The ticket an Enqueue request asks for, validated: InvalidArgument, PermissionDenied,
  // NotFound or FailedPrecondition (the party) for a request that cannot be queued.
  absl::StatusOr<NewTicket> TicketFor(const std::string& caller, const v1::EnqueueRequest& request);

 private:
  absl::Time Now() const { return settings_.clock->Now(); }
  // Asks the table service whether the games of `matches` have ended and records those that
  // have, so that what follows decides "in play" on fresh facts. On a failure they count as
  // running: the worst is an old table named once more, never a live game forgotten.
  void SettleGameEnds(const absl::StatusOr<std::vector<std::string>>& matches);
  // TicketFor, then the queue budget's admission.
  absl::StatusOr<NewTicket> Admit(const std::string& caller, const v1::EnqueueRequest& request);
  template <typename Work>
  grpc::ServerUnaryReactor* Offload(grpc::CallbackServerContext* context,
                                    const google::protobuf::Message& request, const char* method,
                                    Work work);

  const MatchmakingServiceSettings settings_;
  MatchmakingStore* store_;
  TicketWriter* writer_;
  TicketWatchers* watchers_;
  common::CallGate* gate_;
  common::WorkerPool* workers_;
  MatchmakingMetrics* metrics_;
  TableDirectory* tables_;
  QueueBudget* budget_;
};

}  // namespace kahve::matchmaking

#endif  // KAHVE_SERVICES_MATCHMAKING_MATCHMAKING_SERVICE_H_

#ifndef KAHVE_SERVICES_TABLE_TABLE_SERVICE_H_
#define KAHVE_SERVICES_TABLE_TABLE_SERVICE_H_

// kahve.v1.TableService: thin callback handlers. Each authenticates the caller and hands the call
// to TableHost, which answers once the move (or table) is durable.

#include "kahve/v1/table.grpc.pb.h"
#include "services/common/auth.h"
#include "services/common/call_gate.h"
#include "services/common/budget.h"
#include "services/common/worker_pool.h"
#include "services/table/table_forwarder.h"
#include "services/table/table_host.h"

namespace kahve::table {

class TableService final : public v1::TableService::CallbackService {
 public:
  // `workers` runs the calls that may block on the database (GetReplay of a stored table);
  // `stream_budget` (null: unlimited) counts Connect streams per identity and per connection.
  TableService(TableHost* host, common::CallGate* gate,
               common::WorkerPool* workers, common::StreamBudget* stream_budget,
               TableForwarder* forwarder = nullptr);

  grpc::ServerUnaryReactor* CreateTable(grpc::CallbackServerContext* context,
                                        const v1::CreateTableRequest* request,
                                        v1::CreateTableResponse* response) override;
  grpc::ServerWriteReactor<v1::TableUpdate>* Connect(grpc::CallbackServerContext* context,
                                                     const v1::ConnectRequest* request) override;
  grpc::ServerUnaryReactor* Play(grpc::CallbackServerContext* context,
                                 const v1::PlayRequest* request,
                                 v1::PlayResponse* response) override;
  grpc::ServerUnaryReactor* GetView(grpc::CallbackServerContext* context,
                                    const v1::GetViewRequest* request,
                                    v1::GetViewResponse* response) override;
  grpc::ServerUnaryReactor* GetHints(grpc::CallbackServerContext* context,
                                     const v1::GetHintsRequest* request,
                                     v1::GetHintsResponse* response) override;
  grpc::ServerUnaryReactor* Resign(grpc::CallbackServerContext* context,
                                   const v1::ResignRequest* request,
                                   v1::ResignResponse* response) override;
  grpc::ServerUnaryReactor* ListHosts(grpc::CallbackServerContext* context,
                                      const v1::ListHostsRequest* request,
                                      v1::ListHostsResponse* response) override;
  grpc::ServerUnaryReactor* GetMatchStates(grpc::CallbackServerContext* context,
                                           const v1::GetMatchStatesRequest* request,
                                           v1::GetMatchStatesResponse* response) override;
  grpc::ServerUnaryReactor* ListTables(grpc::CallbackServerContext* context,
                                       const v1::ListTablesRequest* request,
                                       v1::ListTablesResponse* response) override;
  grpc::ServerUnaryReactor* GetReplay(grpc::CallbackServerContext* context,
                                      const v1::GetReplayRequest* request,
                                      v1::Replay* response) override;
  grpc::ServerUnaryReactor* CreatePracticeTable(grpc::CallbackServerContext* context,
                                                const v1::CreatePracticeTableRequest* request,
                                                v1::CreatePracticeTableResponse* response) override;
  grpc::ServerUnaryReactor* Pause(grpc::CallbackServerContext* context,
                                  const v1::PracticeRequest* request,
                                  v1::PracticeResponse* response) override;
  grpc::ServerUnaryReactor* Resume(grpc::CallbackServerContext* context,
                                   const v1::PracticeRequest* request,
                                   v1::PracticeResponse* response) override;
  grpc::ServerUnaryReactor* Undo(grpc::CallbackServerContext* context,
                                 const v1::PracticeRequest* request,
                                 v1::PracticeResponse* response) override;
  grpc::ServerUnaryReactor* Redo(grpc::CallbackServerContext* context,
                                 const v1::PracticeRequest* request,
                                 v1::PracticeResponse* response) override;

 private:
  template <typename Response>
  using Answer = std::function<void(absl::StatusOr<Response>)>;
  template <typename Response>
  using HostCall = std::function<void(Answer<Response>)>;
  // Sends the call on to another host's stub with the given context; the callback gets its status
  // (the response is written where the call's own goes).
  using Forward = std::function<void(v1::TableService::Stub&, grpc::ClientContext*,
                                     std::function<void(grpc::Status)>)>;
  // Runs `call`, a TableHost call about `table_id`; when the host answers NOT_FOUND (it does not
  // serve the table), it takes the table over if it may (TableHost::TakeOver) and runs `call`
  // once more, or, when a live host holds the table, `forward`s the call there and finishes
  // `reactor` with that host's answer. Otherwise the answer goes to `answer`.
  template <typename Response>
  void WithTableHere(grpc::CallbackServerContext* context, grpc::ServerUnaryReactor* reactor,
                     const std::string& table_id, HostCall<Response> call, Answer<Response> answer,
                     Forward forward);
  // Where to send a call about a table this host could not take over: the holder's endpoint when
  // `refusal` names one and this call may be forwarded (a forwarder, and the call did not come
  // forwarded already); else "".
  std::string ForwardTarget(const grpc::CallbackServerContext& context,
                            const absl::Status& refusal) const;

  grpc::ServerUnaryReactor* Practice(grpc::CallbackServerContext* context,
                                     const v1::PracticeRequest* request,
                                     v1::PracticeResponse* response, v1::PracticeChange::Kind kind);

  TableHost* host_;
  common::CallGate* gate_;
  common::WorkerPool* workers_;
  common::StreamBudget* stream_budget_;
  TableForwarder* forwarder_;
};

}  // namespace kahve::table

#endif  // KAHVE_SERVICES_TABLE_TABLE_SERVICE_H_

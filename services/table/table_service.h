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
  // A TableHost call about one table this host serves, answering `Answer`.
  template <typename Response>
  using HostCall = std::function<void(const TableHandle&, Answer<Response>)>;
  // Sends the call on to another host's stub with the given context; the callback gets its status
  // (the response is written where the call's own goes).
  using Forward = std::function<void(v1::TableService::Stub&, grpc::ClientContext*,
                                     std::function<void(grpc::Status)>)>;

  // The one place a call about a table goes where the table is (TableHost::Route): `serve` runs
  // with the table when this host serves it, after taking it over when it may (TableHost::TakeOver,
  // on a worker as it blocks on the database); `forward` runs with the holder's endpoint when a
  // live other host holds it and the call may go there (a forwarder, and the call did not come
  // forwarded: one hop at most); `refuse` gets every other answer (no table id, no such table, a
  // host that drains or cannot reach the database). Exactly one of them runs, once; `context`
  // must stay valid until it has.
  void RouteCall(const grpc::CallbackServerContext* context, const std::string& table_id,
                 std::function<void(const TableHandle&)> serve,
                 std::function<void(const std::string& endpoint)> forward,
                 std::function<void(absl::Status)> refuse);
  // RouteCall for a unary call: `call` where the table is served here, `forward` to its holder
  // (finishing `reactor` with the holder's answer), and `answer` for the refusals.
  template <typename Response>
  void WithTableHere(grpc::CallbackServerContext* context, grpc::ServerUnaryReactor* reactor,
                     const std::string& table_id, HostCall<Response> call, Answer<Response> answer,
                     Forward forward);

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

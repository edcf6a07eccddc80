#ifndef KAHVE_SERVICES_TABLE_TABLE_SERVICE_H_
#define KAHVE_SERVICES_TABLE_TABLE_SERVICE_H_

// kahve.v1.TableService: thin callback handlers. Each authenticates the caller and hands the call
// to TableHost, which answers once the move (or table) is durable.

#include "kahve/v1/table.grpc.pb.h"
#include "services/common/auth.h"
#include "services/common/budget.h"
#include "services/common/worker_pool.h"
#include "services/table/table_host.h"

namespace kahve::table {

class TableService final : public v1::TableService::CallbackService {
 public:
  // `workers` runs the calls that may block on the database (GetReplay of a stored table);
  // `stream_budget` (null: unlimited) counts Connect streams per identity and per connection.
  TableService(TableHost* host, const common::Authenticator* authenticator,
               common::WorkerPool* workers, common::StreamBudget* stream_budget);

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
  grpc::ServerUnaryReactor* Practice(grpc::CallbackServerContext* context,
                                     const v1::PracticeRequest* request,
                                     v1::PracticeResponse* response, v1::PracticeChange::Kind kind);

  TableHost* host_;
  const common::Authenticator* authenticator_;
  common::WorkerPool* workers_;
  common::StreamBudget* stream_budget_;
};

}  // namespace kahve::table

#endif  // KAHVE_SERVICES_TABLE_TABLE_SERVICE_H_

#include "services/table/table_service.h"

#include "absl/strings/str_cat.h"
#include "services/common/server.h"
#include "services/common/status.h"
#include "services/common/unary_call.h"
#include "services/table/hints_compat.h"

namespace kahve::table {
namespace {

constexpr int kMaxPageSize = 100;
constexpr int kDefaultPageSize = 50;

}  // namespace

TableService::TableService(TableHost* host, common::CallGate* gate,
                           common::WorkerPool* workers, common::StreamBudget* stream_budget,
                           TableForwarder* forwarder)
    : host_(host),
      gate_(gate),
      workers_(workers),
      stream_budget_(stream_budget),
      forwarder_(forwarder) {}

void TableService::RouteCall(const grpc::CallbackServerContext* context,
                             const std::string& table_id,
                             std::function<void(const TableHandle&)> serve,
                             std::function<void(const std::string& endpoint)> forward,
                             std::function<void(absl::Status)> refuse) {
  if (table_id.empty()) {
    refuse(absl::InvalidArgumentError("table_id: required"));
    return;
  }
  TableRoute here = host_->Route(table_id);
  if (here.kind == TableRoute::Kind::kServeHere) {
    serve(here.table);
    return;
  }
  // The database is slow work: a worker thread, never the call's.
  workers_->Schedule([this, context, table_id, serve = std::move(serve),
                      forward = std::move(forward), refuse = std::move(refuse)] {
    absl::StatusOr<TableRoute> route = host_->TakeOver(table_id);
    if (!route.ok()) {
      refuse(route.status());
      return;
    }
    switch (route->kind) {
      case TableRoute::Kind::kServeHere:
        serve(route->table);
        return;
      case TableRoute::Kind::kForward:
        if (forwarder_ != nullptr && !forwarder_->ForwardedFor(*context).has_value()) {
          forward(route->endpoint);
          return;
        }
        // The endpoint stays inside the cluster: the client only learns to retry.
        refuse(absl::UnavailableError(
            absl::StrCat("table ", table_id, " is served by another host; retry shortly")));
        return;
      case TableRoute::Kind::kTakeOver:
      case TableRoute::Kind::kNotFound:
        refuse(absl::NotFoundError(absl::StrCat("table ", table_id, " not found")));
        return;
    }
  });
}

template <typename Response>
void TableService::WithTableHere(grpc::CallbackServerContext* context,
                                 grpc::ServerUnaryReactor* reactor, const std::string& table_id,
                                 HostCall<Response> call, Answer<Response> answer,
                                 Forward forward) {
  // The call (context, request, response) lives until the reactor finishes.
  RouteCall(
      context, table_id, [call, answer](const TableHandle& table) { call(table, answer); },
      [this, context, reactor, forward](const std::string& endpoint) {
        std::shared_ptr<grpc::ClientContext> onward = forwarder_->ContextFor(*context);
        forward(*forwarder_->StubFor(endpoint), onward.get(),
                [onward, reactor](grpc::Status status) {
                  reactor->Finish(TableForwarder::ForClient(status));
                });
      },
      [answer](absl::Status refusal) { answer(std::move(refusal)); });
}

grpc::ServerUnaryReactor* TableService::CreateTable(grpc::CallbackServerContext* context,
                                                    const v1::CreateTableRequest* request,
                                                    v1::CreateTableResponse* response) {
  grpc::ServerUnaryReactor* reactor = context->DefaultReactor();
  const auto caller =
      common::AuthorizeUnary(*gate_, *context, reactor, common::kRoleService, *request);
  if (!caller) return reactor;
  const common::ScopedRequestId call_scope(caller->request_id);
  auto finish = [reactor, response](absl::StatusOr<v1::CreateTableResponse> created) {
    if (created.ok()) *response = std::move(created).value();
    reactor->Finish(common::ToGrpcStatus(created.status()));
  };
  host_->CreateTable(
      *request, caller->role == common::kRoleAdmin,
      [this, request, finish](TableHost::CreateOutcome outcome) {
        const std::string existing = std::move(outcome.existing_table_id);
        if (existing.empty()) {
          finish(std::move(outcome.created));
          return;
        }
        // A retry of a creation that reached the log before (here or on another host): answered
        // from the stored creation, on a worker, as the database is slow work.
        workers_->Schedule([this, request, finish, existing] {
          finish(host_->AnswerCreated(*request, existing));
        });
      });
  return reactor;
}

grpc::ServerWriteReactor<v1::TableUpdate>* TableService::Connect(
    grpc::CallbackServerContext* context, const v1::ConnectRequest* request) {
  const std::string table_id = request->table_id();
  auto identity = common::AcceptCall(*gate_, *context, nullptr, *request);
  absl::Status admitted = identity.status();
  const common::ScopedRequestId call_scope(identity.ok() ? identity->request_id : "");
  // A stream another host forwarded counts against its client's connection, not that host's.
  std::string peer;
  if (admitted.ok()) {
    const std::string own_peer =
        common::StreamConnectionKey(stream_budget_, *context, identity->subject);
    peer = forwarder_ == nullptr ? own_peer : forwarder_->ForwardedFor(*context).value_or(own_peer);
  }
  common::StreamBudget* counted_in = nullptr;
  if (admitted.ok() && stream_budget_ != nullptr) {
    admitted = stream_budget_->Acquire(identity->subject, peer);
    if (admitted.ok()) counted_in = stream_budget_;
  }
  auto* stream = new UpdateStream(
      [host = host_, table_id, counted_in, subject = identity.ok() ? identity->subject : "",
       peer](UpdateStream* done) {
        host->Disconnect(table_id, done);
        if (counted_in != nullptr) counted_in->Release(subject, peer);
      },
      host_->stream_queue_budget());
  if (!admitted.ok()) {
    stream->End(common::ToGrpcStatus(admitted));
    return stream;
  }
  // Held until routed: a client's cancel finishes the call meanwhile, which would otherwise
  // delete the stream (and the request) under a worker that takes the table over
  // (docs/operations.md, "Call lifetimes"). The request goes by value.
  stream->Hold();
  RouteCall(
      context, table_id,
      [this, caller = *identity, request = *request, stream](const TableHandle& table) {
        const absl::Status connected = host_->Connect(table, caller, request, stream);
        if (!connected.ok()) stream->End(common::ToGrpcStatus(connected));
        stream->Release();
      },
      // The holder counts the stream against the same client connection as this host would.
      [this, context, request = *request, stream, peer](const std::string& endpoint) {
        forwarder_->ForwardStream(*context, endpoint, request, stream, peer);
        stream->Release();
      },
      [stream](absl::Status refusal) {
        stream->End(common::ToGrpcStatus(refusal));
        stream->Release();
      });
  return stream;
}

grpc::ServerUnaryReactor* TableService::Play(grpc::CallbackServerContext* context,
                                             const v1::PlayRequest* request,
                                             v1::PlayResponse* response) {
  // Real time, not the host's clock: it only times the call for the move_seconds histogram.
  const absl::Time received = absl::Now();
  grpc::ServerUnaryReactor* reactor = context->DefaultReactor();
  const auto caller = common::AuthorizeUnary(*gate_, *context, reactor, nullptr, *request);
  if (!caller) return reactor;
  const common::ScopedRequestId call_scope(caller->request_id);
  WithTableHere<v1::PlayResponse>(
      context, reactor, request->table_id(),
      [this, caller = *caller, request, received](const TableHandle& table,
                                                  Answer<v1::PlayResponse> answer) {
        host_->Play(table, caller, *request, received,
                    [answer](absl::Status status, v1::PlayResponse played,
                             std::optional<v1::PlayRejection> rejection) {
                      if (!status.ok()) {
                        // An engine refusal travels in the rich error model, as a PlayRejection
                        // detail.
                        answer(rejection.has_value()
                                   ? common::WithDetail(std::move(status), *rejection)
                                   : std::move(status));
                        return;
                      }
                      answer(std::move(played));
                    });
      },
      [reactor, response](absl::StatusOr<v1::PlayResponse> played) {
        if (played.ok()) *response = std::move(played).value();
        reactor->Finish(common::ToGrpcStatus(played.status()));
      },
      // The holder's answer as it is, a rejection's details included.
      [request, response](v1::TableService::Stub& holder, grpc::ClientContext* onward,
                          std::function<void(grpc::Status)> done) {
        holder.async()->Play(onward, request, response, std::move(done));
      });
  return reactor;
}

grpc::ServerUnaryReactor* TableService::GetView(grpc::CallbackServerContext* context,
                                                const v1::GetViewRequest* request,
                                                v1::GetViewResponse* response) {
  grpc::ServerUnaryReactor* reactor = context->DefaultReactor();
  const auto caller = common::AuthorizeUnary(*gate_, *context, reactor, nullptr, *request);
  if (!caller) return reactor;
  const common::ScopedRequestId call_scope(caller->request_id);
  WithTableHere<v1::GetViewResponse>(
      context, reactor, request->table_id(),
      [this, caller = *caller, request](const TableHandle& table, auto done) {
        host_->GetView(table, caller, *request, done);
      },
      [reactor, response](absl::StatusOr<v1::GetViewResponse> view) {
        if (view.ok()) *response = std::move(view).value();
        reactor->Finish(common::ToGrpcStatus(view.status()));
      },
      [request, response](v1::TableService::Stub& holder, grpc::ClientContext* onward,
                          std::function<void(grpc::Status)> done) {
        holder.async()->GetView(onward, request, response, std::move(done));
      });
  return reactor;
}

grpc::ServerUnaryReactor* TableService::GetHints(grpc::CallbackServerContext* context,
                                                 const v1::GetHintsRequest* request,
                                                 v1::GetHintsResponse* response) {
  grpc::ServerUnaryReactor* reactor = context->DefaultReactor();
  const auto caller = common::AuthorizeUnary(*gate_, *context, reactor, nullptr, *request);
  if (!caller) return reactor;
  const common::ScopedRequestId call_scope(caller->request_id);
  WithTableHere<v1::GetHintsResponse>(
      context, reactor, request->table_id(),
      [this, caller = *caller, request](const TableHandle& table, auto done) {
        host_->GetHints(table, caller, *request, done);
      },
      [reactor, response](absl::StatusOr<v1::GetHintsResponse> hints) {
        if (hints.ok()) {
          *response = std::move(hints).value();
          SendOkeyHintsToEarlierClients(*response);
        }
        reactor->Finish(common::ToGrpcStatus(hints.status()));
      },
      [request, response](v1::TableService::Stub& holder, grpc::ClientContext* onward,
                          std::function<void(grpc::Status)> done) {
        // Parsing the holder's answer kept only the ruleset's own field: written again for
        // earlier clients.
        holder.async()->GetHints(onward, request, response,
                                 [response, done = std::move(done)](grpc::Status status) {
                                   if (status.ok()) SendOkeyHintsToEarlierClients(*response);
                                   done(std::move(status));
                                 });
      });
  return reactor;
}

grpc::ServerUnaryReactor* TableService::Resign(grpc::CallbackServerContext* context,
                                               const v1::ResignRequest* request,
                                               v1::ResignResponse* response) {
  grpc::ServerUnaryReactor* reactor = context->DefaultReactor();
  const auto caller = common::AuthorizeUnary(*gate_, *context, reactor, nullptr, *request);
  if (!caller) return reactor;
  const common::ScopedRequestId call_scope(caller->request_id);
  WithTableHere<v1::ResignResponse>(
      context, reactor, request->table_id(),
      [this, caller = *caller, request](const TableHandle& table, auto done) {
        host_->Resign(table, caller, *request, done);
      },
      [reactor, response](absl::StatusOr<v1::ResignResponse> resigned) {
        if (resigned.ok()) *response = std::move(resigned).value();
        reactor->Finish(common::ToGrpcStatus(resigned.status()));
      },
      [request, response](v1::TableService::Stub& holder, grpc::ClientContext* onward,
                          std::function<void(grpc::Status)> done) {
        holder.async()->Resign(onward, request, response, std::move(done));
      });
  return reactor;
}

grpc::ServerUnaryReactor* TableService::ListHosts(grpc::CallbackServerContext* context,
                                                  const v1::ListHostsRequest* request,
                                                  v1::ListHostsResponse* response) {
  grpc::ServerUnaryReactor* reactor = context->DefaultReactor();
  const auto caller =
      common::AuthorizeUnary(*gate_, *context, reactor, common::kRoleService, *request);
  if (!caller) return reactor;
  const common::ScopedRequestId call_scope(caller->request_id);
  common::FinishOffloaded(*workers_, context, reactor, "TableService.ListHosts", [this, response] {
    auto hosts = host_->HostsTakingTables();
    if (!hosts.ok()) return hosts.status();
    for (const HostRow& row : *hosts) {
      v1::TableHostInfo& host = *response->add_hosts();
      host.set_host_id(row.host_id);
      host.set_endpoint(row.endpoint);
      host.set_live_tables(row.live_tables);
    }
    return absl::OkStatus();
  });
  return reactor;
}

grpc::ServerUnaryReactor* TableService::GetMatchStates(grpc::CallbackServerContext* context,
                                                       const v1::GetMatchStatesRequest* request,
                                                       v1::GetMatchStatesResponse* response) {
  grpc::ServerUnaryReactor* reactor = context->DefaultReactor();
  const auto caller =
      common::AuthorizeUnary(*gate_, *context, reactor, common::kRoleService, *request);
  if (!caller) return reactor;
  const common::ScopedRequestId call_scope(caller->request_id);
  if (request->match_ids_size() > kMaxPageSize) {
    reactor->Finish(grpc::Status(grpc::StatusCode::INVALID_ARGUMENT,
                                 absl::StrCat("match_ids: at most ", kMaxPageSize)));
    return reactor;
  }
  common::FinishOffloaded(
      *workers_, context, reactor, "TableService.GetMatchStates", [this, request, response] {
        auto tables = host_->TablesOfMatches(
            std::vector<std::string>(request->match_ids().begin(), request->match_ids().end()));
        if (!tables.ok()) return tables.status();
        for (const MatchTable& table : *tables) {
          v1::MatchState& state = *response->add_matches();
          state.set_match_id(table.match_id);
          state.set_table_id(table.table_id);
          state.set_over(table.over);
        }
        return absl::OkStatus();
      });
  return reactor;
}

grpc::ServerUnaryReactor* TableService::ListTables(grpc::CallbackServerContext* context,
                                                   const v1::ListTablesRequest* request,
                                                   v1::ListTablesResponse* response) {
  grpc::ServerUnaryReactor* reactor = context->DefaultReactor();
  const auto caller =
      common::AuthorizeUnary(*gate_, *context, reactor, common::kRoleAdmin, *request);
  if (!caller) return reactor;
  const common::ScopedRequestId call_scope(caller->request_id);
  if (request->page_size() < 0 || request->page_size() > kMaxPageSize) {
    reactor->Finish(grpc::Status(grpc::StatusCode::INVALID_ARGUMENT, "page_size: must be 0..100"));
    return reactor;
  }
  const int limit = request->page_size() == 0 ? kDefaultPageSize : request->page_size();
  // The page token is the last table id of the previous page (an admin's cursor; ids are not
  // secret to admins).
  for (v1::TableSummary& summary : host_->ListTables(request->page_token(), limit)) {
    *response->add_tables() = std::move(summary);
  }
  if (response->tables_size() == limit) {
    response->set_next_page_token(response->tables(limit - 1).table_id());
  }
  reactor->Finish(grpc::Status::OK);
  return reactor;
}

grpc::ServerUnaryReactor* TableService::GetReplay(grpc::CallbackServerContext* context,
                                                  const v1::GetReplayRequest* request,
                                                  v1::Replay* response) {
  grpc::ServerUnaryReactor* reactor = context->DefaultReactor();
  const auto caller = common::AuthorizeUnary(*gate_, *context, reactor, nullptr, *request);
  if (!caller) return reactor;
  const common::ScopedRequestId call_scope(caller->request_id);
  if (request->table_id().empty()) {
    reactor->Finish(grpc::Status(grpc::StatusCode::INVALID_ARGUMENT, "table_id: required"));
    return reactor;
  }
  const bool admin = caller->role == common::kRoleAdmin;
  workers_->Schedule([this, reactor, request, response, admin] {
    auto replay = host_->GetReplay(request->table_id(), admin);
    if (replay.ok()) *response = std::move(replay).value();
    reactor->Finish(common::ToGrpcStatus(replay.status()));
  });
  return reactor;
}

grpc::ServerUnaryReactor* TableService::CreatePracticeTable(
    grpc::CallbackServerContext* context, const v1::CreatePracticeTableRequest* request,
    v1::CreatePracticeTableResponse* response) {
  grpc::ServerUnaryReactor* reactor = context->DefaultReactor();
  // Any player may open a practice table for themselves: it is never rated.
  const auto caller = common::AuthorizeUnary(*gate_, *context, reactor, nullptr, *request);
  if (!caller) return reactor;
  const common::ScopedRequestId call_scope(caller->request_id);
  host_->CreatePracticeTable(
      *caller, *request,
      [reactor, response](absl::StatusOr<v1::CreatePracticeTableResponse> created) {
        if (created.ok()) *response = std::move(created).value();
        reactor->Finish(common::ToGrpcStatus(created.status()));
      });
  return reactor;
}

grpc::ServerUnaryReactor* TableService::Practice(grpc::CallbackServerContext* context,
                                                 const v1::PracticeRequest* request,
                                                 v1::PracticeResponse* response,
                                                 v1::PracticeChange::Kind kind) {
  grpc::ServerUnaryReactor* reactor = context->DefaultReactor();
  const auto caller = common::AuthorizeUnary(*gate_, *context, reactor, nullptr, *request);
  if (!caller) return reactor;
  const common::ScopedRequestId call_scope(caller->request_id);
  WithTableHere<v1::PracticeResponse>(
      context, reactor, request->table_id(),
      [this, caller = *caller, request, kind](const TableHandle& table, auto done) {
        host_->Practice(table, caller, *request, kind, done);
      },
      [reactor, response](absl::StatusOr<v1::PracticeResponse> changed) {
        if (changed.ok()) *response = std::move(changed).value();
        reactor->Finish(common::ToGrpcStatus(changed.status()));
      },
      [request, response, kind](v1::TableService::Stub& holder, grpc::ClientContext* onward,
                                std::function<void(grpc::Status)> done) {
        auto& calls = *holder.async();
        switch (kind) {
          case v1::PracticeChange::PAUSED:
            return calls.Pause(onward, request, response, std::move(done));
          case v1::PracticeChange::RESUMED:
            return calls.Resume(onward, request, response, std::move(done));
          case v1::PracticeChange::UNDONE:
            return calls.Undo(onward, request, response, std::move(done));
          default:
            return calls.Redo(onward, request, response, std::move(done));
        }
      });
  return reactor;
}

grpc::ServerUnaryReactor* TableService::Pause(grpc::CallbackServerContext* context,
                                              const v1::PracticeRequest* request,
                                              v1::PracticeResponse* response) {
  return Practice(context, request, response, v1::PracticeChange::PAUSED);
}

grpc::ServerUnaryReactor* TableService::Resume(grpc::CallbackServerContext* context,
                                               const v1::PracticeRequest* request,
                                               v1::PracticeResponse* response) {
  return Practice(context, request, response, v1::PracticeChange::RESUMED);
}

grpc::ServerUnaryReactor* TableService::Undo(grpc::CallbackServerContext* context,
                                             const v1::PracticeRequest* request,
                                             v1::PracticeResponse* response) {
  return Practice(context, request, response, v1::PracticeChange::UNDONE);
}

grpc::ServerUnaryReactor* TableService::Redo(grpc::CallbackServerContext* context,
                                             const v1::PracticeRequest* request,
                                             v1::PracticeResponse* response) {
  return Practice(context, request, response, v1::PracticeChange::REDONE);
}

}  // namespace kahve::table

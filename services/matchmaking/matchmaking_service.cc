#include "services/matchmaking/matchmaking_service.h"

#include <algorithm>
#include <chrono>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "engine/core/registry.h"
#include "services/common/logging.h"
#include "services/common/server.h"
#include "services/common/status.h"
#include "services/common/unary_call.h"
#include "services/matchmaking/queue_spec.h"

namespace kahve::matchmaking {

MatchmakingService::MatchmakingService(MatchmakingServiceSettings settings, MatchmakingStore* store,
                                       TicketWriter* writer, TicketWatchers* watchers,
                                       common::CallGate* gate,
                                       common::WorkerPool* workers, MatchmakingMetrics* metrics,
                                       TableDirectory* tables, QueueBudget* budget)
    : settings_(std::move(settings)),
      store_(store),
      writer_(writer),
      watchers_(watchers),
      gate_(gate),
      workers_(workers),
      metrics_(metrics),
      tables_(tables),
      budget_(budget) {}

void MatchmakingService::SettleGameEnds(const absl::StatusOr<std::vector<std::string>>& matches) {
  absl::Status settled = matches.status();
  if (settled.ok() && !matches->empty()) {
    auto ended = tables_->EndedMatches(*matches);
    settled = ended.ok() ? store_->game_ends.MarkGamesOver(*ended) : ended.status();
  }
  if (!settled.ok()) {
    common::LogWarning("game ends not learned; the matches count as running",
                       {{"error", std::string(settled.message())}});
  }
}

// Authenticates, then runs work(caller) on a worker and finishes the call with its status.
template <typename Work>
grpc::ServerUnaryReactor* MatchmakingService::Offload(grpc::CallbackServerContext* context,
                                                      const google::protobuf::Message& request,
                                                      const char* method, Work work) {
  grpc::ServerUnaryReactor* reactor = context->DefaultReactor();
  auto identity = common::AuthorizeUnary(*gate_, *context, reactor, nullptr, request);
  if (!identity) return reactor;
  const common::ScopedRequestId call_scope(identity->request_id);
  common::FinishOffloaded(
      *workers_, context, reactor, absl::StrCat("MatchmakingService.", method),
      [caller = identity->subject, work = std::move(work)]() mutable { return work(caller); });
  return reactor;
}

absl::StatusOr<NewTicket> MatchmakingService::TicketFor(const std::string& caller,
                                                        const v1::EnqueueRequest& request) {
  if (!request.has_settings()) return absl::InvalidArgumentError("settings: required");
  auto spec = QueueSpecFor(request.settings(), request.teams());
  if (!spec.ok()) return spec.status();
  if (request.longest_wait_seconds() < 0 ||
      absl::Seconds(request.longest_wait_seconds()) > settings_.ticket_ttl) {
    return absl::InvalidArgumentError(
        absl::StrCat("longest_wait_seconds: 0..", absl::ToInt64Seconds(settings_.ticket_ttl)));
  }
  if (request.players_size() > kMaxPartySize) {
    return absl::InvalidArgumentError(
        absl::StrCat("players: a party has at most ", kMaxPartySize, " players"));
  }
  // Who the ticket queues: the caller, or the caller's whole party (leader first).
  std::vector<std::string> members = {caller};
  if (!request.party_id().empty()) {
    auto party = store_->parties.GetParty(request.party_id());
    if (!party.ok()) return party.status();
    const auto& all = party->members();
    if (std::find(all.begin(), all.end(), caller) == all.end()) {
      return absl::PermissionDeniedError(absl::StrCat("not in party ", request.party_id()));
    }
    if (party->leader() != caller) {
      return absl::PermissionDeniedError("only the party's leader may enqueue it");
    }
    if (party->members_size() < kMaxPartySize) {
      return absl::FailedPreconditionError("the party has no partner yet; share its invite code");
    }
    members.assign(all.begin(), all.end());
  }
  if (!request.players().empty()) {
    for (const std::string& player : request.players()) {
      if (std::find(members.begin(), members.end(), player) == members.end()) {
        return absl::PermissionDeniedError(
            absl::StrCat("players: ", player, " is neither the caller nor in the caller's party"));
      }
    }
    std::vector<std::string> listed(request.players().begin(), request.players().end());
    std::vector<std::string> expected = members;
    std::sort(listed.begin(), listed.end());
    std::sort(expected.begin(), expected.end());
    if (listed != expected) {
      return absl::InvalidArgumentError(
          "players: list the caller alone, or every member of the party once");
    }
  }
  return NewTicket{.queue_key = spec->key,
                   .owner = caller,
                   .request_id = request.request_id(),
                   .settings = spec->settings,
                   .teams = spec->teams,
                   .longest_wait = absl::Seconds(request.longest_wait_seconds()),
                   .players = members};
}

absl::StatusOr<NewTicket> MatchmakingService::Admit(const std::string& caller,
                                                    const v1::EnqueueRequest& request) {
  auto ticket = TicketFor(caller, request);
  if (!ticket.ok() || budget_ == nullptr) return ticket;
  if (absl::Status admitted = budget_->Admit(ticket->queue_key); !admitted.ok()) return admitted;
  return ticket;
}

grpc::ServerUnaryReactor* MatchmakingService::Enqueue(grpc::CallbackServerContext* context,
                                                      const v1::EnqueueRequest* request,
                                                      v1::EnqueueResponse* response) {
  grpc::ServerUnaryReactor* reactor = context->DefaultReactor();
  auto identity = common::AuthorizeUnary(*gate_, *context, reactor, nullptr, *request);
  if (!identity) return reactor;
  const common::ScopedRequestId call_scope(identity->request_id);
  common::FinishOffloadedAsync(*workers_, context, reactor, "MatchmakingService.Enqueue",
                               [this, caller = identity->subject, request, response](auto finish) {
                                 auto ticket = Admit(caller, *request);
                                 if (!ticket.ok()) {
                                   finish(ticket.status());
                                   return;
                                 }
                                 // Whether the id's earlier ticket is still in play depends on
                                 // whether its game ended.
                                 if (!ticket->request_id.empty()) {
                                   SettleGameEnds(store_->game_ends.UnsettledMatchOfRequest(
                                       caller, ticket->request_id));
                                 }
                                 // The worker is free at once; the writer answers after its batch
                                 // commits.
                                 writer_->Submit(
                                     std::move(ticket).value(),
                                     [response, finish](absl::StatusOr<std::string> ticket_id) {
                                       if (ticket_id.ok()) response->set_ticket_id(*ticket_id);
                                       finish(ticket_id.status());
                                     });
                               });
  return reactor;
}

grpc::ServerWriteReactor<v1::TicketUpdate>* MatchmakingService::WatchTicket(
    grpc::CallbackServerContext* context, const v1::WatchTicketRequest* request) {
  auto identity = common::AcceptCall(*gate_, *context, nullptr, *request);
  absl::Status refused = identity.status();
  const common::ScopedRequestId call_scope(identity.ok() ? identity->request_id : "");
  if (refused.ok() && request->ticket_id().empty()) {
    refused = absl::InvalidArgumentError("ticket_id: required");
  }
  // A stream that only ends: the watchers' bookkeeping is for streams that run.
  if (!refused.ok()) return RefusedWatch(common::ToGrpcStatus(refused));
  // Whether the ticket exists and is the caller's is checked by the watchers' first read.
  return watchers_->Open(request->ticket_id(), identity->subject,
                         watchers_->ConnectionKey(*context, identity->subject));
}

grpc::ServerUnaryReactor* MatchmakingService::CancelTicket(grpc::CallbackServerContext* context,
                                                           const v1::CancelTicketRequest* request,
                                                           v1::CancelTicketResponse*) {
  return Offload(context, *request, "CancelTicket", [this, request](const std::string& caller) {
    if (request->ticket_id().empty()) return absl::InvalidArgumentError("ticket_id: required");
    auto cancelled = store_->tickets.CancelTicket(request->ticket_id(), caller, Now());
    if (!cancelled.ok()) return cancelled.status();
    // Counted by the call that cancelled it; a repeat finds it cancelled already.
    if (cancelled->has_value()) metrics_->TicketsEnded(**cancelled, kCancelled).Increment();
    watchers_->Poke();
    return absl::OkStatus();
  });
}

grpc::ServerUnaryReactor* MatchmakingService::GetQueueStats(grpc::CallbackServerContext* context,
                                                            const v1::GetQueueStatsRequest* request,
                                                            v1::GetQueueStatsResponse* response) {
  return Offload(context, *request, "GetQueueStats", [this, request, response](const std::string&) {
    if (!request->ruleset().empty() && !engine::FindRuleset(request->ruleset()).ok()) {
      return absl::InvalidArgumentError(absl::StrCat("ruleset: unknown ", request->ruleset()));
    }
    const absl::Time now = Now();
    auto stats = store_->queues.Stats(request->ruleset(), now - settings_.stats_window, now);
    if (!stats.ok()) return stats.status();
    for (v1::QueueStats& queue : *stats) *response->add_queues() = std::move(queue);
    return absl::OkStatus();
  });
}

grpc::ServerUnaryReactor* MatchmakingService::CreateParty(grpc::CallbackServerContext* context,
                                                          const v1::CreatePartyRequest* request,
                                                          v1::Party* response) {
  return Offload(context, *request, "CreateParty", [this, response](const std::string& caller) {
    auto party = store_->parties.CreateParty(caller, Now());
    if (!party.ok()) return party.status();
    *response = *std::move(party);
    return absl::OkStatus();
  });
}

grpc::ServerUnaryReactor* MatchmakingService::JoinParty(grpc::CallbackServerContext* context,
                                                        const v1::JoinPartyRequest* request,
                                                        v1::Party* response) {
  return Offload(context, *request, "JoinParty", [this, request, response](const std::string& caller) {
    if (request->invite_code().empty()) return absl::InvalidArgumentError("invite_code: required");
    auto party = store_->parties.JoinParty(request->invite_code(), caller, Now());
    if (!party.ok()) return party.status();
    *response = *std::move(party);
    return absl::OkStatus();
  });
}

grpc::ServerUnaryReactor* MatchmakingService::LeaveParty(grpc::CallbackServerContext* context,
                                                         const v1::LeavePartyRequest* request,
                                                         v1::LeavePartyResponse*) {
  return Offload(context, *request, "LeaveParty", [this, request](const std::string& caller) {
    if (request->party_id().empty()) return absl::InvalidArgumentError("party_id: required");
    return store_->parties.LeaveParty(request->party_id(), caller);
  });
}

grpc::ServerUnaryReactor* MatchmakingService::GetMyTicket(grpc::CallbackServerContext* context,
                                                          const v1::GetMyTicketRequest* request,
                                                          v1::TicketUpdate* response) {
  return Offload(context, *request, "GetMyTicket", [this, response](const std::string& caller) {
    SettleGameEnds(store_->game_ends.UnsettledMatchesOfPlayer(caller));
    auto ticket = store_->tickets.TicketInPlay(caller);
    if (!ticket.ok()) return ticket.status();
    // The figures only a queued ticket shows; WatchTicket's first update would say the same.
    QueueFigures figures;
    if (ticket->state == kWaiting || ticket->state == kPlacing) {
      figures = ReadQueueFigures(*store_, ticket->queue_key, Now() - settings_.stats_window);
    }
    *response = UpdateFor(*ticket, caller, figures);
    return absl::OkStatus();
  });
}

grpc::ServerUnaryReactor* MatchmakingService::GetMyParty(grpc::CallbackServerContext* context,
                                                         const v1::GetMyPartyRequest* request,
                                                         v1::Party* response) {
  return Offload(context, *request, "GetMyParty", [this, response](const std::string& caller) {
    auto party = store_->parties.PartyOf(caller);
    if (!party.ok()) return party.status();
    *response = *std::move(party);
    return absl::OkStatus();
  });
}

}  // namespace kahve::matchmaking

#include "tools/kahve/matchmaking_seating.h"

#include <chrono>
#include <functional>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "grpcpp/grpcpp.h"
#include "services/common/status.h"

namespace kahve::tools {
namespace {

constexpr absl::Duration kPoll = absl::Milliseconds(100);

// Runs `call` with a fresh context carrying `bearer` until it is not UNAVAILABLE (a replica
// restarting) or `deadline` passes.
grpc::Status Retried(const std::string& bearer, absl::Time deadline,
                     const std::function<grpc::Status(grpc::ClientContext*)>& call) {
  for (;;) {
    grpc::ClientContext context;
    context.AddMetadata("authorization", bearer);
    context.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(5));
    const grpc::Status status = call(&context);
    if (status.error_code() != grpc::StatusCode::UNAVAILABLE || absl::Now() >= deadline) {
      return status;
    }
    absl::SleepFor(kPoll);
  }
}

absl::Status Failed(const char* what, const grpc::Status& status) {
  return absl::Status(common::FromGrpcStatus(status).code(),
                      absl::StrCat(what, ": ", status.error_message()));
}

}  // namespace

MatchmakingSeater::MatchmakingSeater(std::shared_ptr<grpc::Channel> channel)
    : stub_(v1::MatchmakingService::NewStub(std::move(channel))) {}

absl::StatusOr<v1::CreateTableResponse> MatchmakingSeater::Seat(
    const std::vector<std::string>& bearers, const std::string& request_id, std::string& party_id,
    absl::Duration timeout) {
  if (bearers.size() != 2) return absl::InvalidArgumentError("a party seats two players");
  const absl::Time deadline = absl::Now() + timeout;
  if (party_id.empty()) {
    const v1::CreatePartyRequest create;
    v1::Party party;
    grpc::Status status = Retried(bearers[0], deadline, [&](grpc::ClientContext* context) {
      return stub_->CreateParty(context, create, &party);
    });
    if (!status.ok()) return Failed("CreateParty", status);
    v1::JoinPartyRequest join;
    join.set_invite_code(party.invite_code());
    status = Retried(bearers[1], deadline, [&](grpc::ClientContext* context) {
      return stub_->JoinParty(context, join, &party);
    });
    if (!status.ok()) return Failed("JoinParty", status);
    party_id = party.party_id();
  }
  v1::EnqueueRequest enqueue;
  enqueue.set_party_id(party_id);
  enqueue.set_request_id(request_id);
  enqueue.mutable_settings()->mutable_liars_dice()->set_players(2);
  v1::EnqueueResponse enqueued;
  const grpc::Status status = Retried(bearers[0], deadline, [&](grpc::ClientContext* context) {
    return stub_->Enqueue(context, enqueue, &enqueued);
  });
  if (!status.ok()) return Failed("Enqueue", status);

  v1::CreateTableResponse table;
  for (int seat_of = 0; seat_of < 2; ++seat_of) {
    const v1::GetMyTicketRequest mine;
    v1::TicketUpdate ticket;
    for (;;) {
      const grpc::Status read = Retried(
          bearers[seat_of], deadline,
          [&](grpc::ClientContext* context) { return stub_->GetMyTicket(context, mine, &ticket); });
      if (!read.ok()) return Failed("GetMyTicket", read);
      if (ticket.ticket_id() != enqueued.ticket_id()) {
        return absl::InternalError("GetMyTicket: another ticket than the one enqueued");
      }
      if (ticket.state() == v1::TicketUpdate::MATCHED) break;
      if (ticket.state() != v1::TicketUpdate::QUEUED) {
        return absl::AbortedError(absl::StrCat("ticket ", ticket.ticket_id(), " ended unmatched"));
      }
      if (absl::Now() >= deadline) return absl::DeadlineExceededError("not matched in time");
      absl::SleepFor(kPoll);
    }
    const v1::Assignment& assignment = ticket.assignment();
    if (!table.table_id().empty() && table.table_id() != assignment.table_id()) {
      return absl::InternalError("the party's players were sent to different tables");
    }
    table.set_table_id(assignment.table_id());
    auto* grant = table.add_seats();
    grant->set_seat(assignment.seat());
    grant->set_seat_token(assignment.seat_token());
  }
  return table;
}

}  // namespace kahve::tools

#include "tools/kahve/demo_player.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <memory>
#include <optional>
#include <set>

#include "absl/flags/flag.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "engine/core/rng.h"
#include "grpcpp/grpcpp.h"
#include "kahve/v1/table.grpc.pb.h"
#include "tools/kahve/demo_output.h"
#include "tools/kahve/player_channel.h"

ABSL_FLAG(std::string, demo_table_target, "",
          "demo: the table service to play on (host:port) instead of the address each assignment "
          "names; e.g. inside a cluster whose assignments name the public entry address. Empty: "
          "the assignment's.");

namespace kahve::tools {

std::string TableEndpointOf(const v1::Assignment& assignment) {
  const std::string target = absl::GetFlag(FLAGS_demo_table_target);
  return target.empty() ? assignment.table_endpoint() : target;
}
namespace {

// Generous: a demo player waits for the others to queue and for the next matchmaking pass.
constexpr auto kMatchWait = std::chrono::seconds(120);
// The whole game, in case a seat never moves (the table's own clock bounds it in practice).
constexpr auto kGameWait = std::chrono::seconds(600);
constexpr auto kCallWait = std::chrono::seconds(10);
// A move the table refused is tried again from a fresh view this many times.
constexpr int kRefusalsAllowed = 3;

absl::Status Failed(const std::string& call, const grpc::Status& status) {
  return absl::Status(static_cast<absl::StatusCode>(status.error_code()),
                      absl::StrCat(call, ": ", status.error_message()));
}

// Queues `player` alone and waits on WatchTicket for its assignment.
absl::StatusOr<v1::Assignment> Queue(const DemoClient& client, const DemoPlayerIdentity& player,
                                     v1::MatchmakingService::Stub& matchmaking) {
  v1::EnqueueRequest enqueue;
  *enqueue.mutable_settings() = client.settings;
  enqueue.set_request_id(absl::StrCat(player.id, "-", std::string(client.ruleset), "-enqueue"));
  v1::EnqueueResponse ticket;
  grpc::Status status = matchmaking.Enqueue(player.Call(kCallWait).get(), enqueue, &ticket);
  if (!status.ok()) return Failed("Enqueue", status);

  v1::WatchTicketRequest watch;
  watch.set_ticket_id(ticket.ticket_id());
  auto context = player.Call(kMatchWait);
  auto reader = matchmaking.WatchTicket(context.get(), watch);
  v1::TicketUpdate update;
  std::optional<v1::Assignment> assignment;
  while (!assignment.has_value() && reader->Read(&update)) {
    if (update.state() == v1::TicketUpdate::MATCHED) assignment = update.assignment();
    if (update.state() == v1::TicketUpdate::EXPIRED ||
        update.state() == v1::TicketUpdate::CANCELLED) {
      break;
    }
  }
  context->TryCancel();
  status = reader->Finish();
  if (assignment.has_value()) return *assignment;
  if (!status.ok() && status.error_code() != grpc::StatusCode::CANCELLED) {
    return Failed("WatchTicket", status);
  }
  return absl::FailedPreconditionError(absl::StrCat("ticket ", ticket.ticket_id(), " ended ",
                                                    v1::TicketUpdate::State_Name(update.state()),
                                                    " before a match"));
}

class SeatClient {
 public:
  SeatClient(const DemoClient& client, const DemoPlayerIdentity& player, DemoGame& game,
             absl::Mutex& print_mu, uint64_t seed, bool transcript)
      : client_(client),
        player_(player),
        game_(game),
        print_mu_(print_mu),
        rng_(seed),
        transcript_(transcript) {}

  // Connects with the seat token and plays until the stream shows the game over.
  absl::Status Play() {
    const v1::Assignment& assignment = game_.assignment;
    table_ = v1::TableService::NewStub(PlayerChannel(TableEndpointOf(assignment)));
    v1::ConnectRequest connect;
    connect.set_table_id(assignment.table_id());
    connect.set_seat_token(assignment.seat_token());
    auto context = player_.Call(kGameWait);
    auto stream = table_->Connect(context.get(), connect);
    const bool printing = transcript_ && assignment.seat() == 0;
    if (printing) {
      Print({absl::StrCat("== ", std::string(client_.ruleset), ": table ", assignment.table_id(),
                          " at ", assignment.table_endpoint(), " as seat 0 (", player_.id,
                          ") sees it")});
    }
    absl::Status outcome = absl::OkStatus();
    bool over = false;
    v1::TableUpdate update;
    while (!over && outcome.ok() && stream->Read(&update)) {
      if (printing) Print(UpdateLines(update), "   ");
      outcome = OnUpdate(update, over);
    }
    context->TryCancel();
    const grpc::Status ended = stream->Finish();
    if (!outcome.ok()) return outcome;
    if (!over) return Failed("Connect stream ended before the game was over", ended);
    return absl::OkStatus();
  }

 private:
  absl::Status OnUpdate(const v1::TableUpdate& update, bool& over) {
    v1::View view;
    if (update.has_snapshot()) {
      const v1::Snapshot& snapshot = update.snapshot();
      if (game_.seats.empty()) game_.seats.assign(snapshot.seats().begin(), snapshot.seats().end());
      if (snapshot.has_result()) game_.result = snapshot.result();
      view = snapshot.view();
    } else if (update.has_move()) {
      if (update.move().has_result()) {
        game_.result = update.move().result();
        over = true;
        return absl::OkStatus();
      }
      // A move's update says whose turn it is now; only that seat needs the fresh view.
      const auto& to_act = update.move().to_act();
      if (std::find(to_act.begin(), to_act.end(), game_.assignment.seat()) == to_act.end()) {
        return absl::OkStatus();
      }
      auto fresh = FreshView();
      if (!fresh.ok()) return fresh.status();
      view = *std::move(fresh);
    } else {
      return absl::OkStatus();
    }
    over = Finished(view);
    if (over) return absl::OkStatus();
    return MoveIfMyTurn(view);
  }

  absl::StatusOr<v1::View> FreshView() {
    v1::GetViewRequest request;
    request.set_table_id(game_.assignment.table_id());
    request.set_seat_token(game_.assignment.seat_token());
    v1::GetViewResponse response;
    const grpc::Status status = table_->GetView(player_.Call(kCallWait).get(), request, &response);
    if (!status.ok()) return Failed("GetView", status);
    return response.view();
  }

  absl::Status MoveIfMyTurn(v1::View view) {
    for (int refusals = 0;; ++refusals) {
      const auto& to_act = view.to_act();
      if (std::find(to_act.begin(), to_act.end(), game_.assignment.seat()) == to_act.end()) {
        return absl::OkStatus();
      }
      v1::PlayRequest request;
      request.set_table_id(game_.assignment.table_id());
      request.set_seat_token(game_.assignment.seat_token());
      *request.mutable_move() = client_.choose(view, rng_);
      request.set_request_id(absl::StrCat(player_.id, "-", view.move_number(), "-", refusals));
      v1::PlayResponse response;
      const grpc::Status status = table_->Play(player_.Call(kCallWait).get(), request, &response);
      if (status.ok()) {
        ++game_.moves_played;
        return absl::OkStatus();
      }
      // Refused: the view was stale (a bot or the clock moved first) or the client is wrong;
      // a fresh view tells which.
      if (status.error_code() != grpc::StatusCode::FAILED_PRECONDITION ||
          refusals == kRefusalsAllowed) {
        return Failed(absl::StrCat("Play ", request.move().ShortDebugString()), status);
      }
      auto fresh = FreshView();
      if (!fresh.ok()) return fresh.status();
      view = *std::move(fresh);
      if (Finished(view)) return absl::OkStatus();
    }
  }

  // A view fetched after a move can already show the game over (later moves went first); its
  // result is the one the final update will carry.
  bool Finished(const v1::View& view) {
    if (view.over()) game_.result = view.result();
    return view.over();
  }

  void Print(const std::vector<std::string>& lines, const std::string& indent = "") {
    absl::MutexLock lock(&print_mu_);
    for (const std::string& line : lines) std::printf("%s%s\n", indent.c_str(), line.c_str());
    std::fflush(stdout);
  }

  const DemoClient& client_;
  const DemoPlayerIdentity& player_;
  DemoGame& game_;
  absl::Mutex& print_mu_;
  engine::Rng rng_;
  const bool transcript_;
  std::unique_ptr<v1::TableService::Stub> table_;
};

}  // namespace

std::unique_ptr<grpc::ClientContext> DemoPlayerIdentity::Call(std::chrono::seconds deadline) const {
  auto context = std::make_unique<grpc::ClientContext>();
  context->AddMetadata("authorization", bearer);
  context->set_deadline(std::chrono::system_clock::now() + deadline);
  return context;
}

DemoGame PlayAsClient(const DemoClient& client, const DemoPlayerIdentity& player,
                      v1::MatchmakingService::Stub& matchmaking, absl::Mutex& print_mu,
                      uint64_t seed, bool transcript) {
  DemoGame game;
  game.player_id = player.id;
  auto assignment = Queue(client, player, matchmaking);
  if (!assignment.ok()) {
    game.status = assignment.status();
    return game;
  }
  game.assignment = *std::move(assignment);
  game.status = SeatClient(client, player, game, print_mu, seed, transcript).Play();
  return game;
}

absl::Status CheckSameGame(const std::vector<DemoGame>& games) {
  std::set<int> seats;
  for (const DemoGame& game : games) {
    const std::string who = absl::StrCat(game.player_id, " (seat ", game.assignment.seat(), ")");
    if (game.assignment.match_id() != games[0].assignment.match_id() ||
        game.assignment.table_id() != games[0].assignment.table_id()) {
      return absl::InternalError(absl::StrCat(who, " was matched to table ",
                                              game.assignment.table_id(), ", not ",
                                              games[0].assignment.table_id()));
    }
    if (!seats.insert(game.assignment.seat()).second) {
      return absl::InternalError(absl::StrCat("seat ", game.assignment.seat(), " given twice"));
    }
    if (game.result.SerializeAsString() != games[0].result.SerializeAsString()) {
      return absl::InternalError(absl::StrCat(who, " saw a different result"));
    }
    if (game.result.seats_size() != static_cast<int>(games.size())) {
      return absl::InternalError(
          absl::StrCat(who, " saw a result of ", game.result.seats_size(), " seats"));
    }
    for (const v1::SeatStatus& seat : game.seats) {
      if (seat.player_id().empty()) {
        return absl::InternalError(absl::StrCat("seat ", seat.seat(), " is a bot (",
                                                seat.bot_kind(), "), not a demo player"));
      }
    }
  }
  return absl::OkStatus();
}

absl::Status CheckRecorded(const v1::MatchRecord& record, const std::vector<DemoGame>& games) {
  if (record.participants_size() != static_cast<int>(games.size())) {
    return absl::InternalError(absl::StrCat("the record has ", record.participants_size(),
                                            " participants, the table had ", games.size()));
  }
  for (const DemoGame& game : games) {
    const int seat = game.assignment.seat();
    const auto participant =
        std::find_if(record.participants().begin(), record.participants().end(),
                     [seat](const v1::Participant& p) { return p.seat() == seat; });
    const auto result =
        std::find_if(game.result.seats().begin(), game.result.seats().end(),
                     [seat](const v1::Result::SeatResult& s) { return s.seat() == seat; });
    if (participant == record.participants().end() || result == game.result.seats().end() ||
        participant->player_id() != game.player_id || participant->rank() != result->rank()) {
      return absl::InternalError(absl::StrCat(
          "the record of seat ", seat, " does not match the table's result for ", game.player_id));
    }
  }
  return absl::OkStatus();
}

}  // namespace kahve::tools

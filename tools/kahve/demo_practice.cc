#include "tools/kahve/demo_practice.h"

#include <algorithm>
#include <cstdio>
#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "google/protobuf/util/message_differencer.h"
#include "grpcpp/grpcpp.h"
#include "kahve/v1/table.grpc.pb.h"
#include "tools/kahve/player_channel.h"

namespace kahve::tools {
namespace {

using Stub = v1::TableService::Stub;

absl::Status Failed(const std::string& call, const grpc::Status& status) {
  return absl::UnavailableError(absl::StrCat(call, ": ", status.error_message()));
}

// The player's view once it is their turn (the bots answer at once), or once the game is over.
absl::StatusOr<v1::GetViewResponse> AwaitTurn(Stub& table, const DemoPlayerIdentity& player,
                                              const v1::CreatePracticeTableResponse& practice) {
  v1::GetViewRequest request;
  request.set_table_id(practice.table_id());
  request.set_seat_token(practice.seat_token());
  const absl::Time deadline = absl::Now() + absl::Seconds(30);
  while (absl::Now() < deadline) {
    v1::GetViewResponse view;
    const grpc::Status status = table.GetView(player.Call().get(), request, &view);
    if (!status.ok()) return Failed("GetView", status);
    const auto& to_act = view.view().to_act();
    if (view.view().over() ||
        std::find(to_act.begin(), to_act.end(), practice.seat()) != to_act.end()) {
      return view;
    }
    absl::SleepFor(absl::Milliseconds(20));
  }
  return absl::DeadlineExceededError("the bots did not hand the turn back within 30 s");
}

std::string MoveText(const v1::MexicanTrainMove& move) {
  if (move.has_play()) {
    const int train = move.play().train();
    return absl::StrCat(
        "play ", move.play().tile(), " on ",
        train < 0 ? std::string("the Mexican train") : absl::StrCat("seat ", train, "'s train"));
  }
  if (move.has_draw()) return "draw";
  if (move.has_pass()) return "pass";
  return "end the first turn";
}

}  // namespace

absl::Status PlayPractice(const std::string& table_endpoint, const v1::GameSettings& settings,
                          const DemoPlayerIdentity& player, bool transcript) {
  auto table = v1::TableService::NewStub(
      PlayerChannel(table_endpoint));
  v1::CreatePracticeTableRequest create;
  *create.mutable_settings() = settings;
  v1::CreatePracticeTableResponse practice;
  grpc::Status status = table->CreatePracticeTable(player.Call().get(), create, &practice);
  if (!status.ok()) return Failed("CreatePracticeTable", status);
  if (transcript) {
    std::printf("== practice: %s opens table %s against bots (seat %d, never rated)\n",
                player.id.c_str(), practice.table_id().c_str(), practice.seat());
  }

  // The player follows the hints until a move of theirs hands the turn to the bots (a first turn
  // may lay several tiles); that last decision is the one undone and redone below.
  absl::StatusOr<v1::GetViewResponse> before, after = AwaitTurn(*table, player, practice);
  int moves = 0;
  for (int decision = 0; decision < 30 && moves <= 1; ++decision) {
    before = after;
    if (!before.ok()) return before.status();
    v1::GetHintsRequest hints_request;
    hints_request.set_table_id(practice.table_id());
    hints_request.set_seat_token(practice.seat_token());
    v1::GetHintsResponse hints;
    status = table->GetHints(player.Call().get(), hints_request, &hints);
    if (!status.ok()) return Failed("GetHints", status);
    const v1::MexicanTrainHints& train = hints.hints().mexican_train();
    if (!train.has_suggested()) return absl::InternalError("the hints suggest no move");
    v1::PlayRequest play;
    play.set_table_id(practice.table_id());
    play.set_seat_token(practice.seat_token());
    *play.mutable_move()->mutable_mexican_train() = train.suggested();
    v1::PlayResponse played;
    status = table->Play(player.Call().get(), play, &played);
    if (!status.ok()) return Failed("Play", status);
    after = AwaitTurn(*table, player, practice);
    if (!after.ok()) return after.status();
    moves = static_cast<int>(after->seq() - before->seq());
    if (transcript) {
      std::printf(
          "   hints: %d legal move(s), suggested: %s; played it, %d move(s) until the "
          "player's turn again\n",
          train.legal_size(), MoveText(train.suggested()).c_str(), moves);
    }
  }

  v1::PracticeRequest request;
  request.set_table_id(practice.table_id());
  request.set_seat_token(practice.seat_token());
  v1::PracticeResponse undone, redone, paused, resumed;
  status = table->Undo(player.Call().get(), request, &undone);
  if (!status.ok()) return Failed("Undo", status);
  if (!google::protobuf::util::MessageDifferencer::Equals(undone.view(), before->view())) {
    return absl::InternalError("after Undo the view differs from the one before the move");
  }
  status = table->Redo(player.Call().get(), request, &redone);
  if (!status.ok()) return Failed("Redo", status);
  if (!google::protobuf::util::MessageDifferencer::Equals(redone.view(), after->view())) {
    return absl::InternalError("after Redo the view differs from the one after the move");
  }
  if (transcript) {
    std::printf(
        "   undo took those %d move(s) back and redo played them again: the views before "
        "and after check out\n",
        moves);
  }
  status = table->Pause(player.Call().get(), request, &paused);
  if (!status.ok() || !paused.practice().paused()) return Failed("Pause", status);
  status = table->Resume(player.Call().get(), request, &resumed);
  if (!status.ok() || resumed.practice().paused()) return Failed("Resume", status);
  if (transcript) std::printf("   paused and resumed\n");

  v1::ResignRequest resign;
  resign.set_table_id(practice.table_id());
  resign.set_seat_token(practice.seat_token());
  v1::ResignResponse resigned;
  status = table->Resign(player.Call().get(), resign, &resigned);
  if (!status.ok()) return Failed("Resign", status);
  if (transcript) {
    std::printf("   resigned: the practice table closed at once (TableClosed, seq %llu)\n",
                static_cast<unsigned long long>(resigned.seq()));
  } else {
    std::printf(
        "== practice: %s's table %s against bots: hinted move played, undo and redo restore its "
        "views, pause and resume, resign closes the table\n",
        player.id.c_str(), practice.table_id().c_str());
  }
  std::fflush(stdout);
  return absl::OkStatus();
}

}  // namespace kahve::tools

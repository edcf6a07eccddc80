// Practice tables through the real table service (gRPC and PostgreSQL), for every ruleset: one
// player and bots, pause and resume, undo and redo, a restart in between, and never rated.

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "engine/core/registry.h"
#include "google/protobuf/util/message_differencer.h"
#include "gtest/gtest.h"
#include "tests/services/service_testing.h"
#include "tests/services/table/table_fixture.h"

namespace kahve::table {
namespace {

using ::google::protobuf::util::MessageDifferencer;

constexpr char kPia[] = "pia";
constexpr int kSeat = 1;

v1::GameSettings SettingsFor(const std::string& ruleset) {
  v1::GameSettings settings;
  if (ruleset == "liars_dice") settings.mutable_liars_dice()->set_players(3);
  if (ruleset == "okey") settings.mutable_okey()->set_players(4);
  if (ruleset == "okey51") settings.mutable_okey51();
  if (ruleset == "okey101") settings.mutable_okey101()->set_deals(3);
  if (ruleset == "mexican_train") settings.mutable_mexican_train()->set_players(3);
  return settings;
}

class TablePracticeTest : public TableServiceTest {
 protected:
  grpc::Status CreatePractice(const v1::CreatePracticeTableRequest& request,
                              v1::CreatePracticeTableResponse* response,
                              const std::string& player = kPia) {
    auto context = kahve::testing::ContextFor(player);
    return stub().CreatePracticeTable(context.get(), request, response);
  }
  Player OpenPractice(const v1::GameSettings& settings, std::string* table_id,
                      int bot_delay_ms = 0) {
    v1::CreatePracticeTableRequest request;
    *request.mutable_settings() = settings;
    request.set_seat(kSeat);
    request.set_seed(5);
    request.mutable_options()->set_bot_delay_ms(bot_delay_ms);
    v1::CreatePracticeTableResponse response;
    const grpc::Status status = CreatePractice(request, &response);
    EXPECT_TRUE(status.ok()) << status.error_message();
    *table_id = response.table_id();
    return Player{kPia, response.seat(), response.seat_token()};
  }
  // Pause, Resume, Undo or Redo.
  grpc::Status Call(v1::PracticeChange::Kind kind, const std::string& table_id,
                    const Player& player, v1::PracticeResponse* response,
                    std::optional<uint64_t> expected_seq = std::nullopt) {
    auto context = kahve::testing::ContextFor(player.id);
    v1::PracticeRequest request;
    request.set_table_id(table_id);
    request.set_seat_token(player.token);
    if (expected_seq.has_value()) request.set_expected_seq(*expected_seq);
    switch (kind) {
      case v1::PracticeChange::PAUSED:
        return stub().Pause(context.get(), request, response);
      case v1::PracticeChange::RESUMED:
        return stub().Resume(context.get(), request, response);
      case v1::PracticeChange::UNDONE:
        return stub().Undo(context.get(), request, response);
      default:
        return stub().Redo(context.get(), request, response);
    }
  }
  // The player's view once it is their turn (the bots move at once without a delay). With a
  // simulated `clock`, time moves on by `step` (the bots' delay) whenever the bots are to act, and
  // the view is read once the host's clock thread has done what came due.
  v1::GetViewResponse AwaitTurn(const std::string& table_id, const Player& player,
                                kahve::testing::SimulatedClock* clock = nullptr,
                                absl::Duration step = absl::ZeroDuration()) {
    const absl::Time deadline = absl::Now() + absl::Seconds(20);
    while (true) {
      absl::StatusOr<v1::GetViewResponse> view = View(table_id, player.id, player.token);
      EXPECT_TRUE(view.ok()) << view.status();
      if (!view.ok()) return {};
      const auto& to_act = view->view().to_act();
      if (view->view().over() ||
          std::find(to_act.begin(), to_act.end(), player.seat) != to_act.end() ||
          absl::Now() > deadline) {
        return *view;
      }
      if (clock != nullptr) {
        clock->Advance(step);
        EXPECT_TRUE(clock->AwaitWaiters(1));
      } else {
        absl::SleepFor(absl::Milliseconds(20));
      }
    }
  }
  // A legal move for the player, from the game rebuilt out of the admin's replay (a test oracle:
  // the player's own client would choose from its view).
  std::vector<v1::Move> LegalMoves(const std::string& table_id, const Player& player) {
    auto context = kahve::testing::ContextFor(kAdmin, common::kRoleAdmin);
    v1::GetReplayRequest request;
    request.set_table_id(table_id);
    v1::Replay replay;
    const grpc::Status status = stub().GetReplay(context.get(), request, &replay);
    EXPECT_TRUE(status.ok()) << status.error_message();
    auto game = engine::NewGame(replay.settings(), replay.deal());
    EXPECT_TRUE(game.ok()) << game.status();
    for (const v1::ReplayMove& move : replay.moves()) {
      EXPECT_TRUE((*game)->Apply(move.seat(), move.move()).accepted);
    }
    const std::vector<v1::Move> legal = (*game)->LegalMoves(player.seat);
    EXPECT_FALSE(legal.empty());
    return legal;
  }
  v1::Move LegalMove(const std::string& table_id, const Player& player, uint64_t choice) {
    const std::vector<v1::Move> legal = LegalMoves(table_id, player);
    return legal.empty() ? v1::Move() : legal[choice % legal.size()];
  }
};

class TablePracticeRulesetTest : public TablePracticeTest,
                                 public ::testing::WithParamInterface<std::string> {};

TEST_P(TablePracticeRulesetTest, UndoTakesBackTheDecisionAndTheBotRepliesAndRedoRestoresThem) {
  server_->host().SetEndpoint(absl::StrCat("127.0.0.1:", server_->port()));
  std::string table_id;
  const Player pia = OpenPractice(SettingsFor(GetParam()), &table_id);
  ASSERT_EQ(pia.seat, kSeat);
  ASSERT_FALSE(pia.token.empty());
  auto stream = Connect(table_id, pia.id, pia.token);

  const v1::GetViewResponse before = AwaitTurn(table_id, pia);
  ASSERT_FALSE(before.view().over());
  ASSERT_TRUE(before.has_practice());
  EXPECT_EQ(before.practice().undoable(), 0);
  v1::PlayResponse played;
  ASSERT_TRUE(Play(table_id, pia, LegalMove(table_id, pia, 3), &played).ok());
  const v1::GetViewResponse after = AwaitTurn(table_id, pia);
  EXPECT_EQ(after.practice().undoable(), 1);

  v1::PracticeResponse undone;
  const grpc::Status undo = Call(v1::PracticeChange::UNDONE, table_id, pia, &undone);
  ASSERT_TRUE(undo.ok()) << undo.error_message();
  EXPECT_TRUE(MessageDifferencer::Equals(undone.view(), before.view()))
      << "after undo: " << undone.view().ShortDebugString()
      << "\nbefore the move: " << before.view().ShortDebugString();
  EXPECT_EQ(undone.practice().redoable(), 1);
  EXPECT_EQ(undone.practice().undoable(), 0);
  // The stream tells the player too, with their view in the update.
  ASSERT_TRUE(stream->WaitForSeq(undone.seq()));
  const std::vector<v1::TableUpdate> updates = stream->updates();
  EXPECT_EQ(CheckStream(updates, kSeat), "");
  const v1::TableUpdate& update = updates.back();
  ASSERT_TRUE(update.has_practice());
  EXPECT_EQ(update.practice().kind(), v1::PracticeChange::UNDONE);
  EXPECT_EQ(update.practice().moves(), static_cast<int>(after.seq() - before.seq()));
  EXPECT_TRUE(MessageDifferencer::Equals(update.practice().view(), before.view()));

  v1::PracticeResponse redone;
  const grpc::Status redo = Call(v1::PracticeChange::REDONE, table_id, pia, &redone);
  ASSERT_TRUE(redo.ok()) << redo.error_message();
  EXPECT_TRUE(MessageDifferencer::Equals(redone.view(), after.view()));
  EXPECT_EQ(redone.practice().redoable(), 0);
  absl::StatusOr<v1::GetViewResponse> now = View(table_id, pia.id, pia.token);
  ASSERT_TRUE(now.ok());
  EXPECT_TRUE(MessageDifferencer::Equals(now->view(), after.view()));
}

INSTANTIATE_TEST_SUITE_P(EveryRuleset, TablePracticeRulesetTest,
                         ::testing::Values("liars_dice", "okey", "okey51", "okey101",
                                           "mexican_train"));

TEST_F(TablePracticeTest, APauseHoldsTheBotsUntilResumed) {
  // Simulated time: the bots' delay passes only when the test moves the clock, so the pause lands
  // before their move however busy the machine, and a long pause costs no real time.
  kahve::testing::SimulatedClock& clock = simulated_clock_;
  TableHostSettings settings = TableServer::DefaultSettings();
  settings.clock = &clock;
  server_.reset();
  server_ = std::make_unique<TableServer>(url(), kHostId, settings);
  constexpr absl::Duration kBotDelay = absl::Seconds(5);
  std::string table_id;
  const Player pia = OpenPractice(SettingsFor("liars_dice"), &table_id,
                                  absl::ToInt64Milliseconds(kBotDelay));
  AwaitTurn(table_id, pia, &clock, kBotDelay);
  // A bid, so that a bot is to answer (a challenge could leave the player to open the next round).
  v1::Move bid;
  for (const v1::Move& move : LegalMoves(table_id, pia)) {
    if (move.liars_dice().has_bid()) bid = move;
  }
  ASSERT_TRUE(bid.liars_dice().has_bid());
  v1::PlayResponse played;
  ASSERT_TRUE(Play(table_id, pia, bid, &played).ok());
  v1::PracticeResponse paused;
  const grpc::Status pause = Call(v1::PracticeChange::PAUSED, table_id, pia, &paused, played.seq());
  ASSERT_TRUE(pause.ok()) << pause.error_message();
  EXPECT_TRUE(paused.practice().paused());
  // Ten minutes, far past the bots' delay (yet short of the idle expiry, which would resign pia).
  clock.Advance(absl::Minutes(10));
  ASSERT_TRUE(clock.AwaitWaiters(1));
  absl::StatusOr<v1::GetViewResponse> held = View(table_id, pia.id, pia.token);
  ASSERT_TRUE(held.ok());
  EXPECT_EQ(held->seq(), paused.seq()) << "a bot moved while paused";
  EXPECT_TRUE(held->practice().paused());
  // Pausing again answers the same; resuming lets the bots go on.
  v1::PracticeResponse again;
  ASSERT_TRUE(Call(v1::PracticeChange::PAUSED, table_id, pia, &again).ok());
  EXPECT_EQ(again.seq(), paused.seq());
  v1::PracticeResponse resumed;
  ASSERT_TRUE(Call(v1::PracticeChange::RESUMED, table_id, pia, &resumed).ok());
  EXPECT_FALSE(resumed.practice().paused());
  const v1::GetViewResponse later = AwaitTurn(table_id, pia, &clock, kBotDelay);
  EXPECT_GT(later.seq(), resumed.seq()) << "the bots moved after the resume";
  // The repeated pause changed nothing, so it counts nothing.
  prometheus::Registry& registry = server_->metrics().registry();
  EXPECT_EQ(kahve::testing::MetricSum(registry, "kahve_practice_changes_total", {{"kind", "pause"}}),
            1);
  EXPECT_EQ(
      kahve::testing::MetricSum(registry, "kahve_practice_changes_total", {{"kind", "resume"}}), 1);
}

TEST_F(TablePracticeTest, APracticeTableSurvivesARestartPausedWithItsRedo) {
  std::string table_id;
  const Player pia = OpenPractice(SettingsFor("mexican_train"), &table_id);
  const v1::GetViewResponse before = AwaitTurn(table_id, pia);
  v1::PlayResponse played;
  ASSERT_TRUE(Play(table_id, pia, LegalMove(table_id, pia, 1), &played).ok());
  const v1::GetViewResponse after = AwaitTurn(table_id, pia);
  v1::PracticeResponse response;
  ASSERT_TRUE(Call(v1::PracticeChange::UNDONE, table_id, pia, &response).ok());
  ASSERT_TRUE(Call(v1::PracticeChange::PAUSED, table_id, pia, &response).ok());

  server_->Stop();
  server_ = std::make_unique<TableServer>(url(), kHostId);

  absl::StatusOr<v1::GetViewResponse> reloaded = View(table_id, pia.id, pia.token);
  ASSERT_TRUE(reloaded.ok()) << reloaded.status();
  EXPECT_TRUE(MessageDifferencer::Equals(reloaded->view(), before.view()));
  EXPECT_TRUE(reloaded->practice().paused());
  EXPECT_EQ(reloaded->practice().redoable(), 1);
  ASSERT_TRUE(Call(v1::PracticeChange::RESUMED, table_id, pia, &response).ok());
  ASSERT_TRUE(Call(v1::PracticeChange::REDONE, table_id, pia, &response).ok());
  EXPECT_TRUE(MessageDifferencer::Equals(response.view(), after.view()));
}

TEST_F(TablePracticeTest, APracticeGameIsNeverRatedAndARetryFindsTheSameTable) {
  v1::CreatePracticeTableRequest request;
  *request.mutable_settings() = SettingsFor("liars_dice");
  request.set_request_id("first");
  v1::CreatePracticeTableResponse first, retry, other;
  ASSERT_TRUE(CreatePractice(request, &first).ok());
  ASSERT_TRUE(CreatePractice(request, &retry).ok());
  EXPECT_EQ(retry.table_id(), first.table_id());
  EXPECT_EQ(retry.seat_token(), first.seat_token());
  // Another player's request id is theirs alone.
  ASSERT_TRUE(CreatePractice(request, &other, "quinn").ok());
  EXPECT_NE(other.table_id(), first.table_id());
  // The same id for another game is refused.
  request.mutable_settings()->mutable_liars_dice()->set_players(4);
  v1::CreatePracticeTableResponse clash;
  EXPECT_EQ(CreatePractice(request, &clash).error_code(), grpc::StatusCode::ALREADY_EXISTS);

  const Player pia{kPia, first.seat(), first.seat_token()};
  auto context = kahve::testing::ContextFor(kPia);
  v1::ResignRequest resign;
  resign.set_table_id(first.table_id());
  resign.set_seat_token(pia.token);
  v1::ResignResponse resigned;
  ASSERT_TRUE(stub().Resign(context.get(), resign, &resigned).ok());
  // A resigned practice table closes at once: no bot plays out a game nobody watches.
  absl::StatusOr<v1::GetViewResponse> end = View(first.table_id(), pia.id, pia.token);
  ASSERT_TRUE(end.ok()) << end.status();
  ASSERT_TRUE(end->has_closed());
  EXPECT_EQ(end->closed().reason(), v1::TableClosed::PRACTICE_RESIGNED);
  EXPECT_EQ(end->seq(), resigned.seq());
  EXPECT_TRUE(end->legal_moves().empty());
  EXPECT_TRUE(end->has_reveal()) << "nothing more is played: the deal shows";
  v1::PracticeResponse response;
  EXPECT_EQ(Call(v1::PracticeChange::UNDONE, first.table_id(), pia, &response).error_code(),
            grpc::StatusCode::FAILED_PRECONDITION);
  // Finished, with nothing for the rating service.
  const std::string id = first.table_id();
  EXPECT_EQ(Count(absl::StrCat("SELECT count(*) FROM table_tables WHERE table_id = '", id,
                               "' AND finished_us IS NOT NULL")),
            1);
  EXPECT_EQ(Count("SELECT count(*) FROM table_outbox"), 0);
  // Its log: the creation, whatever was played, and the closing; nothing after it.
  EXPECT_EQ(Count(absl::StrCat("SELECT count(*) FROM table_log WHERE table_id = '", id, "'")),
            static_cast<int64_t>(resigned.seq()) + 1);
  // Two tables opened (the retry found the first); the one the player left closed, unfinished.
  prometheus::Registry& registry = server_->metrics().registry();
  EXPECT_EQ(kahve::testing::MetricSum(registry, "kahve_practice_tables_opened_total",
                                      {{"ruleset", "liars_dice"}}),
            2);
  EXPECT_EQ(kahve::testing::MetricSum(registry, "kahve_tables_closed_total",
                                      {{"reason", "practice_resigned"}}),
            1);
  EXPECT_EQ(kahve::testing::MetricSum(registry, "kahve_games_finished_total"), 0);
  EXPECT_EQ(kahve::testing::MetricSum(registry, "kahve_resignations_total"), 1);
}

TEST_F(TablePracticeTest, BadPracticeRequestsGetPreciseErrorsAndChangeNothing) {
  v1::CreatePracticeTableRequest request;
  v1::CreatePracticeTableResponse response;
  grpc::ClientContext anonymous;
  EXPECT_EQ(stub().CreatePracticeTable(&anonymous, request, &response).error_code(),
            grpc::StatusCode::UNAUTHENTICATED);
  auto refused = [&](const v1::CreatePracticeTableRequest& bad, const std::string& field) {
    v1::CreatePracticeTableResponse ignored;
    const grpc::Status status = CreatePractice(bad, &ignored);
    EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT) << field;
    EXPECT_EQ(status.error_message().rfind(field, 0), 0u) << status.error_message();
  };
  refused(request, "settings");
  *request.mutable_settings() = SettingsFor("mexican_train");
  request.set_seat(3);
  refused(request, "seat");
  request.set_seat(0);
  request.set_bot_kind("genius");
  refused(request, "bot_kind");
  request.set_bot_kind("");
  request.set_request_id(std::string(129, 'x'));
  refused(request, "request_id");
  request.set_request_id("");
  request.mutable_options()->set_bot_delay_ms(20000);
  refused(request, "options.bot_delay_ms");
  EXPECT_EQ(Count("SELECT count(*) FROM table_tables"), 0);

  std::string table_id;
  const Player pia = OpenPractice(SettingsFor("mexican_train"), &table_id);
  const v1::GetViewResponse start = AwaitTurn(table_id, pia);
  v1::PracticeResponse ignored;
  EXPECT_EQ(Call(v1::PracticeChange::UNDONE, table_id, pia, &ignored).error_code(),
            grpc::StatusCode::FAILED_PRECONDITION);
  EXPECT_EQ(Call(v1::PracticeChange::REDONE, table_id, pia, &ignored).error_code(),
            grpc::StatusCode::FAILED_PRECONDITION);
  EXPECT_EQ(Call(v1::PracticeChange::PAUSED, table_id, pia, &ignored, start.seq() + 5).error_code(),
            grpc::StatusCode::ABORTED);
  EXPECT_EQ(Call(v1::PracticeChange::PAUSED, table_id, Player{kPia, -1, ""}, &ignored).error_code(),
            grpc::StatusCode::PERMISSION_DENIED)
      << "a spectator";
  EXPECT_EQ(Call(v1::PracticeChange::PAUSED, table_id, Player{"quinn", kSeat, pia.token}, &ignored)
                .error_code(),
            grpc::StatusCode::PERMISSION_DENIED)
      << "another player with pia's token";
  EXPECT_EQ(Call(v1::PracticeChange::PAUSED, "t-none", pia, &ignored).error_code(),
            grpc::StatusCode::NOT_FOUND);
  absl::StatusOr<v1::GetViewResponse> unchanged = View(table_id, pia.id, pia.token);
  ASSERT_TRUE(unchanged.ok());
  EXPECT_EQ(unchanged->seq(), start.seq());
  EXPECT_FALSE(unchanged->practice().paused());

  // An ordinary table has no practice calls.
  std::string ordinary;
  const std::vector<Player> players = CreateTable({"ana", "ben"}, v1::TableOptions(), &ordinary);
  EXPECT_EQ(Call(v1::PracticeChange::PAUSED, ordinary, players[0], &ignored).error_code(),
            grpc::StatusCode::FAILED_PRECONDITION);
}

// Pass-and-play (issue 30): one identity holds several seats of a practice table, each with its
// own token, and a token opens only its own seat's hand; undo takes back the table's last
// decision by any of the player's seats.
TEST_F(TablePracticeTest, OnePlayerHoldsSeveralSeatsAndEachTokenShowsOnlyItsOwnHand) {
  v1::CreatePracticeTableRequest request;
  request.mutable_settings()->mutable_okey()->set_players(4);
  request.set_seat(0);
  request.add_more_seats(2);
  request.set_seed(11);
  v1::CreatePracticeTableResponse created;
  ASSERT_TRUE(CreatePractice(request, &created).ok());
  ASSERT_EQ(created.seats_size(), 2);
  EXPECT_EQ(created.seats(0).seat(), 0);
  EXPECT_EQ(created.seats(1).seat(), 2);
  EXPECT_EQ(created.seat(), 0);
  EXPECT_EQ(created.seat_token(), created.seats(0).seat_token());
  EXPECT_NE(created.seats(0).seat_token(), created.seats(1).seat_token());
  const Player first{kPia, 0, created.seats(0).seat_token()};
  const Player third{kPia, 2, created.seats(1).seat_token()};

  absl::StatusOr<v1::GetViewResponse> view0 = View(created.table_id(), kPia, first.token);
  absl::StatusOr<v1::GetViewResponse> view2 = View(created.table_id(), kPia, third.token);
  ASSERT_TRUE(view0.ok() && view2.ok());
  EXPECT_EQ(view0->view().seat(), 0);
  EXPECT_EQ(view2->view().seat(), 2);
  // Each token opens its own rack, as the engine deals it to that seat (the seed is fixed, so
  // a one-seat practice table of the same deal shows the same racks), and a spectator none.
  EXPECT_GE(view0->view().okey().my_hand_size(), 14);
  EXPECT_GE(view2->view().okey().my_hand_size(), 14);
  EXPECT_FALSE(MessageDifferencer::Equals(view0->view().okey(), view2->view().okey()));
  absl::StatusOr<v1::GetViewResponse> spectator = View(created.table_id(), kPia, "");
  ASSERT_TRUE(spectator.ok());
  EXPECT_EQ(spectator->view().okey().my_hand_size(), 0);
  for (const int seat : {0, 2}) {
    v1::CreatePracticeTableRequest alone = request;
    alone.set_seat(seat);
    alone.clear_more_seats();
    alone.set_request_id(absl::StrCat("alone-", seat));
    v1::CreatePracticeTableResponse single;
    ASSERT_TRUE(CreatePractice(alone, &single).ok());
    absl::StatusOr<v1::GetViewResponse> reference =
        View(single.table_id(), kPia, single.seat_token());
    ASSERT_TRUE(reference.ok());
    const auto& shown = (seat == 0 ? view0 : view2)->view().okey().my_hand();
    EXPECT_TRUE(std::equal(shown.begin(), shown.end(), reference->view().okey().my_hand().begin(),
                           reference->view().okey().my_hand().end()))
        << "seat " << seat;
  }
  // Both seats are the player's; once the bots have moved, exactly one of them is to act.
  const absl::Time deadline = absl::Now() + absl::Seconds(20);
  while (view0->legal_moves().empty() && view2->legal_moves().empty() && absl::Now() < deadline) {
    absl::SleepFor(absl::Milliseconds(20));
    view0 = View(created.table_id(), kPia, first.token);
    view2 = View(created.table_id(), kPia, third.token);
    ASSERT_TRUE(view0.ok() && view2.ok());
  }
  ASSERT_NE(view0->legal_moves().empty(), view2->legal_moves().empty());
  // The first seat plays, the bot at seat 1 replies, then seat 2 is to act by its own token.
  const Player& mover = view0->legal_moves().empty() ? third : first;
  v1::PlayResponse played;
  const v1::Move move = (mover.seat == 0 ? view0 : view2)->legal_moves(0);
  ASSERT_TRUE(Play(created.table_id(), mover, move, &played, "pp-1").ok());
  // The other seat's token cannot play for this one.
  const Player& other = mover.seat == 0 ? third : first;
  v1::PlayResponse refused;
  EXPECT_FALSE(Play(created.table_id(), other, move, &refused, "pp-2").ok());
  // Undo from either seat takes back the table's last decision of the player.
  v1::PracticeResponse undone;
  ASSERT_TRUE(Call(v1::PracticeChange::UNDONE, created.table_id(), other, &undone).ok());
  EXPECT_EQ(undone.view().seat(), other.seat);
  absl::StatusOr<v1::GetViewResponse> again =
      View(created.table_id(), kPia, mover.seat == 0 ? first.token : third.token);
  ASSERT_TRUE(again.ok());
  EXPECT_FALSE(again->legal_moves().empty()) << "the move is taken back: its seat acts again";

  // Seats must be distinct and in range; nothing is created otherwise.
  for (const int bad : {0, 4, -1}) {
    v1::CreatePracticeTableRequest wrong = request;
    wrong.set_request_id(absl::StrCat("bad-", bad));
    wrong.clear_more_seats();
    wrong.add_more_seats(bad);
    v1::CreatePracticeTableResponse none;
    const grpc::Status status = CreatePractice(wrong, &none);
    EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT) << bad;
    EXPECT_NE(status.error_message().find("more_seats[0]"), std::string::npos)
        << status.error_message();
  }
  EXPECT_EQ(Count("SELECT count(*) FROM table_tables"), 3);
}

}  // namespace
}  // namespace kahve::table

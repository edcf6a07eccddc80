#include "tests/services/table/table_fixture.h"

#include <chrono>
#include <utility>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "pqxx/pqxx"
#include "tests/services/service_testing.h"

namespace kahve::table {

TableHostSettings TableServer::DefaultSettings() {
  return TableHostSettings{.seat_token_key = "seat-key", .finished_linger = absl::Seconds(30)};
}

TableConfig TableServer::Config(const std::string& url, const std::string& host_id,
                                TableHostSettings host_settings,
                                common::StreamBudgetSettings stream_budget) {
  TableConfig config;
  config.authenticator = kahve::testing::TestAuthenticator();
  config.pool = {.url = url, .size = 4, .name = "table"};
  config.server.host = "127.0.0.1";
  config.server.metrics_host = "127.0.0.1";
  config.server.drain_period = absl::ZeroDuration();
  config.server.shutdown_deadline = absl::Seconds(5);
  config.host_id = host_id;
  config.host = std::move(host_settings);
  config.workers = 2;
  config.streams = stream_budget;
  config.heartbeat = false;
  config.relay = false;
  config.prune_logs = false;
  return config;
}

TableServer::TableServer(const std::string& url, const std::string& host_id,
                         TableHostSettings host_settings,
                         common::StreamBudgetSettings stream_budget)
    : TableServer(Config(url, host_id, std::move(host_settings), stream_budget)) {}

TableServer::TableServer(TableConfig config) {
  process_ = std::make_unique<TableProcess>(std::move(config));
  const absl::Status started = process_->Start();
  EXPECT_TRUE(started.ok()) << started;
  stub_ = v1::TableService::NewStub(kahve::testing::LocalChannel(process_->port()));
}

UpdateReader::UpdateReader(v1::TableService::Stub& stub, const std::string& player,
                           const v1::ConnectRequest& request)
    : context_(std::make_unique<grpc::ClientContext>()) {
  if (!player.empty()) context_->AddMetadata("authorization", kahve::testing::Bearer(player));
  context_->set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(60));
  reader_ = stub.Connect(context_.get(), request);
  thread_ = std::thread([this] {
    v1::TableUpdate update;
    while (reader_->Read(&update)) {
      absl::MutexLock lock(&mu_);
      updates_.push_back(update);
    }
    grpc::Status status = reader_->Finish();
    absl::MutexLock lock(&mu_);
    status_ = std::move(status);
  });
}

UpdateReader::~UpdateReader() { Cancel(); }

void UpdateReader::Cancel() {
  if (!thread_.joinable()) return;
  context_->TryCancel();
  thread_.join();
}

bool UpdateReader::WaitUntil(const std::function<bool(const std::vector<v1::TableUpdate>&)>& done,
                             absl::Duration timeout) {
  absl::MutexLock lock(&mu_);
  auto ready = [&]() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) { return done(updates_); };
  return mu_.AwaitWithTimeout(absl::Condition(&ready), timeout);
}

bool UpdateReader::WaitForSeq(uint64_t seq, absl::Duration timeout) {
  return WaitUntil(
      [seq](const std::vector<v1::TableUpdate>& updates) {
        return !updates.empty() && updates.back().seq() >= seq;
      },
      timeout);
}

std::optional<grpc::Status> UpdateReader::WaitFinished(absl::Duration timeout) {
  absl::MutexLock lock(&mu_);
  auto finished = [this]() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) { return status_.has_value(); };
  mu_.AwaitWithTimeout(absl::Condition(&finished), timeout);
  return status_;
}

std::vector<v1::TableUpdate> UpdateReader::updates() {
  absl::MutexLock lock(&mu_);
  return updates_;
}

v1::Move ChooseMove(const v1::View& view) {
  if (view.has_okey51() || view.has_okey101()) {
    // Draw, then throw away the highest tile of the sorted hand.
    const bool okey51 = view.has_okey51();
    const v1::OkeyLayingView& okey = okey51 ? view.okey51() : view.okey101();
    v1::Move move;
    v1::OkeyLayingMove* laying = okey51 ? move.mutable_okey51() : move.mutable_okey101();
    if (!okey.drawn()) {
      laying->mutable_draw();
    } else {
      laying->mutable_discard()->set_tile(okey.my_hand(okey.my_hand_size() - 1));
    }
    return move;
  }
  if (view.liars_dice().bids_size() > 0) return ChallengeMove();
  return BidMove(1, 2);
}

std::string CheckStream(const std::vector<v1::TableUpdate>& updates, int seat,
                        std::optional<uint64_t> after_seq) {
  if (updates.empty()) return "no update";
  uint64_t expected = 0;
  size_t index = 0;
  if (after_seq.has_value() && !updates[0].has_snapshot()) {
    expected = *after_seq + 1;
  } else {
    if (!updates[0].has_snapshot()) return "the first update is no snapshot";
    if (updates[0].snapshot().view().seat() != seat) return "the snapshot is another seat's view";
    expected = updates[0].seq() + 1;
    index = 1;
  }
  for (; index < updates.size(); ++index) {
    const v1::TableUpdate& update = updates[index];
    if (update.has_snapshot()) return absl::StrCat("a second snapshot at ", update.seq());
    if (update.seq() != expected) {
      return absl::StrCat("seq ", update.seq(), " where ", expected, " was due");
    }
    ++expected;
    for (const v1::Event& event : update.move().events()) {
      if (event.has_private_to() && event.private_to() != seat) {
        return absl::StrCat("seq ", update.seq(), " carries an event private to seat ",
                            event.private_to());
      }
    }
  }
  return "";
}

bool EndsWithResult(const std::vector<v1::TableUpdate>& updates) {
  if (updates.empty()) return false;
  const v1::TableUpdate& last = updates.back();
  return (last.has_move() && last.move().has_result()) ||
         (last.has_snapshot() && last.snapshot().over());
}

void TableServiceTest::SetUp() {
  PgTest::SetUp();
  server_ = std::make_unique<TableServer>(url(), kHostId);
}

void TableServiceTest::TearDown() {
  relay_.reset();
  server_.reset();
  {
    absl::MutexLock lock(&rating_mu_);
    rating_.reset();
  }
  outbox_.reset();
  PgTest::TearDown();
}

grpc::Status TableServiceTest::Create(const v1::CreateTableRequest& request,
                                      v1::CreateTableResponse* response, const std::string& role) {
  auto context = kahve::testing::ContextFor(kMatchmaker, role);
  return stub().CreateTable(context.get(), request, response);
}

std::vector<Player> TableServiceTest::CreateTable(const std::vector<std::string>& seats,
                                                  const v1::TableOptions& options,
                                                  std::string* table_id,
                                                  std::optional<uint64_t> seed,
                                                  const v1::GameSettings* settings) {
  static int tables = 0;
  v1::CreateTableRequest request;
  request.set_match_id(absl::StrCat("match-", ++tables));
  if (settings != nullptr) {
    *request.mutable_settings() = *settings;
  } else {
    request.mutable_settings()->mutable_liars_dice()->set_players(static_cast<int>(seats.size()));
  }
  *request.mutable_options() = options;
  for (const std::string& seat : seats) {
    if (absl::StartsWith(seat, "bot:")) {
      request.add_seats()->set_bot_kind(seat.substr(4));
    } else {
      request.add_seats()->set_player_id(seat);
    }
  }
  if (seed.has_value()) request.set_seed(*seed);
  v1::CreateTableResponse response;
  // A seed needs the admin role.
  const grpc::Status status =
      Create(request, &response, seed.has_value() ? common::kRoleAdmin : common::kRoleService);
  EXPECT_TRUE(status.ok()) << status.error_message();
  *table_id = response.table_id();
  std::vector<Player> players;
  for (const auto& grant : response.seats()) {
    if (grant.player_id().empty()) continue;
    players.push_back(Player{grant.player_id(), grant.seat(), grant.seat_token()});
  }
  return players;
}

absl::StatusOr<v1::GetViewResponse> TableServiceTest::View(const std::string& table_id,
                                                           const std::string& player,
                                                           const std::string& token) {
  auto context = kahve::testing::ContextFor(player);
  v1::GetViewRequest request;
  request.set_table_id(table_id);
  request.set_seat_token(token);
  v1::GetViewResponse response;
  const grpc::Status status = stub().GetView(context.get(), request, &response);
  if (!status.ok()) {
    return absl::Status(static_cast<absl::StatusCode>(status.error_code()), status.error_message());
  }
  return response;
}

grpc::Status TableServiceTest::Play(const std::string& table_id, const Player& player,
                                    const v1::Move& move, v1::PlayResponse* response,
                                    const std::string& request_id, bool dry_run) {
  auto context = kahve::testing::ContextFor(player.id);
  v1::PlayRequest request;
  request.set_table_id(table_id);
  request.set_seat_token(player.token);
  *request.mutable_move() = move;
  request.set_request_id(request_id);
  request.set_dry_run(dry_run);
  return stub().Play(context.get(), request, response);
}

std::unique_ptr<UpdateReader> TableServiceTest::Connect(const std::string& table_id,
                                                        const std::string& player,
                                                        const std::string& token,
                                                        std::optional<uint64_t> after_seq) {
  v1::ConnectRequest request;
  request.set_table_id(table_id);
  request.set_seat_token(token);
  if (after_seq.has_value()) request.set_after_seq(*after_seq);
  return std::make_unique<UpdateReader>(stub(), player, request);
}

int TableServiceTest::PlayToTheEnd(const std::string& table_id, const std::vector<Player>& players,
                                   int max_moves, const std::function<bool()>& stop) {
  int moves = 0;
  const absl::Time deadline = absl::Now() + absl::Seconds(60);
  while (absl::Now() < deadline && (max_moves < 0 || moves < max_moves)) {
    if (stop && stop()) return moves;
    auto spectator = View(table_id, players[0].id, "");
    if (!spectator.ok()) {
      ADD_FAILURE() << spectator.status();
      return moves;
    }
    if (spectator->view().over()) return moves;
    const Player* mover = nullptr;
    for (const Player& player : players) {
      if (spectator->view().to_act_size() > 0 && player.seat == spectator->view().to_act(0)) {
        mover = &player;
      }
    }
    if (mover == nullptr) {  // a bot's turn: it moves on the host's clock
      absl::SleepFor(absl::Milliseconds(5));
      continue;
    }
    auto own = View(table_id, mover->id, mover->token);
    if (!own.ok()) {
      ADD_FAILURE() << own.status();
      return moves;
    }
    v1::PlayResponse response;
    const grpc::Status status = Play(table_id, *mover, ChooseMove(own->view()), &response);
    if (status.ok()) {
      ++moves;
    } else if (status.error_code() != grpc::StatusCode::FAILED_PRECONDITION) {
      // A bot may have moved for the seat meanwhile (NOT_YOUR_TURN); anything else is wrong.
      ADD_FAILURE() << status.error_code() << " " << status.error_message();
      return moves;
    }
  }
  return moves;
}

int64_t TableServiceTest::Count(const std::string& sql) {
  pqxx::connection connection(url());
  pqxx::nontransaction tx(connection);
  return tx.exec(sql)[0][0].as<int64_t>();
}

void TableServiceTest::StartRelay() {
  outbox_ = std::make_unique<Outbox>(server_->pool(), server_->metrics().registry(),
                                     OutboxSettings{.initial_backoff = absl::Milliseconds(100),
                                                    .max_backoff = absl::Milliseconds(200)});
  relay_ = std::make_unique<OutboxRelay>(
      *outbox_,
      [this](const std::string& match_id, const std::string& payload) {
        absl::MutexLock lock(&rating_mu_);
        if (rating_ == nullptr) return absl::UnavailableError("rating service down");
        v1::RecordMatchRequest request;
        if (!request.ParseFromString(payload)) return absl::DataLossError("payload unreadable");
        auto context = kahve::testing::ContextFor("kahve-table", common::kRoleService);
        v1::RecordMatchResponse response;
        const grpc::Status status = rating_->stub().RecordMatch(context.get(), request, &response);
        if (status.ok()) return absl::OkStatus();
        return absl::UnavailableError(
            absl::StrCat("RecordMatch of ", match_id, ": ", status.error_message()));
      },
      absl::Milliseconds(50));
}

void TwoHostTableTest::SetUp() {
  TableServiceTest::SetUp();
  host_b_ = std::make_unique<TableServer>(url(), "host-b");
}

void TwoHostTableTest::TearDown() {
  via_ = nullptr;
  host_b_.reset();
  TableServiceTest::TearDown();
}

}  // namespace kahve::table

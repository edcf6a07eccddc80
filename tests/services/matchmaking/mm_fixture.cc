#include "tests/services/matchmaking/mm_fixture.h"

#include <chrono>
#include <utility>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "pqxx/pqxx"
#include "tests/services/service_testing.h"

namespace kahve::matchmaking {
namespace {

// The role matchmaking connects as in these tests: it may use matchmaking's own tables and nothing
// of the table or rating service's, so a query that strays into their schema fails the test
// (services meet only over gRPC).
constexpr char kMatchmakingRole[] = "kahve_matchmaking_only";

// `url` (the fixture's, as the server's superuser) as kMatchmakingRole.
std::string AsMatchmakingRole(const std::string& url) {
  const std::string superuser = "://postgres@";
  const size_t at = url.find(superuser);
  EXPECT_NE(at, std::string::npos) << "unexpected test database URL " << url;
  if (at == std::string::npos) return url;
  return absl::StrCat(url.substr(0, at), "://", kMatchmakingRole, "@",
                      url.substr(at + superuser.size()));
}

// Creates kMatchmakingRole if no other test did (roles are the server's, shared by every test
// database) and grants it matchmaking's tables in this database.
void GrantMatchmakingTables(const std::string& url) {
  pqxx::connection connection(url);
  pqxx::nontransaction tx(connection);
  tx.exec0(absl::StrCat("DO $$ BEGIN CREATE ROLE ", kMatchmakingRole,
                        " LOGIN; EXCEPTION WHEN duplicate_object OR unique_violation THEN NULL; "
                        "END $$"));
  tx.exec0(absl::StrCat(
      "DO $$ DECLARE t text; BEGIN FOR t IN SELECT tablename FROM pg_tables"
      "  WHERE schemaname = 'public' AND tablename LIKE 'mm\\_%' LOOP"
      "  EXECUTE format('GRANT SELECT, INSERT, UPDATE, DELETE ON %I TO ",
      kMatchmakingRole, "', t); END LOOP; END $$"));
}

}  // namespace

MatchmakerServer::MatchmakerServer(const std::string& url, const MatchmakerSettings& settings,
                                   PeerPorts peers, bool start_passes,
                                   const MatchmakerBudgets& budgets,
                                   const std::string& table_client_endpoint) {
  MatchmakingConfig config;
  config.authenticator = kahve::testing::TestAuthenticator();
  config.pool = {.url = AsMatchmakingRole(url), .size = 4, .name = "matchmaking"};
  config.server.host = "127.0.0.1";
  config.server.metrics_host = "127.0.0.1";
  config.server.drain_period = absl::ZeroDuration();
  config.server.shutdown_deadline = absl::Seconds(5);
  // The bearer without its "Bearer " prefix, as main mints it.
  config.bearer = kahve::testing::Bearer("kahve-matchmaking", common::kRoleService).substr(7);
  config.rating_target = absl::StrCat("127.0.0.1:", peers.rating);
  config.table_target = absl::StrCat("127.0.0.1:", peers.table);
  config.table_client_endpoint = table_client_endpoint;
  config.matchmaker = settings;
  config.watch_poll = absl::Milliseconds(100);
  config.workers = 2;
  config.queues = budgets.queues;
  config.streams = budgets.streams;
  config.run_passes = start_passes;
  process_ = std::make_unique<MatchmakingProcess>(std::move(config));
  const absl::Status started = process_->Start();
  EXPECT_TRUE(started.ok()) << started;
  stub_ = v1::MatchmakingService::NewStub(kahve::testing::LocalChannel(process_->port()));
}

void MatchmakingTest::SetUp() {
  TableServiceTest::SetUp();
  GrantMatchmakingTables(url());
  {
    absl::MutexLock lock(&rating_mu_);
    rating_ = std::make_unique<rating::RatingServer>(url(), rating::kProvisionalGames);
  }
  RegisterHost(kHostId, absl::StrCat("127.0.0.1:", server_->port()), 0);
  heartbeats_ = std::thread([this] { Heartbeats(); });
}

void MatchmakingTest::TearDown() {
  mm_.reset();
  stop_heartbeats_.Notify();
  if (heartbeats_.joinable()) heartbeats_.join();
  TableServiceTest::TearDown();
}

MatchmakerSettings MatchmakingTest::Settings() {
  MatchmakerSettings settings;
  settings.pass_interval = absl::Milliseconds(50);
  settings.shrink_after = absl::Hours(1);
  settings.longest_wait = absl::Hours(1);
  settings.bot_fill = false;
  settings.window = SkillWindow{.base = 3, .per_second = 0, .max = 3, .provisional_extra = 10};
  return settings;
}

void MatchmakingTest::StartMatchmaker(const MatchmakerSettings& settings,
                                      const MatchmakerBudgets& budgets,
                                      const std::string& table_client_endpoint) {
  mm_ = std::make_unique<MatchmakerServer>(url(), settings, Peers(), /*start_passes=*/true,
                                           budgets, table_client_endpoint);
}

PeerPorts MatchmakingTest::Peers() { return {.rating = RatingPort(), .table = server_->port()}; }

void MatchmakingTest::StartOnSimulatedTime(MatchmakerSettings settings) {
  settings.clock = &simulated_clock_;
  StartMatchmaker(settings);
}

void MatchmakingTest::AdvanceAndSettle(absl::Duration by) {
  constexpr int kSleepers = 2;
  ASSERT_TRUE(simulated_clock_.AwaitWaiters(kSleepers));
  simulated_clock_.Advance(by);
  ASSERT_TRUE(simulated_clock_.AwaitWaiters(kSleepers));
}

int MatchmakingTest::RatingPort() {
  absl::MutexLock lock(&rating_mu_);
  return rating_->port();
}

void MatchmakingTest::RegisterHost(const std::string& host_id, const std::string& endpoint,
                                   int live_tables) {
  {
    absl::MutexLock lock(&hosts_mu_);
    hosts_[host_id] = {endpoint, live_tables};
  }
  // At once, not at the next beat: a pass that starts right after must already see the host.
  pqxx::connection connection(url());
  WriteHeartbeats(connection, {{host_id, {endpoint, live_tables}}});
}

void MatchmakingTest::UnregisterHost(const std::string& host_id) {
  absl::MutexLock lock(&hosts_mu_);
  hosts_.erase(host_id);
}

void MatchmakingTest::WriteHeartbeats(
    pqxx::connection& connection, const std::map<std::string, std::pair<std::string, int>>& hosts) {
  pqxx::work tx(connection);
  for (const auto& [host_id, host] : hosts) {
    // Stamped with the database's clock, as the table service's own heartbeat is.
    tx.exec_params0(
        "INSERT INTO table_hosts (host_id, endpoint, live_tables, heartbeat_us, draining)"
        " VALUES ($1, $2, $3, (extract(epoch FROM clock_timestamp()) * 1e6)::bigint, false)"
        " ON CONFLICT (host_id) DO UPDATE SET endpoint = excluded.endpoint,"
        "  live_tables = excluded.live_tables, heartbeat_us = excluded.heartbeat_us",
        host_id, host.first, host.second);
  }
  tx.commit();
}

void MatchmakingTest::Heartbeats() {
  pqxx::connection connection(url());
  do {
    std::map<std::string, std::pair<std::string, int>> hosts;
    {
      absl::MutexLock lock(&hosts_mu_);
      hosts = hosts_;
    }
    WriteHeartbeats(connection, hosts);
  } while (!stop_heartbeats_.WaitForNotificationWithTimeout(absl::Milliseconds(200)));
}

void MatchmakingTest::SetRating(const std::string& player, double display) {
  pqxx::connection connection(url());
  pqxx::work tx(connection);
  // sigma 2 and 20 games: an established player; mu follows from display = mu - 3 sigma.
  tx.exec_params0(
      "INSERT INTO ratings (player_id, ruleset, mode, mu, sigma, display, games, last_played_us)"
      " VALUES ($1, 'liars_dice', 1, $2, 2, $3, 20, 1700000000000000)",
      player, display + 6, display);
  tx.commit();
}

v1::EnqueueRequest MatchmakingTest::LiarsDice(int players) {
  v1::EnqueueRequest request;
  request.mutable_settings()->mutable_liars_dice()->set_players(players);
  return request;
}

v1::EnqueueRequest MatchmakingTest::Okey51(bool teams) {
  v1::EnqueueRequest request;
  request.mutable_settings()->mutable_okey51();
  request.set_teams(teams);
  return request;
}

v1::EnqueueRequest MatchmakingTest::Okey101(bool teams) {
  v1::EnqueueRequest request;
  // Three deals, the fewest: the test plays the game out over gRPC.
  request.mutable_settings()->mutable_okey101()->set_deals(3);
  request.set_teams(teams);
  return request;
}

grpc::Status MatchmakingTest::Enqueue(const std::string& player, const v1::EnqueueRequest& request,
                                      std::string* ticket_id) {
  auto context = kahve::testing::ContextFor(player);
  v1::EnqueueResponse response;
  const grpc::Status status = mm_->stub().Enqueue(context.get(), request, &response);
  if (ticket_id != nullptr) *ticket_id = response.ticket_id();
  return status;
}

grpc::Status MatchmakingTest::Cancel(const std::string& player, const std::string& ticket_id) {
  auto context = kahve::testing::ContextFor(player);
  v1::CancelTicketRequest request;
  request.set_ticket_id(ticket_id);
  v1::CancelTicketResponse response;
  return mm_->stub().CancelTicket(context.get(), request, &response);
}

grpc::Status MatchmakingTest::CreateParty(const std::string& player, v1::Party* party) {
  auto context = kahve::testing::ContextFor(player);
  return mm_->stub().CreateParty(context.get(), {}, party);
}

grpc::Status MatchmakingTest::JoinParty(const std::string& player, const std::string& code,
                                        v1::Party* party) {
  auto context = kahve::testing::ContextFor(player);
  v1::JoinPartyRequest request;
  request.set_invite_code(code);
  v1::Party joined;
  const grpc::Status status = mm_->stub().JoinParty(context.get(), request, &joined);
  if (party != nullptr) *party = joined;
  return status;
}

MatchmakingTest::Watched MatchmakingTest::WatchUntil(const std::string& player,
                                                     const std::string& ticket_id,
                                                     v1::TicketUpdate::State state,
                                                     absl::Duration timeout) {
  grpc::ClientContext context;
  context.AddMetadata("authorization", kahve::testing::Bearer(player));
  context.set_deadline(std::chrono::system_clock::now() + absl::ToChronoMilliseconds(timeout));
  v1::WatchTicketRequest request;
  request.set_ticket_id(ticket_id);
  auto reader = mm_->stub().WatchTicket(&context, request);
  Watched watched;
  v1::TicketUpdate update;
  while (reader->Read(&update)) {
    watched.updates.push_back(update);
    if (update.state() == state) {
      // A final state ends the stream from the server's side; a QUEUED one is left by the client.
      if (state == v1::TicketUpdate::QUEUED) context.TryCancel();
      break;
    }
  }
  while (reader->Read(&update)) watched.updates.push_back(update);
  watched.status = reader->Finish();
  return watched;
}

v1::Assignment MatchmakingTest::AwaitAssignment(const std::string& player,
                                                const std::string& ticket_id) {
  const Watched watched = WatchUntil(player, ticket_id, v1::TicketUpdate::MATCHED);
  if (watched.updates.empty() || watched.updates.back().state() != v1::TicketUpdate::MATCHED) {
    ADD_FAILURE() << player << " not matched: " << watched.status.error_message() << " after "
                  << watched.updates.size() << " updates";
    return {};
  }
  return watched.updates.back().assignment();
}

int64_t MatchmakingTest::TicketsIn(const std::string& state) {
  return Count(absl::StrCat("SELECT count(*) FROM mm_tickets WHERE state = '", state, "'"));
}

double MatchmakingTest::Metric(const std::string& family,
                               const std::map<std::string, std::string>& labels) {
  return kahve::testing::MetricSum(mm_->metrics().registry(), family, labels);
}

double MatchmakingTest::AwaitMetric(const std::string& family,
                                    const std::map<std::string, std::string>& labels, double value,
                                    absl::Duration timeout) {
  const absl::Time deadline = absl::Now() + timeout;
  double now = Metric(family, labels);
  while (now != value && absl::Now() < deadline) {
    absl::SleepFor(absl::Milliseconds(20));
    now = Metric(family, labels);
  }
  return now;
}

}  // namespace kahve::matchmaking

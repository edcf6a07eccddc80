// Hostile input to the matchmaking service (issue 17, finding 2 and the stream budgets): NUL bytes
// and megabyte ids, a ticket the database refuses inside a group commit, more streams than a
// player or a connection may hold, streams cancelled as soon as opened. Each hostile call gets its
// own precise answer, and other players' calls go on as if nothing happened.

#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/synchronization/notification.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "pqxx/pqxx"
#include "services/common/client_address.h"
#include "services/common/status.h"
#include "services/matchmaking/queue_spec.h"
#include "tests/services/matchmaking/mm_fixture.h"
#include "tests/services/service_testing.h"

namespace kahve::matchmaking {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

// A WatchTicket stream read on a thread of its own.
class BackgroundWatch {
 public:
  // `forwarded_for`: an x-forwarded-for, as a proxy in front would send it (none when empty).
  BackgroundWatch(v1::MatchmakingService::Stub& stub, const std::string& player,
                  const std::string& ticket_id, const std::string& forwarded_for = "") {
    context_.AddMetadata("authorization", kahve::testing::Bearer(player));
    if (!forwarded_for.empty()) context_.AddMetadata("x-forwarded-for", forwarded_for);
    context_.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(60));
    v1::WatchTicketRequest request;
    request.set_ticket_id(ticket_id);
    reader_ = stub.WatchTicket(&context_, request);
    thread_ = std::thread([this] {
      v1::TicketUpdate update;
      while (reader_->Read(&update)) {
        absl::MutexLock lock(&mu_);
        states_.push_back(update.state());
      }
      const grpc::Status status = reader_->Finish();
      absl::MutexLock lock(&mu_);
      status_ = status;
    });
  }
  ~BackgroundWatch() {
    context_.TryCancel();
    thread_.join();
  }

  // Whether an update in `state` arrives within `timeout`.
  bool Sees(v1::TicketUpdate::State state, absl::Duration timeout = absl::Seconds(10)) {
    absl::MutexLock lock(&mu_);
    auto seen = [&]() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
      return std::find(states_.begin(), states_.end(), state) != states_.end();
    };
    auto done = [&]() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) { return seen() || status_.has_value(); };
    mu_.AwaitWithTimeout(absl::Condition(&done), timeout);
    return seen();
  }
  // The stream's status once the server ended it; nullopt when still open after `timeout`.
  std::optional<grpc::Status> Ended(absl::Duration timeout = absl::Seconds(10)) {
    absl::MutexLock lock(&mu_);
    auto ended = [&]() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) { return status_.has_value(); };
    mu_.AwaitWithTimeout(absl::Condition(&ended), timeout);
    return status_;
  }

 private:
  grpc::ClientContext context_;
  std::unique_ptr<grpc::ClientReader<v1::TicketUpdate>> reader_;
  std::thread thread_;
  absl::Mutex mu_;
  std::vector<v1::TicketUpdate::State> states_ ABSL_GUARDED_BY(mu_);
  std::optional<grpc::Status> status_ ABSL_GUARDED_BY(mu_);
};

class MatchmakingUntrustedTest : public MatchmakingTest {
 protected:
  // No passes after the first: tickets stay waiting, unmatched, while the calls are checked.
  MatchmakerSettings Quiet() {
    MatchmakerSettings settings = Settings();
    settings.pass_interval = absl::Hours(1);
    return settings;
  }

  void Exec(const std::string& sql) {
    pqxx::connection connection(url());
    pqxx::work tx(connection);
    tx.exec0(sql);
    tx.commit();
  }

  grpc::Status EnqueueWithId(const std::string& player, const std::string& request_id) {
    v1::EnqueueRequest request = LiarsDice(4);
    request.set_request_id(request_id);
    return Enqueue(player, request, nullptr);
  }

  // Runs every call on a thread of its own, released together; their statuses in order.
  static std::vector<grpc::Status> AllAtOnce(
      const std::vector<std::function<grpc::Status()>>& calls) {
    std::vector<grpc::Status> statuses(calls.size());
    absl::Notification go;
    std::vector<std::thread> threads;
    for (size_t i = 0; i < calls.size(); ++i) {
      threads.emplace_back([&, i] {
        go.WaitForNotification();
        statuses[i] = calls[i]();
      });
    }
    go.Notify();
    for (std::thread& thread : threads) thread.join();
    return statuses;
  }

  std::string Metrics() {
    auto metrics = kahve::testing::HttpGet(mm().metrics_port(), "/metrics");
    EXPECT_TRUE(metrics.ok()) << metrics.status();
    return metrics.ok() ? *metrics : "";
  }
};

// Finding 2: WatchTicket("\x00") (and its re-read) ended every other player's watch stream.
TEST_F(MatchmakingUntrustedTest, NulOrHugeTicketIdsLeaveOtherWatchersAlone) {
  StartMatchmaker(Quiet());
  std::string ana, bora;
  ASSERT_TRUE(Enqueue("ana", LiarsDice(4), &ana).ok());
  ASSERT_TRUE(Enqueue("bora", LiarsDice(4), &bora).ok());
  BackgroundWatch ana_watch(mm().stub(), "ana", ana);
  BackgroundWatch bora_watch(mm().stub(), "bora", bora);
  ASSERT_TRUE(ana_watch.Sees(v1::TicketUpdate::QUEUED));
  ASSERT_TRUE(bora_watch.Sees(v1::TicketUpdate::QUEUED));

  const std::string huge(3 << 20, 'a');
  for (const std::string& id :
       {std::string(1, '\0'), std::string("tk-\0x", 5), huge, absl::StrCat(ana, ",", bora)}) {
    const Watched watched = WatchUntil("mallory", id, v1::TicketUpdate::QUEUED);
    EXPECT_EQ(watched.status.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
    EXPECT_THAT(watched.status.error_message(), HasSubstr("ticket_id"));
    EXPECT_LT(watched.status.error_message().size(), 200u) << "the id is not echoed";
  }
  // Both streams still follow their tickets: each ends with its own ticket's final state.
  ASSERT_TRUE(Cancel("ana", ana).ok());
  EXPECT_TRUE(ana_watch.Sees(v1::TicketUpdate::CANCELLED));
  EXPECT_EQ(ana_watch.Ended()->error_code(), grpc::StatusCode::OK);
  EXPECT_FALSE(bora_watch.Ended(absl::Milliseconds(300)).has_value()) << "bora's stream ended";
  ASSERT_TRUE(Cancel("bora", bora).ok());
  EXPECT_TRUE(bora_watch.Sees(v1::TicketUpdate::CANCELLED));
}

// The store itself: ids travel as one text[] parameter, not joined into one text, so no id (a
// NUL, a comma) changes what the others match.
TEST_F(MatchmakingUntrustedTest, GetTicketsTakesItsIdsAsAnArray) {
  StartMatchmaker(Quiet());
  std::string ana, bora;
  ASSERT_TRUE(Enqueue("ana", LiarsDice(4), &ana).ok());
  ASSERT_TRUE(Enqueue("bora", LiarsDice(4), &bora).ok());
  auto tickets = mm().store().tickets.GetTickets(
      {std::string(1, '\0'), ana, absl::StrCat(ana, ",", bora), "tk-\"quoted\\"});
  ASSERT_TRUE(tickets.ok()) << tickets.status();
  ASSERT_EQ(tickets->size(), 1u);
  EXPECT_EQ(tickets->front().ticket_id, ana);
  EXPECT_EQ(mm().store().tickets.GetTicket(std::string("\0", 1)).status().code(),
            absl::StatusCode::kNotFound);
}

// Finding 2: an Enqueue with request_id "\x00" failed the other Enqueues of its group commit.
TEST_F(MatchmakingUntrustedTest, ANulRequestIdIsRefusedWhileHonestEnqueuesSucceed) {
  StartMatchmaker(Quiet());
  std::vector<std::function<grpc::Status()>> calls;
  calls.push_back([&] { return EnqueueWithId("mallory", std::string(1, '\0')); });
  calls.push_back([&] { return EnqueueWithId("mallory2", std::string(3 << 20, 'r')); });
  for (int i = 0; i < 12; ++i) {
    calls.push_back([&, i] { return EnqueueWithId(absl::StrCat("p", i), absl::StrCat("r-", i)); });
  }
  const std::vector<grpc::Status> statuses = AllAtOnce(calls);
  EXPECT_EQ(statuses[0].error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_THAT(statuses[0].error_message(), HasSubstr("request_id"));
  EXPECT_EQ(statuses[1].error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_LT(statuses[1].error_message().size(), 200u);
  for (size_t i = 2; i < statuses.size(); ++i) {
    EXPECT_TRUE(statuses[i].ok()) << i << ": " << statuses[i].error_message();
  }
  EXPECT_EQ(TicketsIn(kWaiting), 12);
}

// Group commit: a ticket the database refuses (here a CHECK this test adds) used to fail its
// whole batch, every caller getting the database's words. Now it fails alone.
TEST_F(MatchmakingUntrustedTest, ATicketTheDatabaseRefusesFailsAloneInItsBatch) {
  StartMatchmaker(Quiet());
  Exec("ALTER TABLE mm_tickets ADD CONSTRAINT refuses_poison CHECK (request_id <> 'poison')");
  v1::GameSettings settings;
  settings.mutable_liars_dice();
  const std::string key = QueueSpecFor(settings, false)->key;
  auto ticket = [&](const std::string& player, const std::string& request_id) {
    return NewTicket{.queue_key = key,
                     .owner = player,
                     .request_id = request_id,
                     .settings = settings,
                     .players = {player}};
  };
  const std::vector<absl::StatusOr<std::string>> answers = mm().store().tickets.CreateTickets(
      {ticket("ana", "r-ana"), ticket("bora", "poison"), ticket("cem", "r-cem"),
       ticket("deniz", std::string("r\0x", 3)), ticket("emre", "")},
      absl::Now());
  ASSERT_EQ(answers.size(), 5u);
  EXPECT_TRUE(answers[0].ok()) << answers[0].status();
  EXPECT_TRUE(answers[2].ok()) << answers[2].status();
  EXPECT_TRUE(answers[4].ok()) << answers[4].status();
  ASSERT_FALSE(answers[1].ok());
  EXPECT_THAT(std::string(answers[1].status().message()), Not(HasSubstr("r-ana")));
  EXPECT_THAT(std::string(answers[1].status().message()), Not(HasSubstr("r-cem")));
  const grpc::Status to_client = common::ToGrpcStatus(answers[1].status());
  EXPECT_EQ(to_client.error_code(), grpc::StatusCode::INTERNAL);
  for (const char* secret : {"poison", "r-ana", "mm_tickets", "INSERT", "constraint"}) {
    EXPECT_THAT(to_client.error_message(), Not(HasSubstr(secret)));
  }
  EXPECT_EQ(answers[3].status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(Count("SELECT count(*) FROM mm_tickets"), 3);
  EXPECT_EQ(Count("SELECT count(*) FROM mm_ticket_players WHERE active AND player_id IN "
                  "('ana', 'cem', 'emre')"),
            3);
}

// The same over gRPC: Enqueues arriving together share batches; the poisoned one gets a generic
// INTERNAL, the others their tickets.
TEST_F(MatchmakingUntrustedTest, APoisonedEnqueueFailsAloneAndSaysNothingOfOthers) {
  StartMatchmaker(Quiet());
  Exec("ALTER TABLE mm_tickets ADD CONSTRAINT refuses_poison CHECK (request_id <> 'poison')");
  std::vector<std::function<grpc::Status()>> calls;
  calls.push_back([&] { return EnqueueWithId("mallory", "poison"); });
  for (int i = 0; i < 16; ++i) {
    calls.push_back([&, i] { return EnqueueWithId(absl::StrCat("p", i), absl::StrCat("r-", i)); });
  }
  const std::vector<grpc::Status> statuses = AllAtOnce(calls);
  EXPECT_EQ(statuses[0].error_code(), grpc::StatusCode::INTERNAL);
  for (const char* secret : {"r-1", "mm_tickets", "INSERT", "constraint"}) {
    EXPECT_THAT(statuses[0].error_message(), Not(HasSubstr(secret)));
  }
  for (size_t i = 1; i < statuses.size(); ++i) {
    EXPECT_TRUE(statuses[i].ok()) << i << ": " << statuses[i].error_message();
  }
  EXPECT_EQ(TicketsIn(kWaiting), 16);
}

TEST_F(MatchmakingUntrustedTest, StreamsAreBudgetedPerIdentityAndPerConnection) {
  MatchmakerBudgets budgets;
  budgets.streams = {.per_identity = 2, .per_connection = 4};
  StartMatchmaker(Quiet(), budgets);
  std::string ana, bora, cem;
  ASSERT_TRUE(Enqueue("ana", LiarsDice(4), &ana).ok());
  ASSERT_TRUE(Enqueue("bora", LiarsDice(4), &bora).ok());
  ASSERT_TRUE(Enqueue("cem", LiarsDice(4), &cem).ok());

  auto ana1 = std::make_unique<BackgroundWatch>(mm().stub(), "ana", ana);
  BackgroundWatch ana2(mm().stub(), "ana", ana);
  ASSERT_TRUE(ana1->Sees(v1::TicketUpdate::QUEUED));
  ASSERT_TRUE(ana2.Sees(v1::TicketUpdate::QUEUED));
  BackgroundWatch ana3(mm().stub(), "ana", ana);
  const std::optional<grpc::Status> refused = ana3.Ended();
  ASSERT_TRUE(refused.has_value());
  EXPECT_EQ(refused->error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED);
  EXPECT_THAT(refused->error_message(), HasSubstr("max_streams_per_identity (2)"));

  // Others are not ana: bora's streams fill the connection, and cem's next one on it is refused.
  BackgroundWatch bora1(mm().stub(), "bora", bora);
  BackgroundWatch bora2(mm().stub(), "bora", bora);
  ASSERT_TRUE(bora1.Sees(v1::TicketUpdate::QUEUED));
  ASSERT_TRUE(bora2.Sees(v1::TicketUpdate::QUEUED));
  BackgroundWatch cem1(mm().stub(), "cem", cem);
  ASSERT_TRUE(cem1.Ended().has_value());
  EXPECT_EQ(cem1.Ended()->error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED);
  EXPECT_THAT(cem1.Ended()->error_message(), HasSubstr("max_streams_per_connection (4)"));
  // On a connection of its own, cem watches.
  grpc::ChannelArguments own_connection;
  own_connection.SetInt(GRPC_ARG_USE_LOCAL_SUBCHANNEL_POOL, 1);
  auto other_stub = v1::MatchmakingService::NewStub(grpc::CreateCustomChannel(
      absl::StrCat("127.0.0.1:", mm().port()), grpc::InsecureChannelCredentials(), own_connection));
  BackgroundWatch cem2(*other_stub, "cem", cem);
  EXPECT_TRUE(cem2.Sees(v1::TicketUpdate::QUEUED));

  const std::string metrics = Metrics();
  EXPECT_THAT(metrics,
              HasSubstr("kahve_budget_refusals_total{budget=\"max_streams_per_identity\"} 1"));
  EXPECT_THAT(metrics,
              HasSubstr("kahve_budget_refusals_total{budget=\"max_streams_per_connection\"} 1"));

  // A closed stream gives its place back (once its call is done).
  ana1.reset();
  bool reopened = false;
  for (int attempt = 0; attempt < 100 && !reopened; ++attempt) {
    BackgroundWatch again(*other_stub, "ana", ana);
    reopened = again.Sees(v1::TicketUpdate::QUEUED);
    if (!reopened) absl::SleepFor(absl::Milliseconds(50));
  }
  EXPECT_TRUE(reopened);
}

// Issue 34: behind a proxy every player's streams share the proxy's connection. From a trusted
// proxy the connection budget counts each forwarded client address instead; entries a client
// writes ahead of the proxy's own change nothing.
TEST_F(MatchmakingUntrustedTest, BehindATrustedProxyStreamsAreBudgetedPerForwardedClient) {
  MatchmakerBudgets budgets;
  budgets.streams = {.per_identity = 2, .per_connection = 4};
  std::string error;
  ASSERT_TRUE(
      common::TrustedProxies::Parse("127.0.0.0/8", &budgets.streams.trusted_proxies, &error))
      << error;
  StartMatchmaker(Quiet(), budgets);
  std::map<std::string, std::string> tickets;
  for (const char* player : {"ana", "bora", "cem"}) {
    ASSERT_TRUE(Enqueue(player, LiarsDice(4), &tickets[player]).ok());
  }
  for (const char* player : {"dan", "eve"}) {
    ASSERT_TRUE(Enqueue(player, LiarsDice(6), &tickets[player]).ok());
  }
  // Six streams on one connection, more than its budget of four: three clients behind the proxy.
  std::vector<std::unique_ptr<BackgroundWatch>> open;
  const std::vector<std::pair<std::string, std::string>> clients = {
      {"ana", "198.51.100.1"}, {"bora", "198.51.100.2"}, {"cem", "198.51.100.3"}};
  for (const auto& [player, address] : clients) {
    for (int i = 0; i < 2; ++i) {
      open.push_back(std::make_unique<BackgroundWatch>(mm().stub(), player, tickets[player],
                                                       address + ", 127.0.0.9"));
      ASSERT_TRUE(open.back()->Sees(v1::TicketUpdate::QUEUED)) << player;
    }
  }
  // dan shares ana's address: the address's budget of four fills...
  for (int i = 0; i < 2; ++i) {
    open.push_back(
        std::make_unique<BackgroundWatch>(mm().stub(), "dan", tickets["dan"], "198.51.100.1"));
    ASSERT_TRUE(open.back()->Sees(v1::TicketUpdate::QUEUED));
  }
  // ...and eve from there is refused, however she dresses her header up.
  for (const std::string forged : {"198.51.100.1", "203.0.113.50, 198.51.100.1"}) {
    BackgroundWatch eve(mm().stub(), "eve", tickets["eve"], forged);
    const std::optional<grpc::Status> refused = eve.Ended();
    ASSERT_TRUE(refused.has_value()) << forged;
    EXPECT_EQ(refused->error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED);
    EXPECT_THAT(refused->error_message(), HasSubstr("max_streams_per_connection (4)"));
  }
  // From an address of her own, eve watches on the same connection.
  BackgroundWatch eve(mm().stub(), "eve", tickets["eve"], "198.51.100.5");
  EXPECT_TRUE(eve.Sees(v1::TicketUpdate::QUEUED));
  EXPECT_THAT(Metrics(),
              HasSubstr("kahve_budget_refusals_total{budget=\"max_streams_per_connection\"} 2"));
}

// The reactor lifetime rule under fire: streams whose deadlines pass within milliseconds, to a
// real ticket and to unknown ones, from several threads. Every one is finished and gives its
// budget back; the service goes on serving.
TEST_F(MatchmakingUntrustedTest, StreamsCancelledAsTheyOpenAreAllFinished) {
  StartMatchmaker(Quiet());
  std::string ana;
  ASSERT_TRUE(Enqueue("ana", LiarsDice(4), &ana).ok());
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < 100; ++i) {
        grpc::ClientContext context;
        context.AddMetadata("authorization", kahve::testing::Bearer(absl::StrCat("burst", t)));
        context.set_deadline(std::chrono::system_clock::now() +
                             std::chrono::microseconds(500 + 500 * (i % 5)));
        v1::WatchTicketRequest request;
        request.set_ticket_id(i % 2 == 0 ? ana : absl::StrCat("tk-unknown-", i));
        auto reader = mm().stub().WatchTicket(&context, request);
        v1::TicketUpdate update;
        while (reader->Read(&update)) {
        }
        reader->Finish();
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  const absl::Time end = absl::Now() + absl::Seconds(10);
  while (mm().watchers().streams() > 0 && absl::Now() < end) absl::SleepFor(absl::Milliseconds(20));
  EXPECT_EQ(mm().watchers().streams(), 0);
  EXPECT_THAT(Metrics(), HasSubstr("kahve_budget_in_use{budget=\"max_streams_per_identity\"} 0"));
  BackgroundWatch honest(mm().stub(), "ana", ana);
  EXPECT_TRUE(honest.Sees(v1::TicketUpdate::QUEUED));
  EXPECT_EQ(kahve::testing::HealthStatus(mm().port(), "").value_or("?"), "SERVING");
}

}  // namespace
}  // namespace kahve::matchmaking

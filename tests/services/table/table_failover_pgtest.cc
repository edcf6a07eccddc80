// Tables moving between two real kahve-table hosts (TableHost, TableService, real gRPC) over one
// PostgreSQL: a host that falls silent past its lease has its table claimed by the other, whose
// clients resume with after_seq and see no gap, while the silent host (still running: a stalled
// process, a partition) is fenced; a draining host hands its table off and the next call claims it.
// A host's silence is its heartbeat aged in the database, so nothing waits for a lease to run out.

#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "prometheus/registry.h"
#include "services/common/client_address.h"
#include "tests/services/service_testing.h"
#include "tests/services/table/table_fixture.h"

namespace kahve::table {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

double CounterOf(prometheus::Registry& registry, const std::string& name,
                 const std::string& label = "", const std::string& value = "") {
  for (const prometheus::MetricFamily& family : registry.Collect()) {
    if (family.name != name) continue;
    for (const prometheus::ClientMetric& metric : family.metric) {
      bool matches = label.empty();
      for (const prometheus::ClientMetric::Label& pair : metric.label) {
        if (pair.name == label && pair.value == value) matches = true;
      }
      if (matches) return metric.counter.value;
    }
  }
  return 0;
}

class TableFailoverTest : public TwoHostTableTest {
 protected:

  // host-a (server_) as the registry sees a live host.
  void HeartbeatHostA() {
    Count(absl::StrCat("INSERT INTO table_hosts (host_id, endpoint, live_tables, heartbeat_us) "
                       "VALUES ('host-a', '127.0.0.1:",
                       server_->port(),
                       "', 1, (extract(epoch FROM clock_timestamp()) * 1000000)::bigint) "
                       "RETURNING 1"));
  }
  // host-a's last heartbeat a minute ago: past any lease.
  void SilenceHostA() {
    Count("UPDATE table_hosts SET heartbeat_us = heartbeat_us - 60000000 "
          "WHERE host_id = 'host-a' RETURNING 1");
  }

  // The player to act and a legal move, from that player's own view (on the host via_ names).
  std::pair<Player, v1::Move> NextMove(const std::string& table_id,
                                       const std::vector<Player>& players) {
    for (const Player& player : players) {
      auto view = View(table_id, player.id, player.token);
      EXPECT_TRUE(view.ok()) << view.status();
      if (!view.ok()) break;
      if (view->view().to_act_size() > 0 && view->view().to_act(0) == player.seat) {
        return {player, ChooseMove(view->view())};
      }
    }
    ADD_FAILURE() << "nobody to act";
    return {};
  }

  uint64_t LastSeq(UpdateReader& reader) {
    const std::vector<v1::TableUpdate> updates = reader.updates();
    return updates.empty() ? 0 : updates.back().seq();
  }
};

TEST_F(TableFailoverTest, ASilentHostsTableGoesOnElsewhereWithNoGapAndTheSilentHostIsFenced) {
  HeartbeatHostA();
  std::string table_id;
  const std::vector<Player> players = CreateTable({"alice", "bob"}, {}, &table_id);
  ASSERT_EQ(players.size(), 2);
  std::unique_ptr<UpdateReader> on_a = Connect(table_id, "alice", players[0].token);
  ASSERT_EQ(PlayToTheEnd(table_id, players, 3), 3);
  ASSERT_TRUE(on_a->WaitForSeq(3));

  // While host-a is live, host-b passes calls for its table on to it (one entry address): a view,
  // a stream relayed update by update, and a move.
  via_ = host_b_.get();
  absl::StatusOr<v1::GetViewResponse> forwarded = View(table_id, "alice", players[0].token);
  ASSERT_TRUE(forwarded.ok()) << forwarded.status();
  EXPECT_EQ(forwarded->seq(), 3);
  std::unique_ptr<UpdateReader> relayed = Connect(table_id, "bob", players[1].token);
  {
    auto [mover, move] = NextMove(table_id, players);
    v1::PlayResponse played;
    const grpc::Status status = Play(table_id, mover, move, &played, "forwarded-move");
    ASSERT_TRUE(status.ok()) << status.error_message();
    EXPECT_EQ(played.seq(), 4);
  }
  ASSERT_TRUE(relayed->WaitForSeq(4));
  ASSERT_TRUE(on_a->WaitForSeq(4));
  EXPECT_EQ(CheckStream(relayed->updates(), players[1].seat), "");
  EXPECT_EQ(Count(absl::StrCat("SELECT count(*) FROM table_tables WHERE table_id = '", table_id,
                               "' AND host_id = 'host-a' AND owner_epoch = 1")),
            1);
  // A client cannot pass for a host: a forged marker is the client's own call, forwarded as
  // usual (a real forwarded call is never forwarded again, and would be refused here).
  {
    grpc::ClientContext context;
    context.AddMetadata("authorization", kahve::testing::Bearer("alice"));
    context.AddMetadata("kahve-forwarded-for", "ipv4:10.9.9.9:1");
    context.AddMetadata("kahve-forwarded-mac", std::string(64, '0'));
    v1::GetViewRequest request;
    request.set_table_id(table_id);
    request.set_seat_token(players[0].token);
    v1::GetViewResponse response;
    const grpc::Status status = host_b_->stub().GetView(&context, request, &response);
    EXPECT_TRUE(status.ok()) << status.error_message();
  }

  // host-a falls silent (it still runs): host-b claims the table at its next heartbeat.
  SilenceHostA();
  absl::StatusOr<int> claimed = host_b_->host().ClaimLapsed();
  ASSERT_TRUE(claimed.ok()) << claimed.status();
  EXPECT_EQ(*claimed, 1);
  EXPECT_EQ(CounterOf(host_b_->metrics().registry(), "kahve_table_takeovers_total", "reason",
                      "lapsed"),
            1);

  // Alice's client reconnects to host-b after the last update it had.
  const uint64_t seen = LastSeq(*on_a);
  std::unique_ptr<UpdateReader> on_b = Connect(table_id, "alice", players[0].token, seen);

  // The stale host-a still believes it holds the table: its next move is refused by the log's
  // fence, answered UNAVAILABLE, and its stream is told to reconnect.
  auto [mover, move] = NextMove(table_id, players);
  via_ = nullptr;
  v1::PlayResponse refused;
  const grpc::Status stale = Play(table_id, mover, move, &refused, "the-move");
  EXPECT_EQ(stale.error_code(), grpc::StatusCode::UNAVAILABLE) << stale.error_message();
  EXPECT_THAT(stale.error_message(), HasSubstr("moved to another host"));
  const std::optional<grpc::Status> ended = on_a->WaitFinished();
  ASSERT_TRUE(ended.has_value());
  EXPECT_EQ(ended->error_code(), grpc::StatusCode::UNAVAILABLE);
  EXPECT_THAT(ended->error_message(), HasSubstr("reconnect with after_seq"));
  // The stream host-b relayed from host-a ends the same way.
  const std::optional<grpc::Status> relay_ended = relayed->WaitFinished();
  ASSERT_TRUE(relay_ended.has_value());
  EXPECT_EQ(relay_ended->error_code(), grpc::StatusCode::UNAVAILABLE);
  EXPECT_EQ(CounterOf(server_->metrics().registry(), "kahve_tables_lost_total"), 1);
  EXPECT_EQ(server_->host().live_tables(), 0);

  // The player retries on host-b with the same request id, and the game goes on to its end.
  via_ = host_b_.get();
  v1::PlayResponse played;
  const grpc::Status retried = Play(table_id, mover, move, &played, "the-move");
  ASSERT_TRUE(retried.ok()) << retried.error_message();
  EXPECT_EQ(played.seq(), seen + 1);
  PlayToTheEnd(table_id, players);
  ASSERT_TRUE(on_b->WaitUntil(EndsWithResult));
  EXPECT_EQ(CheckStream(on_b->updates(), players[0].seat, seen), "");
  // One log, without a gap or a stale entry, and the result in the outbox once.
  const uint64_t last = LastSeq(*on_b);
  EXPECT_EQ(Count(absl::StrCat("SELECT count(*) FROM table_log WHERE table_id = '", table_id,
                               "'")),
            static_cast<int64_t>(last) + 1);
  EXPECT_EQ(Count(absl::StrCat("SELECT count(*) FROM table_tables WHERE table_id = '", table_id,
                               "' AND host_id = 'host-b' AND owner_epoch = 2 AND last_seq = ",
                               last, " AND finished_us IS NOT NULL")),
            1);
  EXPECT_EQ(Count("SELECT count(*) FROM table_outbox"), 1);
}

TEST_F(TableFailoverTest, ADrainingHostHandsItsTableOffAndTheNextCallClaimsIt) {
  std::string table_id;
  const std::vector<Player> players = CreateTable({"alice", "bob"}, {}, &table_id);
  std::unique_ptr<UpdateReader> on_a = Connect(table_id, "bob", players[1].token);
  ASSERT_EQ(PlayToTheEnd(table_id, players, 2), 2);
  ASSERT_TRUE(on_a->WaitForSeq(2));

  server_->Stop();  // SIGTERM's sequence: hands the table off, then ends the streams
  const std::optional<grpc::Status> ended = on_a->WaitFinished();
  ASSERT_TRUE(ended.has_value());
  EXPECT_EQ(ended->error_code(), grpc::StatusCode::UNAVAILABLE);
  EXPECT_EQ(Count(absl::StrCat("SELECT count(*) FROM table_tables WHERE table_id = '", table_id,
                               "' AND host_id = ''")),
            1);

  // Bob reconnects to host-b, which claims the handed-off table for the call.
  via_ = host_b_.get();
  const uint64_t seen = LastSeq(*on_a);
  std::unique_ptr<UpdateReader> on_b = Connect(table_id, "bob", players[1].token, seen);
  PlayToTheEnd(table_id, players);
  ASSERT_TRUE(on_b->WaitUntil(EndsWithResult));
  EXPECT_EQ(CheckStream(on_b->updates(), players[1].seat, seen), "");
  EXPECT_EQ(CounterOf(host_b_->metrics().registry(), "kahve_table_takeovers_total", "reason",
                      "on_call"),
            1);
  EXPECT_EQ(Count("SELECT count(*) FROM table_outbox"), 1);
}

// Issue 28, finding 8: a forwarded call that could not reach the holder told the player the
// holder's address inside the cluster ("ipv4:10.0.3.7:50052: Connection refused").
TEST_F(TableFailoverTest, AHolderThatCannotBeReachedIsNeverNamedToThePlayer) {
  std::string table_id;
  const std::vector<Player> players = CreateTable({"alice", "bob"}, {}, &table_id);
  // host-a is live by its heartbeat, but at an address nobody answers.
  Count("INSERT INTO table_hosts (host_id, endpoint, live_tables, heartbeat_us) VALUES "
        "('host-a', '127.0.0.1:1', 1, (extract(epoch FROM clock_timestamp()) * 1000000)::bigint) "
        "RETURNING 1");
  via_ = host_b_.get();
  const absl::StatusOr<v1::GetViewResponse> view = View(table_id, "alice", players[0].token);
  ASSERT_FALSE(view.ok());
  EXPECT_EQ(view.status().code(), absl::StatusCode::kUnavailable) << view.status();
  EXPECT_THAT(std::string(view.status().message()), Not(HasSubstr("127.0.0.1")));
  EXPECT_THAT(std::string(view.status().message()), Not(HasSubstr("ipv4")));
  std::unique_ptr<UpdateReader> stream = Connect(table_id, "alice", players[0].token);
  const std::optional<grpc::Status> ended = stream->WaitFinished();
  ASSERT_TRUE(ended.has_value());
  EXPECT_EQ(ended->error_code(), grpc::StatusCode::UNAVAILABLE);
  EXPECT_THAT(ended->error_message(), Not(HasSubstr("127.0.0.1")));
}

// Issue 28, finding 5: a relayed stream the entry host cut for slowness stayed open at the
// holder until the game ended: 60 s of silence for the client instead of RESOURCE_EXHAUSTED, and
// both hosts' budgets held. Now the cut cancels the holder's side at once.
TEST_F(TableFailoverTest, ARelayedStreamCutForSlownessEndsAtTheHolderToo) {
  HeartbeatHostA();
  v1::TableOptions options;
  options.set_bot_delay_ms(20);
  v1::GameSettings settings;
  settings.mutable_mexican_train()->set_players(4);
  std::string table_id;
  CreateTable({"bot:random", "bot:random", "bot:random", "bot:random"}, options, &table_id,
              /*seed=*/7, &settings);
  // The entry host keeps at most 2 KiB waiting for one client.
  TableHostSettings small = TableServer::DefaultSettings();
  small.max_stream_queued_bytes = 2048;
  host_b_ = std::make_unique<TableServer>(url(), "host-b", small);

  // A spectator through host-b whose connection never opens its receive window.
  grpc::ChannelArguments args;
  args.SetInt(GRPC_ARG_HTTP2_STREAM_LOOKAHEAD_BYTES, 1024);
  args.SetInt(GRPC_ARG_HTTP2_BDP_PROBE, 0);
  auto channel = grpc::CreateCustomChannel(absl::StrCat("127.0.0.1:", host_b_->port()),
                                           grpc::InsecureChannelCredentials(), args);
  auto slow_stub = v1::TableService::NewStub(channel);
  auto context = kahve::testing::ContextFor("slowpoke");
  v1::ConnectRequest request;
  request.set_table_id(table_id);
  std::unique_ptr<grpc::ClientReader<v1::TableUpdate>> reader =
      slow_stub->Connect(context.get(), request);

  prometheus::Registry& holder = server_->metrics().registry();
  auto streams_at_holder = [&] {
    return kahve::testing::MetricSum(holder, "kahve_streams_active");
  };
  const absl::Time opened_by = absl::Now() + absl::Seconds(10);
  while (streams_at_holder() < 1 && absl::Now() < opened_by) absl::SleepFor(absl::Milliseconds(10));
  ASSERT_EQ(streams_at_holder(), 1) << "the relay's stream reached host-a";
  // host-b cuts the client, and host-a's side of the relay ends with it, long before the game.
  const absl::Time cut_by = absl::Now() + absl::Seconds(20);
  while (streams_at_holder() > 0 && absl::Now() < cut_by) absl::SleepFor(absl::Milliseconds(10));
  EXPECT_EQ(streams_at_holder(), 0);
  EXPECT_GE(kahve::testing::MetricSum(host_b_->metrics().registry(), "kahve_budget_refusals_total",
                                      {{"budget", "max_stream_queued_bytes"}}),
            1);
  v1::TableUpdate update;
  while (reader->Read(&update)) {
  }
  const grpc::Status ended = reader->Finish();
  EXPECT_EQ(ended.error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED) << ended.error_message();
  absl::StatusOr<v1::GetViewResponse> view = View(table_id, "slowpoke", "");
  ASSERT_TRUE(view.ok());
  EXPECT_FALSE(view->view().over()) << "the game went on meanwhile";
}

// Issue 34: the entry host tells the holder whose stream it relays by the client's connection key
// (behind a trusted proxy, the forwarded address), so the holder's per-connection budget counts
// each client rather than the entry host's one connection to it; and still counts each client.
TEST_F(TableFailoverTest, ARelayedStreamCountsAgainstItsOwnClientAtTheHolder) {
  server_ = std::make_unique<TableServer>(url(), kHostId, TableServer::DefaultSettings(),
                                          common::StreamBudgetSettings{.per_identity = 100,
                                                                       .per_connection = 2});
  HeartbeatHostA();
  v1::TableOptions options;
  options.set_bot_delay_ms(1000);
  std::string table_id;
  CreateTable({"bot:random", "bot:random", "bot:random", "bot:random"}, options, &table_id);
  common::StreamBudgetSettings entry{.per_identity = 100, .per_connection = 100};
  std::string error;
  ASSERT_TRUE(common::TrustedProxies::Parse("127.0.0.0/8", &entry.trusted_proxies, &error))
      << error;
  host_b_ = std::make_unique<TableServer>(url(), "host-b", TableServer::DefaultSettings(), entry);

  struct Relayed {
    std::unique_ptr<grpc::ClientContext> context;
    std::unique_ptr<grpc::ClientReader<v1::TableUpdate>> reader;
  };
  std::vector<Relayed> open;
  // A spectator's stream through host-b, all on one connection from the "proxy" (this test);
  // OK once its first update arrives, else how it ended.
  auto spectate = [&](const std::string& spectator, const std::string& forwarded_for) {
    Relayed stream{kahve::testing::ContextFor(spectator), nullptr};
    stream.context->AddMetadata("x-forwarded-for", forwarded_for);
    v1::ConnectRequest request;
    request.set_table_id(table_id);
    stream.reader = host_b_->stub().Connect(stream.context.get(), request);
    v1::TableUpdate update;
    if (!stream.reader->Read(&update)) return stream.reader->Finish();
    open.push_back(std::move(stream));
    return grpc::Status::OK;
  };
  for (const char* client : {"198.51.100.1", "198.51.100.2"}) {
    for (int i = 0; i < 2; ++i) {
      const grpc::Status opened = spectate(absl::StrCat("watcher-", client, "-", i), client);
      EXPECT_TRUE(opened.ok()) << client << ": " << opened.error_message();
    }
  }
  prometheus::Registry& holder = server_->metrics().registry();
  EXPECT_EQ(kahve::testing::MetricSum(holder, "kahve_streams_active"), 4);
  const grpc::Status third = spectate("watcher-third", "198.51.100.1");
  EXPECT_EQ(third.error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED) << third.error_message();
  EXPECT_THAT(third.error_message(), HasSubstr("max_streams_per_connection (2)"));
  EXPECT_EQ(kahve::testing::MetricSum(holder, "kahve_budget_refusals_total",
                                      {{"budget", "max_streams_per_connection"}}),
            1)
      << "refused by the holder's budget, not the entry's";
  for (Relayed& stream : open) {
    stream.context->TryCancel();
    v1::TableUpdate update;
    while (stream.reader->Read(&update)) {
    }
    stream.reader->Finish();
  }
}

}  // namespace
}  // namespace kahve::table

// What the table service tells other services over gRPC, so that none of them reads its tables:
// which hosts take tables (ListHosts), which matches have tables and whether their games ended
// (GetMatchStates), and that a CreateTable retried on any host gets the first answer. Two real
// hosts over one PostgreSQL.

#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/services/service_testing.h"
#include "tests/services/table/table_fixture.h"

namespace kahve::table {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::UnorderedElementsAre;

class TableDirectoryTest : public TwoHostTableTest {
 protected:
  // A table_hosts row as a heartbeat `age_seconds` ago would leave it.
  void Beat(const std::string& host_id, int live_tables, int age_seconds, bool draining = false) {
    Count(absl::StrCat(
        "INSERT INTO table_hosts (host_id, endpoint, live_tables, heartbeat_us, draining) VALUES "
        "('",
        host_id, "', '", host_id, ".internal:50052', ", live_tables,
        ", (extract(epoch FROM clock_timestamp()) * 1000000)::bigint - ", age_seconds, "000000, ",
        draining ? "true" : "false",
        ") ON CONFLICT (host_id) DO UPDATE SET live_tables = excluded.live_tables,"
        " heartbeat_us = excluded.heartbeat_us, draining = excluded.draining RETURNING 1"));
  }

  grpc::Status ListHosts(v1::TableService::Stub& stub, v1::ListHostsResponse* response,
                         const std::string& role = common::kRoleService) {
    auto context = kahve::testing::ContextFor(kMatchmaker, role);
    return stub.ListHosts(context.get(), {}, response);
  }

  grpc::Status MatchStates(const std::vector<std::string>& match_ids,
                           v1::GetMatchStatesResponse* response,
                           const std::string& role = common::kRoleService) {
    v1::GetMatchStatesRequest request;
    for (const std::string& id : match_ids) request.add_match_ids(id);
    auto context = kahve::testing::ContextFor(kMatchmaker, role);
    return stub().GetMatchStates(context.get(), request, response);
  }

  static v1::CreateTableRequest TwoPlayers(const std::string& match_id) {
    v1::CreateTableRequest request;
    request.set_match_id(match_id);
    request.mutable_settings()->mutable_liars_dice()->set_players(2);
    request.add_seats()->set_player_id("ana");
    request.add_seats()->set_player_id("bora");
    return request;
  }
};

std::vector<std::string> HostIds(const v1::ListHostsResponse& response) {
  std::vector<std::string> ids;
  for (const v1::TableHostInfo& host : response.hosts()) ids.push_back(host.host_id());
  return ids;
}

TEST_F(TableDirectoryTest, ListHostsNamesTheLiveHostsThatTakeTablesLeastLoadedFirst) {
  Beat("busy", 9, 0);
  Beat("idle", 1, 0);
  Beat("quiet", 1, 0);
  Beat("draining", 0, 0, /*draining=*/true);
  Beat("silent", 0, 60);  // past the 5 s lease
  // Either host answers, with the same list.
  for (TableServer* host : {server_.get(), host_b_.get()}) {
    v1::ListHostsResponse response;
    const grpc::Status status = ListHosts(host->stub(), &response);
    ASSERT_TRUE(status.ok()) << status.error_message();
    EXPECT_THAT(HostIds(response), ElementsAre("idle", "quiet", "busy"));
    EXPECT_EQ(response.hosts(0).endpoint(), "idle.internal:50052");
    EXPECT_EQ(response.hosts(2).live_tables(), 9);
  }
}

TEST_F(TableDirectoryTest, OnlyServicesMayAskWhereTablesGoOrWhichGamesEnded) {
  Beat("idle", 0, 0);
  v1::ListHostsResponse hosts;
  EXPECT_EQ(ListHosts(server_->stub(), &hosts, "").error_code(),
            grpc::StatusCode::PERMISSION_DENIED);
  EXPECT_EQ(hosts.hosts_size(), 0);
  v1::GetMatchStatesResponse states;
  EXPECT_EQ(MatchStates({"match-1"}, &states, "").error_code(),
            grpc::StatusCode::PERMISSION_DENIED);
}

TEST_F(TableDirectoryTest, GetMatchStatesSaysWhichMatchesHaveTablesAndWhichGamesEnded) {
  v1::CreateTableResponse running, finished;
  ASSERT_TRUE(Create(TwoPlayers("match-running"), &running).ok());
  ASSERT_TRUE(Create(TwoPlayers("match-finished"), &finished).ok());
  PlayToTheEnd(finished.table_id(), {{"ana", 0, finished.seats(0).seat_token()},
                                     {"bora", 1, finished.seats(1).seat_token()}});
  // Asked on the other host: the answer comes from the durable state, not one host's memory.
  via_ = host_b_.get();
  v1::GetMatchStatesResponse response;
  const grpc::Status status =
      MatchStates({"match-unknown", "match-running", "match-finished"}, &response);
  ASSERT_TRUE(status.ok()) << status.error_message();
  std::vector<std::string> states;
  for (const v1::MatchState& state : response.matches()) {
    states.push_back(absl::StrCat(state.match_id(), " ", state.table_id(), " ", state.over()));
  }
  EXPECT_THAT(states,
              UnorderedElementsAre(absl::StrCat("match-running ", running.table_id(), " 0"),
                                   absl::StrCat("match-finished ", finished.table_id(), " 1")));
}

TEST_F(TableDirectoryTest, GetMatchStatesRefusesMoreThanAHundredIds) {
  std::vector<std::string> ids(101, "match-1");
  v1::GetMatchStatesResponse response;
  const grpc::Status status = MatchStates(ids, &response);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_THAT(status.error_message(), HasSubstr("match_ids"));
  ids.pop_back();
  EXPECT_TRUE(MatchStates(ids, &response).ok());
}

TEST_F(TableDirectoryTest, ACreateTableRetriedOnAnotherHostGetsTheFirstAnswer) {
  v1::CreateTableResponse first;
  ASSERT_TRUE(Create(TwoPlayers("match-retried"), &first).ok());
  ASSERT_EQ(first.seats_size(), 2);
  // The answer was lost; the retry lands on host-b, which never served the table.
  via_ = host_b_.get();
  v1::CreateTableResponse again;
  const grpc::Status status = Create(TwoPlayers("match-retried"), &again);
  ASSERT_TRUE(status.ok()) << status.error_message();
  EXPECT_EQ(again.SerializeAsString(), first.SerializeAsString());
  // The same tokens work: the seat is the player's, on whichever host serves the table.
  auto view = View(first.table_id(), "bora", again.seats(1).seat_token());
  ASSERT_TRUE(view.ok()) << view.status();
  EXPECT_EQ(Count("SELECT count(*) FROM table_tables"), 1);

  // The same match id with other seats is no retry: refused, and nothing is made.
  v1::CreateTableRequest other = TwoPlayers("match-retried");
  other.mutable_seats(1)->set_player_id("cem");
  v1::CreateTableResponse refused;
  const grpc::Status clash = Create(other, &refused);
  EXPECT_EQ(clash.error_code(), grpc::StatusCode::ALREADY_EXISTS);
  EXPECT_THAT(clash.error_message(), HasSubstr(first.table_id()));
  EXPECT_TRUE(refused.table_id().empty());
  EXPECT_EQ(refused.seats_size(), 0);
  EXPECT_EQ(Count("SELECT count(*) FROM table_tables"), 1);
}

}  // namespace
}  // namespace kahve::table

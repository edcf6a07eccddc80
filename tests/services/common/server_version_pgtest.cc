// Every service tells every caller which kahve version answered (docs/api.md, "Versions"): the
// kahve-server-version entry is in the trailers of every call, and in the headers of every call
// that sends them (an answer, a stream). Real rating, table and matchmaking servers over real gRPC.

#include <map>
#include <string>

#include "gtest/gtest.h"
#include "kahve/v1/rating.grpc.pb.h"
#include "kahve/version.h"
#include "tests/services/matchmaking/mm_fixture.h"
#include "tests/services/service_testing.h"

namespace kahve::matchmaking {
namespace {

using Metadata = std::multimap<grpc::string_ref, grpc::string_ref>;

// The values of kahve-server-version in `metadata`, joined by commas ("" when absent).
std::string VersionIn(const Metadata& metadata) {
  std::string versions;
  const auto [first, last] = metadata.equal_range("kahve-server-version");
  for (auto entry = first; entry != last; ++entry) {
    if (!versions.empty()) versions += ",";
    versions.append(entry->second.data(), entry->second.size());
  }
  return versions;
}

class ServerVersionTest : public MatchmakingTest {
 protected:
  // A call's status and where it named the version.
  struct Seen {
    grpc::Status status;
    std::string headers;
    std::string trailers;
  };
  static Seen After(const grpc::ClientContext& context, grpc::Status status) {
    return Seen{std::move(status), VersionIn(context.GetServerInitialMetadata()),
                VersionIn(context.GetServerTrailingMetadata())};
  }
};

TEST_F(ServerVersionTest, EveryServiceNamesItsVersionToEveryCall) {
  StartMatchmaker(Settings());
  const std::string version = kKahveVersion;
  ASSERT_FALSE(version.empty());
  auto rating = v1::RatingService::NewStub(kahve::testing::LocalChannel(RatingPort()));

  std::map<std::string, Seen> answered;
  std::map<std::string, Seen> refused;
  {
    auto context = kahve::testing::ContextFor("ana");
    v1::GetQueueStatsResponse stats;
    answered["matchmaking"] = After(*context, mm().stub().GetQueueStats(context.get(), {}, &stats));
  }
  {
    auto context = kahve::testing::ContextFor("ana");
    v1::Party party;
    refused["matchmaking"] = After(*context, mm().stub().GetMyParty(context.get(), {}, &party));
  }
  std::string table_id;
  const std::vector<table::Player> players = CreateTable({"ana", "ben"}, {}, &table_id);
  {
    auto context = kahve::testing::ContextFor("ana");
    v1::GetViewRequest request;
    request.set_table_id(table_id);
    request.set_seat_token(players[0].token);
    v1::GetViewResponse view;
    answered["table"] = After(*context, stub().GetView(context.get(), request, &view));
  }
  {
    grpc::ClientContext anonymous;
    v1::GetViewRequest request;
    request.set_table_id(table_id);
    v1::GetViewResponse view;
    refused["table"] = After(anonymous, stub().GetView(&anonymous, request, &view));
  }
  {
    auto context = kahve::testing::ContextFor("ana");
    v1::GetLeaderboardRequest request;
    request.set_ruleset("liars_dice");
    request.set_mode(v1::SOLO);
    v1::GetLeaderboardResponse board;
    answered["rating"] = After(*context, rating->GetLeaderboard(context.get(), request, &board));
  }
  {
    auto context = kahve::testing::ContextFor("ana");
    v1::GetMatchRequest request;
    request.set_match_id("no-such-match");
    v1::MatchRecord match;
    refused["rating"] = After(*context, rating->GetMatch(context.get(), request, &match));
  }
  for (const auto& [service, seen] : answered) {
    SCOPED_TRACE(service);
    ASSERT_TRUE(seen.status.ok()) << seen.status.error_message();
    EXPECT_EQ(seen.headers, version);
    EXPECT_EQ(seen.trailers, version);
  }
  for (const auto& [service, seen] : refused) {
    SCOPED_TRACE(service);
    ASSERT_FALSE(seen.status.ok());
    // Sent as Trailers-Only (no headers), so that clients' automatic retries still work.
    EXPECT_EQ(seen.headers, "");
    EXPECT_EQ(seen.trailers, version);
  }

  // A stream has it in its headers from its first message on.
  auto context = kahve::testing::ContextFor("ana");
  v1::ConnectRequest request;
  request.set_table_id(table_id);
  request.set_seat_token(players[0].token);
  auto stream = stub().Connect(context.get(), request);
  v1::TableUpdate first;
  ASSERT_TRUE(stream->Read(&first));
  EXPECT_EQ(VersionIn(context->GetServerInitialMetadata()), version);
  context->TryCancel();
}

}  // namespace
}  // namespace kahve::matchmaking

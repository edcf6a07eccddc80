// ListMatches, GetLeaderboard and GetRatingHistory: pagination stable under concurrent inserts,
// signed page tokens, positions, provisional players kept off leaderboards.

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/services/rating/rating_fixture.h"

namespace kahve::rating {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

class RatingQueriesTest : public RatingServiceTest {
 protected:
  grpc::Status List(const v1::ListMatchesRequest& request, v1::ListMatchesResponse* response) {
    auto context = testing::ContextFor("viewer");
    return stub().ListMatches(context.get(), request, response);
  }
  grpc::Status Board(const v1::GetLeaderboardRequest& request,
                     v1::GetLeaderboardResponse* response) {
    auto context = testing::ContextFor("viewer");
    return stub().GetLeaderboard(context.get(), request, response);
  }
  void RecordOk(const v1::RecordMatchRequest& request) {
    v1::RecordMatchResponse response;
    const grpc::Status status = Record(request, &response);
    ASSERT_TRUE(status.ok()) << status.error_message();
  }
  std::vector<std::string> Ids(const v1::ListMatchesResponse& response) {
    std::vector<std::string> ids;
    for (const auto& match : response.matches()) ids.push_back(match.match_id());
    return ids;
  }
};

TEST_F(RatingQueriesTest, ListMatchesPagesNewestFirstAndIgnoresLaterInserts) {
  for (int i = 0; i < 25; ++i) {
    RecordOk(SoloMatch(absl::StrCat("m", 100 + i), {"ana", "ben", "cem", "deniz"}, {1, 2, 3, 4},
                       1000 + i));
  }
  v1::ListMatchesRequest request;
  request.set_player_id("ana");
  request.set_page_size(10);
  v1::ListMatchesResponse first;
  ASSERT_TRUE(List(request, &first).ok());
  ASSERT_EQ(first.matches_size(), 10);
  EXPECT_EQ(first.matches(0).match_id(), "m124");
  EXPECT_EQ(first.matches(9).match_id(), "m115");
  ASSERT_FALSE(first.next_page_token().empty());

  // A match recorded between pages (newer than all) must not shift the pages that follow.
  RecordOk(SoloMatch("m999", {"ana", "ben", "cem", "deniz"}, {1, 2, 3, 4}, 5000));
  request.set_page_token(first.next_page_token());
  v1::ListMatchesResponse second;
  ASSERT_TRUE(List(request, &second).ok());
  ASSERT_EQ(second.matches_size(), 10);
  EXPECT_EQ(second.matches(0).match_id(), "m114");
  request.set_page_token(second.next_page_token());
  v1::ListMatchesResponse third;
  ASSERT_TRUE(List(request, &third).ok());
  ASSERT_EQ(third.matches_size(), 5);
  EXPECT_EQ(third.matches(4).match_id(), "m100");
  EXPECT_TRUE(third.next_page_token().empty());
  EXPECT_EQ(third.matches(0).changes_size(), 4) << "each match with its rating changes";
}

TEST_F(RatingQueriesTest, ListMatchesFiltersByRulesetAndTime) {
  for (int i = 0; i < 6; ++i) {
    RecordOk(SoloMatch(absl::StrCat("m", i), {"ana", "ben"}, {1, 2}, 1000 + i * 10));
  }
  v1::ListMatchesRequest request;
  request.set_player_id("ana");
  request.mutable_ended_after()->set_seconds(1010);
  request.mutable_ended_before()->set_seconds(1040);
  v1::ListMatchesResponse response;
  ASSERT_TRUE(List(request, &response).ok());
  EXPECT_THAT(Ids(response), ElementsAre("m3", "m2", "m1"));
  request.set_ruleset("liars_dice");
  ASSERT_TRUE(List(request, &response).ok());
  EXPECT_EQ(response.matches_size(), 3);
  v1::ListMatchesRequest other;
  other.set_player_id("nobody");
  ASSERT_TRUE(List(other, &response).ok());
  EXPECT_EQ(response.matches_size(), 0);
}

TEST_F(RatingQueriesTest, PageTokensCannotBeForgedOrReused) {
  for (int i = 0; i < 3; ++i)
    RecordOk(SoloMatch(absl::StrCat("m", i), {"ana", "ben"}, {1, 2}, 1000 + i));
  v1::ListMatchesRequest request;
  request.set_player_id("ana");
  request.set_page_size(1);
  v1::ListMatchesResponse response;
  ASSERT_TRUE(List(request, &response).ok());
  const std::string token = response.next_page_token();
  ASSERT_FALSE(token.empty());

  v1::ListMatchesRequest forged = request;
  forged.set_page_token("bm90IGEgdG9rZW4");
  EXPECT_THAT(List(forged, &response).error_message(), HasSubstr("invalid page token"));
  std::string tampered = token;
  tampered[tampered.size() / 2] = tampered[tampered.size() / 2] == 'A' ? 'B' : 'A';
  forged.set_page_token(tampered);
  EXPECT_EQ(List(forged, &response).error_code(), grpc::INVALID_ARGUMENT);
  // A token for ana's history does not continue ben's.
  v1::ListMatchesRequest foreign = request;
  foreign.set_player_id("ben");
  foreign.set_page_token(token);
  EXPECT_THAT(List(foreign, &response).error_message(), HasSubstr("invalid page token"));
  // Nor a leaderboard.
  v1::GetLeaderboardRequest board;
  board.set_ruleset("liars_dice");
  board.set_mode(v1::SOLO);
  board.set_page_token(token);
  v1::GetLeaderboardResponse board_response;
  EXPECT_THAT(Board(board, &board_response).error_message(), HasSubstr("invalid page token"));
}

TEST_F(RatingQueriesTest, PageSizesAndRangesAreChecked) {
  v1::ListMatchesRequest request;
  request.set_player_id("ana");
  v1::ListMatchesResponse response;
  for (const int size : {-1, 101}) {
    request.set_page_size(size);
    EXPECT_THAT(List(request, &response).error_message(), HasSubstr("page_size")) << size;
  }
  request.set_page_size(100);
  EXPECT_TRUE(List(request, &response).ok());
  request.mutable_ended_after()->set_seconds(2000);
  request.mutable_ended_before()->set_seconds(1000);
  EXPECT_THAT(List(request, &response).error_message(), HasSubstr("ended_after"));
  v1::ListMatchesRequest nobody;
  EXPECT_THAT(List(nobody, &response).error_message(), HasSubstr("player_id"));

  v1::GetLeaderboardRequest board;
  board.set_ruleset("liars_dice");
  board.set_mode(v1::SOLO);
  board.set_page_size(101);
  v1::GetLeaderboardResponse board_response;
  EXPECT_THAT(Board(board, &board_response).error_message(), HasSubstr("page_size"));
  board.set_page_size(10);
  board.set_mode(v1::MATCH_MODE_UNSPECIFIED);
  EXPECT_THAT(Board(board, &board_response).error_message(), HasSubstr("mode"));
  board.set_mode(v1::SOLO);
  board.set_ruleset("");
  EXPECT_THAT(Board(board, &board_response).error_message(), HasSubstr("ruleset: required"));
}

// Six players, each with two games (not provisional); "fresh" has one (provisional).
class LeaderboardTest : public RatingQueriesTest {
 protected:
  void SetUp() override {
    RatingQueriesTest::SetUp();
    const std::vector<std::string> players = {"p1", "p2", "p3", "p4", "p5", "p6"};
    for (int game = 0; game < 2; ++game) {
      RecordOk(SoloMatch(absl::StrCat("a", game), {"p1", "p2", "p3"}, {1, 2, 3}, 1000 + game));
      RecordOk(SoloMatch(absl::StrCat("b", game), {"p4", "p5", "p6"}, {1, 2, 3}, 2000 + game));
    }
    RecordOk(SoloMatch("c", {"fresh", "p7"}, {1, 2}, 3000));
  }
  std::vector<std::string> Players(const v1::GetLeaderboardResponse& response) {
    std::vector<std::string> players;
    for (const auto& entry : response.entries()) players.push_back(entry.rating().player_id());
    return players;
  }
};

TEST_F(LeaderboardTest, OrdersByDisplayRatingAndPages) {
  v1::GetLeaderboardRequest request;
  request.set_ruleset("liars_dice");
  request.set_mode(v1::SOLO);
  v1::GetLeaderboardResponse all;
  ASSERT_TRUE(Board(request, &all).ok());
  ASSERT_EQ(all.entries_size(), 6) << "provisional players are left out";
  for (int i = 1; i < all.entries_size(); ++i) {
    EXPECT_GE(all.entries(i - 1).rating().display(), all.entries(i).rating().display());
    EXPECT_EQ(all.entries(i).position(), i + 1);
  }
  // p1 and p4 won the same way: equal ratings, ordered by id.
  EXPECT_THAT(Players(all), ElementsAre("p1", "p4", "p2", "p5", "p3", "p6"));

  request.set_page_size(4);
  v1::GetLeaderboardResponse first, second;
  ASSERT_TRUE(Board(request, &first).ok());
  EXPECT_THAT(Players(first), ElementsAre("p1", "p4", "p2", "p5"));
  request.set_page_token(first.next_page_token());
  ASSERT_TRUE(Board(request, &second).ok());
  EXPECT_THAT(Players(second), ElementsAre("p3", "p6"));
  EXPECT_EQ(second.entries(0).position(), 5);
  EXPECT_TRUE(second.next_page_token().empty());
}

TEST_F(LeaderboardTest, AroundPlayerCentresThePlayer) {
  v1::GetLeaderboardRequest request;
  request.set_ruleset("liars_dice");
  request.set_mode(v1::SOLO);
  request.set_page_size(3);
  request.set_around_player("p5");
  v1::GetLeaderboardResponse response;
  ASSERT_TRUE(Board(request, &response).ok());
  EXPECT_THAT(Players(response), ElementsAre("p2", "p5", "p3"));
  EXPECT_EQ(response.entries(1).position(), 4);
  request.set_around_player("p1");
  ASSERT_TRUE(Board(request, &response).ok());
  EXPECT_THAT(Players(response), ElementsAre("p1", "p4", "p2"));
  EXPECT_EQ(response.entries(0).position(), 1);
  request.set_around_player("fresh");
  EXPECT_EQ(Board(request, &response).error_code(), grpc::NOT_FOUND);
  request.set_around_player("p5");
  request.set_page_token("x");
  EXPECT_EQ(Board(request, &response).error_code(), grpc::INVALID_ARGUMENT);
}

TEST_F(LeaderboardTest, HistoryFollowsEveryRatedMatch) {
  // Later matches of p1 that are not in the series: an unrated one (a bot from the start) and one
  // of the other mode.
  v1::RecordMatchRequest with_bot = SoloMatch("unrated", {"p1", "p2", "p3"}, {1, 2, 3}, 1002);
  with_bot.mutable_participants(2)->clear_player_id();
  with_bot.mutable_participants(2)->set_bot(true);
  RecordOk(with_bot);
  RecordOk(TeamMatch("teams", {"p1", "p2", "p3", "p4"}, true, 1003));
  v1::GetRatingHistoryRequest request;
  request.set_player_id("p1");
  request.set_ruleset("liars_dice");
  request.set_mode(v1::SOLO);
  v1::GetRatingHistoryResponse history;
  auto context = testing::ContextFor("p1");
  ASSERT_TRUE(stub().GetRatingHistory(context.get(), request, &history).ok());
  ASSERT_EQ(history.points_size(), 2);
  EXPECT_EQ(history.points(0).match_id(), "a0");
  EXPECT_EQ(history.points(1).match_id(), "a1");
  EXPECT_EQ(history.points(1).at().seconds(), 1001);
  EXPECT_GT(history.points(1).mu(), history.points(0).mu()) << "p1 won both";
  v1::GetLeaderboardRequest board;
  board.set_ruleset("liars_dice");
  board.set_mode(v1::SOLO);
  v1::GetLeaderboardResponse top;
  ASSERT_TRUE(Board(board, &top).ok());
  EXPECT_DOUBLE_EQ(top.entries(0).rating().mu(), history.points(1).mu());

  request.set_mode(v1::TEAMS);
  auto teams = testing::ContextFor("p1");
  ASSERT_TRUE(stub().GetRatingHistory(teams.get(), request, &history).ok());
  ASSERT_EQ(history.points_size(), 1);
  EXPECT_EQ(history.points(0).match_id(), "teams");

  request.set_mode(v1::MATCH_MODE_UNSPECIFIED);
  auto again = testing::ContextFor("p1");
  EXPECT_EQ(stub().GetRatingHistory(again.get(), request, &history).error_code(),
            grpc::INVALID_ARGUMENT);
}

}  // namespace
}  // namespace kahve::rating

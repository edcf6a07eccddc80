// The one check of every client string (services/common/request_checks.h): which rule a field
// follows, what each rule accepts, and refusals that name the field without repeating the value.

#include "services/common/request_checks.h"

#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "kahve/v1/matchmaking.pb.h"
#include "kahve/v1/rating.pb.h"
#include "kahve/v1/table.pb.h"

namespace kahve::common {
namespace {

using ::testing::HasSubstr;

TEST(RequestChecksTest, FieldNamesChooseTheRule) {
  EXPECT_EQ(RuleForField("table_id"), StringRule::kIdentifier);
  EXPECT_EQ(RuleForField("request_id"), StringRule::kIdentifier);
  EXPECT_EQ(RuleForField("invite_code"), StringRule::kIdentifier);
  EXPECT_EQ(RuleForField("match_ids"), StringRule::kIdentifier);
  EXPECT_EQ(RuleForField("seat_token"), StringRule::kToken);
  EXPECT_EQ(RuleForField("page_token"), StringRule::kToken);
  EXPECT_EQ(RuleForField("player_id"), StringRule::kPlayerId);
  EXPECT_EQ(RuleForField("player_ids"), StringRule::kPlayerId);
  EXPECT_EQ(RuleForField("around_player"), StringRule::kPlayerId);
  EXPECT_EQ(RuleForField("tile"), StringRule::kText);
  EXPECT_EQ(RuleForField("bot_kind"), StringRule::kText);
}

TEST(RequestChecksTest, EachRuleAcceptsWhatItSaysAndNothingElse) {
  EXPECT_TRUE(Satisfies(StringRule::kIdentifier, ""));
  EXPECT_TRUE(Satisfies(StringRule::kIdentifier, "t-0123abcd:x.y_z"));
  EXPECT_TRUE(Satisfies(StringRule::kIdentifier, std::string(128, 'a')));
  EXPECT_FALSE(Satisfies(StringRule::kIdentifier, std::string(129, 'a')));
  EXPECT_FALSE(Satisfies(StringRule::kIdentifier, std::string("a\0b", 3)));
  EXPECT_FALSE(Satisfies(StringRule::kIdentifier, "a b"));
  EXPECT_FALSE(Satisfies(StringRule::kIdentifier, "a/b"));
  EXPECT_TRUE(Satisfies(StringRule::kToken, "AbC-_09="));
  EXPECT_FALSE(Satisfies(StringRule::kToken, "a+b"));
  EXPECT_FALSE(Satisfies(StringRule::kToken, std::string(513, 'a')));
  EXPECT_TRUE(Satisfies(StringRule::kPlayerId, "Zeynep Yılmaz"));
  EXPECT_FALSE(Satisfies(StringRule::kPlayerId, "ana\n"));
  EXPECT_FALSE(Satisfies(StringRule::kPlayerId, std::string("ana\0", 4)));
  EXPECT_FALSE(Satisfies(StringRule::kPlayerId, std::string(129, 'p')));
  EXPECT_TRUE(Satisfies(StringRule::kText, "R9"));
  EXPECT_FALSE(Satisfies(StringRule::kText, "\x7f"));
  EXPECT_FALSE(Satisfies(StringRule::kText, std::string(257, 'x')));
}

TEST(RequestChecksTest, AnHonestRequestPasses) {
  v1::CreateTableRequest request;
  request.set_match_id("match-1");
  request.add_seats()->set_player_id("ana");
  request.add_seats()->set_bot_kind("heuristic");
  request.mutable_settings()->mutable_liars_dice()->set_players(2);
  EXPECT_TRUE(CheckRequestStrings(request).ok());
}

TEST(RequestChecksTest, ARefusalNamesTheNestedFieldAndNeverTheValue) {
  v1::CreateTableRequest request;
  request.add_seats()->set_player_id("ana");
  request.add_seats()->set_player_id(std::string("bo\0b", 4));
  const absl::Status status = CheckRequestStrings(request);
  EXPECT_TRUE(absl::IsInvalidArgument(status));
  EXPECT_THAT(status.message(), HasSubstr("seats[1].player_id"));
  EXPECT_EQ(status.message().find("bo"), std::string::npos);

  v1::WatchTicketRequest watch;
  watch.set_ticket_id(std::string(3 << 20, 'x'));
  const absl::Status huge = CheckRequestStrings(watch);
  EXPECT_TRUE(absl::IsInvalidArgument(huge));
  EXPECT_LT(huge.message().size(), 100u);

  v1::GetRatingsRequest ratings;
  ratings.add_player_ids("ana");
  ratings.add_player_ids("\x1b[31mred");
  EXPECT_THAT(CheckRequestStrings(ratings).message(), HasSubstr("player_ids[1]"));

  v1::EnqueueRequest enqueue;
  enqueue.set_request_id(std::string("\0", 1));
  EXPECT_THAT(CheckRequestStrings(enqueue).message(), HasSubstr("request_id"));
}

}  // namespace
}  // namespace kahve::common

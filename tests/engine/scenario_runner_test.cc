// The scenario runner must catch every kind of mismatch, or the scenario files prove nothing.

#include "tools/kahve/scenario_runner.h"

#include "gmock/gmock.h"
#include "google/protobuf/util/json_util.h"
#include "gtest/gtest.h"

namespace kahve::tools {
namespace {

using ::testing::HasSubstr;

constexpr char kScenario[] = R"json({
  "rule": "a false bid costs the bidder a die",
  "settings": {"liarsDice": {"players": 2, "dicePerPlayer": 1}},
  "deal": {"seed": "1", "liarsDice": {"firstBidder": 0, "rolls": [{"seats": [{"dice": [3]}, {"dice": [5]}]}]}},
  "steps": [
    {"seat": 0, "move": {"liarsDice": {"bid": {"quantity": 2, "face": 3}}},
     "expect": {"accepted": true, "toAct": [1]}},
    {"seat": 1, "move": {"liarsDice": {"bid": {"quantity": 1, "face": 2}}},
     "expect": {"reason": "LIARS_DICE_NOT_A_RAISE"}},
    {"seat": 1, "move": {"liarsDice": {"challenge": {}}},
     "expect": {"accepted": true, "events": [
       {"liarsDice": {"diceRevealed": {"counted": 1}}},
       {"seat": 0, "liarsDice": {"seatEliminated": {"rank": 2}}}]}}
  ],
  "end": {"over": true, "ranks": [2, 1], "ending": "last_player_standing"}
})json";

v1::Scenario Parse(const std::string& json) {
  v1::Scenario scenario;
  EXPECT_TRUE(google::protobuf::util::JsonStringToMessage(json, &scenario).ok());
  return scenario;
}

TEST(ScenarioRunnerTest, PassesAMatchingScenario) {
  EXPECT_TRUE(RunScenario(Parse(kScenario)).ok()) << RunScenario(Parse(kScenario));
}

TEST(ScenarioRunnerTest, CatchesAWrongReason) {
  v1::Scenario scenario = Parse(kScenario);
  scenario.mutable_steps(1)->mutable_expect()->set_reason(v1::LIARS_DICE_OPENING_ONES);
  const absl::Status status = RunScenario(scenario);
  EXPECT_THAT(status.message(), HasSubstr("step 2"));
  EXPECT_THAT(status.message(), HasSubstr("expected rejected LIARS_DICE_OPENING_ONES, got rejected "
                                          "LIARS_DICE_NOT_A_RAISE"));
}

TEST(ScenarioRunnerTest, CatchesAcceptedWhenRejectionExpectedAndViceVersa) {
  v1::Scenario scenario = Parse(kScenario);
  scenario.mutable_steps(0)->mutable_expect()->set_accepted(false);
  scenario.mutable_steps(0)->mutable_expect()->set_reason(v1::LIARS_DICE_NOT_A_RAISE);
  EXPECT_THAT(RunScenario(scenario).message(), HasSubstr("got accepted"));
  scenario = Parse(kScenario);
  scenario.mutable_steps(1)->mutable_expect()->set_accepted(true);
  EXPECT_THAT(RunScenario(scenario).message(), HasSubstr("expected accepted, got rejected"));
}

TEST(ScenarioRunnerTest, RejectionWithoutReasonIsAnAuthoringError) {
  v1::Scenario scenario = Parse(kScenario);
  scenario.mutable_steps(1)->mutable_expect()->clear_reason();
  EXPECT_THAT(RunScenario(scenario).message(), HasSubstr("must name the reason"));
}

TEST(ScenarioRunnerTest, CatchesMissingEventsToActAndEnd) {
  v1::Scenario scenario = Parse(kScenario);
  scenario.mutable_steps(2)->mutable_expect()->mutable_events(1)->set_seat(1);
  EXPECT_THAT(RunScenario(scenario).message(), HasSubstr("expected event"));
  scenario = Parse(kScenario);
  scenario.mutable_steps(0)->mutable_expect()->set_to_act(0, 0);
  EXPECT_THAT(RunScenario(scenario).message(), HasSubstr("expected to_act [0], got [1]"));
  scenario = Parse(kScenario);
  scenario.mutable_end()->set_ranks(0, 1);
  EXPECT_THAT(RunScenario(scenario).message(), HasSubstr("expected ranks [1,1], got [2,1]"));
  scenario = Parse(kScenario);
  scenario.mutable_end()->set_ending("round_limit");
  EXPECT_THAT(RunScenario(scenario).message(), HasSubstr("expected ending round_limit"));
  scenario = Parse(kScenario);
  scenario.mutable_steps()->RemoveLast();
  EXPECT_THAT(RunScenario(scenario).message(), HasSubstr("expected the game over"));
}

TEST(ScenarioRunnerTest, ComparesAFieldTheFileWritesWithItsDefaultValue) {
  // The file says nothing was counted; the engine counted one three. Zero is proto3's default, so
  // only the file as written tells "0" from "not given".
  std::string json = kScenario;
  const std::string counted = R"("counted": 1)";
  json.replace(json.find(counted), counted.size(), R"("counted": 0)");
  const v1::Scenario scenario = Parse(json);
  google::protobuf::Struct as_written;
  ASSERT_TRUE(google::protobuf::util::JsonStringToMessage(json, &as_written).ok());
  const absl::Status status = RunScenario(scenario, &as_written);
  EXPECT_THAT(status.message(), HasSubstr("step 3"));
  EXPECT_THAT(status.message(), HasSubstr(R"("counted":0)"));
  // The message alone cannot see it.
  EXPECT_TRUE(RunScenario(scenario).ok());
  // And the original file, read as written (its "seat": 0 compared too), passes.
  ASSERT_TRUE(google::protobuf::util::JsonStringToMessage(kScenario, &as_written).ok());
  EXPECT_TRUE(RunScenario(Parse(kScenario), &as_written).ok())
      << RunScenario(Parse(kScenario), &as_written);
}

TEST(ScenarioRunnerTest, ReportsBadSettingsAndFiles) {
  v1::Scenario scenario = Parse(kScenario);
  scenario.mutable_settings()->mutable_liars_dice()->set_players(12);
  EXPECT_THAT(RunScenario(scenario).message(), HasSubstr("liars_dice.players"));
  EXPECT_EQ(LoadScenario("/nonexistent.json").status().code(), absl::StatusCode::kNotFound);
}

}  // namespace
}  // namespace kahve::tools

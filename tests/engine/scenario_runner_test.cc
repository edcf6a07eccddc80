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

// Runs `json` read as written, as `kahve scenario` does.
absl::Status RunWritten(const std::string& json) {
  google::protobuf::Struct as_written;
  EXPECT_TRUE(google::protobuf::util::JsonStringToMessage(json, &as_written).ok());
  return RunScenario(Parse(json), &as_written);
}

TEST(ScenarioRunnerTest, ExpectsAGameThatCannotBeCreated) {
  constexpr char kRefused[] = R"json({
    "rule": "2..10 players",
    "settings": {"liarsDice": {"players": 12}},
    "createError": {"code": "INVALID_ARGUMENT", "field": "liars_dice.players"}
  })json";
  EXPECT_TRUE(RunWritten(kRefused).ok()) << RunWritten(kRefused);
  std::string json = kRefused;
  json.replace(json.find("liars_dice.players"), 18, "liars_dice.dice");
  EXPECT_THAT(RunWritten(json).message(), HasSubstr("naming liars_dice.dice, got INVALID_ARGUMENT"));
  json = kRefused;
  json.replace(json.find("12"), 2, "3");
  EXPECT_THAT(RunWritten(json).message(), HasSubstr("it succeeded"));
  json = kRefused;
  json.replace(json.find("\"createError\""), 0, R"("steps": [{"seat": 0}], )");
  EXPECT_EQ(RunWritten(json).code(), absl::StatusCode::kInvalidArgument);
}

TEST(ScenarioRunnerTest, ChecksTheDealViewsAndNobodyToAct) {
  std::string json = kScenario;
  // Seat 0 opens the bidding and sees only its own die; after the last challenge nobody acts.
  json.replace(json.find("\"steps\""), 0, R"("dealt": {
      "events": [{"liarsDice": {"roundStarted": {"round": 1, "starter": 0, "diceCounts": [1, 1]}}},
                 {"seat": 1, "liarsDice": {"diceRolled": {"dice": [5]}}, "privateTo": 1}],
      "toAct": [0],
      "views": [{"seat": 0, "view": {"liarsDice": {"myDice": [3], "diceOnTable": 2}}},
                {"seat": -1, "view": {"liarsDice": {"myDice": []}}}]},
    )");
  const std::string last = R"("expect": {"accepted": true, "events": [
       {"liarsDice": {"diceRevealed": {"counted": 1}}},)";
  json.replace(json.find(last), last.size(), R"("expect": {"accepted": true, "nobodyToAct": true,
       "views": [{"seat": 1, "view": {"over": true, "toAct": []}}], "events": [
       {"liarsDice": {"diceRevealed": {"counted": 1}}},)");
  EXPECT_TRUE(RunWritten(json).ok()) << RunWritten(json);
  std::string wrong = json;
  wrong.replace(wrong.find(R"("myDice": [3])"), 13, R"("myDice": [5])");
  EXPECT_THAT(RunWritten(wrong).message(), HasSubstr("dealt: expected view of seat 0"));
  wrong = json;
  wrong.replace(wrong.find(R"("starter": 0)"), 12, R"("starter": 1)");
  EXPECT_THAT(RunWritten(wrong).message(), HasSubstr("dealt: expected event"));
  wrong = json;
  wrong.replace(wrong.find(R"("seat": -1)"), 10, R"("seat": 2)");
  EXPECT_EQ(RunWritten(wrong).code(), absl::StatusCode::kInvalidArgument);
  v1::Scenario scenario = Parse(kScenario);
  scenario.mutable_steps(0)->mutable_expect()->set_nobody_to_act(true);
  EXPECT_THAT(RunScenario(scenario).message(), HasSubstr("expected nobody to act, got [1]"));
}

TEST(ScenarioRunnerTest, ChecksTheResultOnTheFieldsTheFileWrites) {
  std::string json = kScenario;
  const std::string end = R"("ending": "last_player_standing")";
  json.replace(json.find(end), end.size(), R"("ending": "last_player_standing",
    "result": {"seats": [{"seat": 0, "score": 0}, {"seat": 1, "score": 1}],
               "rounds": [{"round": 1, "seatScores": [0, 1]}]})");
  EXPECT_TRUE(RunWritten(json).ok()) << RunWritten(json);
  // A score of 0 written is compared too.
  std::string wrong = json;
  wrong.replace(wrong.find(R"("score": 1)"), 10, R"("score": 0)");
  EXPECT_THAT(RunWritten(wrong).message(), HasSubstr("end: expected result"));
}

TEST(ScenarioRunnerTest, ReportsBadSettingsAndFiles) {
  v1::Scenario scenario = Parse(kScenario);
  scenario.mutable_settings()->mutable_liars_dice()->set_players(12);
  EXPECT_THAT(RunScenario(scenario).message(), HasSubstr("liars_dice.players"));
  EXPECT_EQ(LoadScenario("/nonexistent.json").status().code(), absl::StatusCode::kNotFound);
}

}  // namespace
}  // namespace kahve::tools

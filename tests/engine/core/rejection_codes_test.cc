// The status code of every refusal comes from the engine (STYLE.md's codes, issue 18): a move
// malformed in itself (an unknown name, no such train, face 7) is INVALID_ARGUMENT in every
// ruleset; a well-formed move the state forbids is FAILED_PRECONDITION.

#include <memory>
#include <set>
#include <string>
#include <vector>

#include "engine/core/game.h"
#include "engine/core/registry.h"
#include "google/protobuf/util/json_util.h"
#include "gtest/gtest.h"

namespace kahve::engine {
namespace {

// Every reason that marks a move malformed in itself; all others are FAILED_PRECONDITION.
const std::set<v1::RejectionReason> kMalformed = {
    v1::INVALID_SEAT,
    v1::WRONG_RULESET,
    v1::MISSING_ACTION,
    v1::LIARS_DICE_QUANTITY_OUT_OF_RANGE,
    v1::LIARS_DICE_FACE_OUT_OF_RANGE,
    v1::OKEY_UNKNOWN_TILE,
    v1::OKEY_NOTHING_LAID,
    v1::OKEY_MISSING_PLACE,
    v1::MEXICAN_TRAIN_UNKNOWN_TILE,
    v1::MEXICAN_TRAIN_NO_SUCH_TRAIN,
};

// The hundred of engine.proto's reasons a ruleset answers with (the generic ones are below 100).
int HundredOf(std::string_view ruleset) {
  if (ruleset == "liars_dice") return 100;
  if (ruleset == "mexican_train") return 300;
  return 200;  // okey, okey51, okey101
}

std::unique_ptr<Game> DefaultGame(const Ruleset& ruleset) {
  v1::GameSettings settings;
  settings.GetReflection()->MutableMessage(
      &settings, v1::GameSettings::descriptor()->FindFieldByNumber(ruleset.settings_case));
  v1::Deal deal;
  deal.set_seed(7);
  auto game = NewGame(settings, deal);
  EXPECT_TRUE(game.ok()) << ruleset.id << ": " << game.status();
  return std::move(game).value();
}

TEST(RejectionCodesTest, EveryReasonOfEveryRulesetHasItsCode) {
  const google::protobuf::EnumDescriptor* reasons = v1::RejectionReason_descriptor();
  for (const Ruleset& ruleset : Rulesets()) {
    const std::unique_ptr<Game> game = DefaultGame(ruleset);
    int checked = 0;
    for (int i = 0; i < reasons->value_count(); ++i) {
      const auto reason = static_cast<v1::RejectionReason>(reasons->value(i)->number());
      if (reason == v1::REJECTION_REASON_UNSPECIFIED) continue;
      if (reason >= 100 && reason / 100 * 100 != HundredOf(ruleset.id)) continue;
      const absl::StatusCode want = kMalformed.count(reason) > 0
                                        ? absl::StatusCode::kInvalidArgument
                                        : absl::StatusCode::kFailedPrecondition;
      EXPECT_EQ(game->RejectionCode(reason), want)
          << ruleset.id << " " << reasons->value(i)->name();
      ++checked;
    }
    EXPECT_GT(checked, 5) << ruleset.id;
  }
}

struct Refused {
  std::string ruleset;
  std::string move;  // kahve.v1.Move in JSON, played by the seat to act
  v1::RejectionReason reason;
};

// Malformed moves of each ruleset, then moves the state forbids.
const std::vector<Refused> kRefused = {
    {"liars_dice", R"({"liarsDice": {"bid": {"quantity": 2, "face": 7}}})",
     v1::LIARS_DICE_FACE_OUT_OF_RANGE},
    {"liars_dice", R"({"liarsDice": {"bid": {"quantity": 0, "face": 3}}})",
     v1::LIARS_DICE_QUANTITY_OUT_OF_RANGE},
    {"liars_dice", R"({"liarsDice": {}})", v1::MISSING_ACTION},
    {"okey", R"({"okey": {"discard": {"tile": "Q4"}}})", v1::OKEY_UNKNOWN_TILE},
    {"okey", R"({"okey": {"win": {"discard": "R14"}}})", v1::OKEY_UNKNOWN_TILE},
    {"okey51", R"({"okey51": {"discard": {"tile": "r6"}}})", v1::OKEY_UNKNOWN_TILE},
    {"okey51",
     R"({"okey51": {"layMelds": {"melds": [{"tiles": [{"tile": "K2", "standsFor": "Z9"}]}]}}})",
     v1::OKEY_UNKNOWN_TILE},
    // An unknown name is named before a stand-in on a tile that may be no okey in this deal.
    {"okey51",
     R"({"okey51": {"layMelds": {"melds": [{"tiles": [{"tile": "Y3", "standsFor": "Y4"}, {"tile": "Q1"}]}]}}})",
     v1::OKEY_UNKNOWN_TILE},
    {"okey51", R"({"okey51": {"addTile": {"tile": "R6", "meld": 0}}})", v1::OKEY_MISSING_PLACE},
    {"okey51", R"({"okey51": {"layPairs": {}}})", v1::OKEY_NOTHING_LAID},
    {"okey101", R"({"okey101": {"discard": {"tile": "F2"}}})", v1::OKEY_UNKNOWN_TILE},
    {"okey101", R"({"okey101": {"takeDiscard": {}}})", v1::OKEY_NOTHING_LAID},
    {"okey101", R"({"okey51": {"draw": {}}})", v1::WRONG_RULESET},
    {"mexican_train", R"({"mexicanTrain": {"play": {"tile": "12-3", "train": 0}}})",
     v1::MEXICAN_TRAIN_UNKNOWN_TILE},
    {"mexican_train", R"({"mexicanTrain": {"play": {"tile": "3-12", "train": 9}}})",
     v1::MEXICAN_TRAIN_NO_SUCH_TRAIN},
    {"liars_dice", R"({"liarsDice": {"challenge": {}}})", v1::LIARS_DICE_NOTHING_TO_CHALLENGE},
    {"okey", R"({"okey": {"draw": {}}})", v1::OKEY_ALREADY_DRAWN},
    {"okey51",
     R"({"okey51": {"addTile": {"tile": "R6", "meld": 0, "place": "OKEY_PLACE_RUN_LOW"}}})",
     v1::OKEY_NOT_OPENED},
    {"okey101",
     R"({"okey101": {"takeDiscard": {"addTile": {"tile": "R7", "meld": 0, "place": "OKEY_PLACE_RUN_LOW"}}}})",
     v1::OKEY_NO_DISCARD_TO_TAKE},
    {"mexican_train", R"({"mexicanTrain": {"draw": {}}})", v1::MEXICAN_TRAIN_NO_DRAW_IN_FIRST_TURN},
};

TEST(RejectionCodesTest, RefusedMovesCarryTheirReasonsCode) {
  for (const Refused& refused : kRefused) {
    const auto ruleset = FindRuleset(refused.ruleset);
    ASSERT_TRUE(ruleset.ok()) << refused.ruleset;
    std::unique_ptr<Game> game = DefaultGame(**ruleset);
    v1::Move move;
    ASSERT_TRUE(google::protobuf::util::JsonStringToMessage(refused.move, &move).ok())
        << refused.move;
    const int seat = game->SeatsToAct().front();
    const absl::StatusCode want = kMalformed.count(refused.reason) > 0
                                      ? absl::StatusCode::kInvalidArgument
                                      : absl::StatusCode::kFailedPrecondition;
    for (const MoveOutcome& outcome : {game->DryRun(seat, move), game->Apply(seat, move)}) {
      ASSERT_FALSE(outcome.accepted) << refused.move;
      EXPECT_EQ(outcome.rejection.reason(), refused.reason)
          << refused.move << ": " << outcome.rejection.message();
      EXPECT_EQ(outcome.code, want) << refused.move;
    }
  }
}

TEST(RejectionCodesTest, SeatsOutsideTheGameAndTurnsAreGeneric) {
  std::unique_ptr<Game> game = DefaultGame(**FindRuleset("liars_dice"));
  v1::Move bid;
  bid.mutable_liars_dice()->mutable_bid()->set_quantity(1);
  bid.mutable_liars_dice()->mutable_bid()->set_face(2);
  EXPECT_EQ(game->Apply(99, bid).code, absl::StatusCode::kInvalidArgument);
  const int waiting = (game->SeatsToAct().front() + 1) % game->num_seats();
  const MoveOutcome out_of_turn = game->Apply(waiting, bid);
  EXPECT_EQ(out_of_turn.rejection.reason(), v1::NOT_YOUR_TURN);
  EXPECT_EQ(out_of_turn.code, absl::StatusCode::kFailedPrecondition);
  const int seat = game->SeatsToAct().front();
  EXPECT_EQ(game->Apply(seat, bid).code, absl::StatusCode::kOk);
}

}  // namespace
}  // namespace kahve::engine

#include "engine/liars_dice/liars_dice_rules.h"

#include <algorithm>
#include <map>
#include <vector>

#include "gtest/gtest.h"

namespace kahve::engine::liars_dice {
namespace {

BiddingState After(int quantity, int face, int dice_on_table = 20, bool putana = false) {
  return BiddingState{
      .current = {quantity, face}, .putana_round = putana, .dice_on_table = dice_on_table};
}

BiddingState Opening(int dice_on_table = 20, bool putana = false) {
  return BiddingState{.current = {}, .putana_round = putana, .dice_on_table = dice_on_table};
}

// Seed: after "five threes" one may say six (or more) threes, five fours/fives/sixes, or more of a
// higher face.
TEST(LiarsDiceRulesTest, ThreeWaysToRaise) {
  const BiddingState state = After(5, 3);
  EXPECT_EQ(CheckBid(state, {6, 3}), Reason::kNone);
  EXPECT_EQ(CheckBid(state, {9, 3}), Reason::kNone);
  EXPECT_EQ(CheckBid(state, {5, 4}), Reason::kNone);
  EXPECT_EQ(CheckBid(state, {5, 6}), Reason::kNone);
  EXPECT_EQ(CheckBid(state, {6, 4}), Reason::kNone);
  EXPECT_EQ(CheckBid(state, {7, 6}), Reason::kNone);
}

TEST(LiarsDiceRulesTest, SameOrLowerIsNotARaise) {
  const BiddingState state = After(5, 3);
  EXPECT_EQ(CheckBid(state, {5, 3}), Reason::kNotARaise);
  EXPECT_EQ(CheckBid(state, {4, 3}), Reason::kNotARaise);
  EXPECT_EQ(CheckBid(state, {4, 6}), Reason::kNotARaise);
  EXPECT_EQ(CheckBid(state, {5, 2}), Reason::kNotARaise);
}

// RULES.md: a higher quantity with a lower face is not a raise (the seed's three ways only).
TEST(LiarsDiceRulesTest, HigherQuantityLowerFaceIsNotARaise) {
  EXPECT_EQ(CheckBid(After(5, 3), {6, 2}), Reason::kNotARaise);
  EXPECT_EQ(CheckBid(After(5, 3), {12, 2}), Reason::kNotARaise);
}

// Seed: after five or six threes one may say three ones (divide by two, round up).
TEST(LiarsDiceRulesTest, ToOnesNeedsCeilingOfHalf) {
  EXPECT_EQ(CheckBid(After(5, 3), {3, 1}), Reason::kNone);
  EXPECT_EQ(CheckBid(After(6, 3), {3, 1}), Reason::kNone);
  EXPECT_EQ(CheckBid(After(5, 3), {2, 1}), Reason::kConversionTooLow);
  EXPECT_EQ(CheckBid(After(6, 3), {2, 1}), Reason::kConversionTooLow);
  EXPECT_EQ(CheckBid(After(7, 3), {3, 1}), Reason::kConversionTooLow);
  EXPECT_EQ(CheckBid(After(7, 3), {4, 1}), Reason::kNone);
  // A minimum, not an exact value.
  EXPECT_EQ(CheckBid(After(5, 3), {8, 1}), Reason::kNone);
  EXPECT_EQ(CheckBid(After(1, 6), {1, 1}), Reason::kNone);
}

// Seed: after "two ones": three ones, or five of any other face.
TEST(LiarsDiceRulesTest, FromOnesMoreOnesOrTwiceQPlusOne) {
  const BiddingState state = After(2, 1);
  EXPECT_EQ(CheckBid(state, {3, 1}), Reason::kNone);
  EXPECT_EQ(CheckBid(state, {2, 1}), Reason::kNotARaise);
  for (int face = 2; face <= 6; ++face) {
    EXPECT_EQ(CheckBid(state, {5, face}), Reason::kNone) << face;
    EXPECT_EQ(CheckBid(state, {6, face}), Reason::kNone) << face;
    EXPECT_EQ(CheckBid(state, {4, face}), Reason::kConversionTooLow) << face;
  }
}

TEST(LiarsDiceRulesTest, FirstBidOfARoundIsNotOnes) {
  EXPECT_EQ(CheckBid(Opening(), {1, 1}), Reason::kOpeningOnes);
  EXPECT_EQ(CheckBid(Opening(), {4, 1}), Reason::kOpeningOnes);
  EXPECT_EQ(CheckBid(Opening(), {1, 2}), Reason::kNone);
  EXPECT_EQ(CheckBid(Opening(), {20, 6}), Reason::kNone);
}

TEST(LiarsDiceRulesTest, BidsStayWithinTheDiceOnTheTable) {
  EXPECT_EQ(CheckBid(Opening(10), {10, 6}), Reason::kNone);
  EXPECT_EQ(CheckBid(Opening(10), {11, 2}), Reason::kQuantityAboveDice);
  EXPECT_EQ(CheckBid(After(2, 1, 4), {5, 3}), Reason::kQuantityAboveDice);
  EXPECT_EQ(CheckBid(Opening(10), {0, 2}), Reason::kQuantityOutOfRange);
  EXPECT_EQ(CheckBid(Opening(10), {-3, 2}), Reason::kQuantityOutOfRange);
  EXPECT_EQ(CheckBid(Opening(10), {2, 0}), Reason::kFaceOutOfRange);
  EXPECT_EQ(CheckBid(Opening(10), {2, 7}), Reason::kFaceOutOfRange);
}

// Путана: ones are not wild, so they may open; the face is fixed afterwards; no conversions.
TEST(LiarsDiceRulesTest, PutanaRoundFixesTheFace) {
  EXPECT_EQ(CheckBid(Opening(10, true), {1, 1}), Reason::kNone);
  EXPECT_EQ(CheckBid(Opening(10, true), {2, 5}), Reason::kNone);
  const BiddingState sixes = After(1, 6, 10, true);
  EXPECT_EQ(CheckBid(sixes, {2, 6}), Reason::kNone);
  EXPECT_EQ(CheckBid(sixes, {5, 6}), Reason::kNone);
  EXPECT_EQ(CheckBid(sixes, {1, 6}), Reason::kNotARaise);
  EXPECT_EQ(CheckBid(sixes, {1, 1}), Reason::kPutanaFaceFixed);
  EXPECT_EQ(CheckBid(sixes, {3, 2}), Reason::kPutanaFaceFixed);
  const BiddingState ones = After(2, 1, 10, true);
  EXPECT_EQ(CheckBid(ones, {3, 1}), Reason::kNone);
  EXPECT_EQ(CheckBid(ones, {5, 2}), Reason::kPutanaFaceFixed);
}

TEST(LiarsDiceRulesTest, ChallengeNeedsABid) {
  EXPECT_EQ(CheckAction(Opening(), kChallenge), Reason::kNothingToChallenge);
  EXPECT_EQ(CheckAction(After(3, 4), kChallenge), Reason::kNone);
}

TEST(LiarsDiceRulesTest, PutanaOnlyWhenOffered) {
  BiddingState state = Opening();
  EXPECT_EQ(CheckAction(state, kDeclarePutana), Reason::kPutanaNotAllowed);
  state.may_declare_putana = true;
  EXPECT_EQ(CheckAction(state, kDeclarePutana), Reason::kNone);
}

// Seed: five threes and two ones on the table make seven threes.
TEST(LiarsDiceRulesTest, OnesAreWildWhenCounting) {
  int faces[kFaces + 1] = {0, 2, 1, 5, 0, 0, 3};
  EXPECT_EQ(CountForBid(faces, 3, /*ones_wild=*/true), 7);
  EXPECT_EQ(CountForBid(faces, 3, /*ones_wild=*/false), 5);
  // A bid of ones counts ones once.
  EXPECT_EQ(CountForBid(faces, 1, /*ones_wild=*/true), 2);
  EXPECT_EQ(CountForBid(faces, 6, /*ones_wild=*/true), 5);
}

TEST(LiarsDiceRulesTest, ActionEncodingRoundTrips) {
  for (int quantity = 1; quantity <= kMaxDiceOnTable; ++quantity) {
    for (int face = 1; face <= kFaces; ++face) {
      const Action action = BidAction(quantity, face);
      ASSERT_TRUE(IsBid(action));
      ASSERT_LT(action, kMaxActions);
      EXPECT_EQ(ActionBid(action), (Bid{quantity, face}));
    }
  }
  EXPECT_FALSE(IsBid(kChallenge));
  EXPECT_FALSE(IsBid(kDeclarePutana));
}

// The generator agrees with the checker on every action, and lists legal ones ascending.
TEST(LiarsDiceRulesTest, LegalActionsAreExactlyTheAcceptedOnes) {
  std::vector<BiddingState> states = {Opening(10),     Opening(7, true), After(3, 4, 10),
                                      After(2, 1, 10), After(5, 6, 30),  After(4, 2, 9, true),
                                      After(10, 6, 10)};
  BiddingState with_putana = Opening(8);
  with_putana.may_declare_putana = true;
  states.push_back(with_putana);
  for (const BiddingState& state : states) {
    Action legal[kMaxActions];
    const int count = LegalActions(state, legal);
    ASSERT_TRUE(std::is_sorted(legal, legal + count));
    ASSERT_EQ(std::adjacent_find(legal, legal + count), legal + count);
    for (int action = 0; action < kMaxActions; ++action) {
      const bool listed = std::binary_search(legal, legal + count, static_cast<Action>(action));
      EXPECT_EQ(listed, CheckAction(state, static_cast<Action>(action)) == Reason::kNone) << action;
    }
  }
}

// The random bot's draw covers exactly the legal actions, each about equally often.
TEST(LiarsDiceRulesTest, RandomLegalActionIsUniformOverTheLegalActions) {
  BiddingState with_putana = Opening(6);
  with_putana.may_declare_putana = true;
  for (const BiddingState& state :
       {After(3, 4, 10), After(2, 1, 8), with_putana, After(3, 5, 6, true)}) {
    Action legal[kMaxActions];
    const int count = LegalActions(state, legal);
    std::map<Action, int> drawn;
    Rng rng(17);
    const int draws = 2000 * count;
    for (int i = 0; i < draws; ++i) ++drawn[RandomLegalAction(state, rng)];
    ASSERT_EQ(static_cast<int>(drawn.size()), count);
    for (int i = 0; i < count; ++i) {
      ASSERT_EQ(drawn.count(legal[i]), 1u) << legal[i];
      EXPECT_NEAR(drawn[legal[i]], 2000, 250) << legal[i];
    }
  }
}

// At the top bid only a challenge or the ones conversion remain.
TEST(LiarsDiceRulesTest, TopBidLeavesChallengeAndOnes) {
  Action legal[kMaxActions];
  const int count = LegalActions(After(10, 6, 10), legal);
  std::vector<Action> actions(legal, legal + count);
  std::vector<Action> expected = {kChallenge};
  for (int quantity = 5; quantity <= 10; ++quantity) expected.push_back(BidAction(quantity, 1));
  std::sort(expected.begin(), expected.end());
  EXPECT_EQ(actions, expected);
}

}  // namespace
}  // namespace kahve::engine::liars_dice

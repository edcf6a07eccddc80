#include "engine/liars_dice/liars_dice.h"

#include <array>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace kahve::engine::liars_dice {
namespace {

using ::testing::HasSubstr;

using Rolls = std::vector<std::vector<std::vector<int>>>;

State Deal(int players, int dice, Rolls rolls, int first_bidder, int max_rounds = 0) {
  Preset preset{.rolls = std::move(rolls), .first_bidder = first_bidder};
  return State(Settings{.players = players, .dice_per_player = dice, .max_rounds = max_rounds},
               /*seed=*/1, &preset);
}

void Play(State& state, Action action) {
  ASSERT_EQ(state.Check(action), Reason::kNone) << action;
  state.Apply(action, nullptr);
  state.CheckInvariants();
}

TEST(LiarsDiceSettingsTest, RangesAreEnforcedWithTheFieldNamed) {
  EXPECT_TRUE(ValidateSettings({.players = 2, .dice_per_player = 1}).ok());
  EXPECT_TRUE(ValidateSettings({.players = 10, .dice_per_player = 5}).ok());
  const absl::Status too_few = ValidateSettings({.players = 1, .dice_per_player = 5});
  EXPECT_EQ(too_few.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(too_few.message(), HasSubstr("liars_dice.players must be in 2..10, got 1"));
  EXPECT_THAT(ValidateSettings({.players = 11, .dice_per_player = 5}).message(),
              HasSubstr("got 11"));
  EXPECT_THAT(ValidateSettings({.players = 4, .dice_per_player = 0}).message(),
              HasSubstr("liars_dice.dice_per_player must be in 1..5, got 0"));
  EXPECT_THAT(ValidateSettings({.players = 4, .dice_per_player = 6}).message(), HasSubstr("got 6"));
  EXPECT_THAT(ValidateSettings({.players = 4, .dice_per_player = 5, .max_rounds = -1}).message(),
              HasSubstr("liars_dice.max_rounds must be >= 0"));
}

TEST(LiarsDiceTest, SameSeedSameDealDifferentSeedDifferentDeal) {
  const Settings settings{.players = 4, .dice_per_player = 5};
  EXPECT_TRUE(State(settings, 77) == State(settings, 77));
  EXPECT_FALSE(State(settings, 77) == State(settings, 78));
}

// Pinned: seed 2026 for four players; changes only if the rules of chance change.
TEST(LiarsDiceTest, PinnedDeal) {
  const State state(Settings{.players = 4, .dice_per_player = 5}, 2026);
  std::vector<std::vector<int>> dice;
  for (int seat = 0; seat < 4; ++seat) {
    dice.emplace_back(state.dice(seat).begin(), state.dice(seat).begin() + state.dice_count(seat));
  }
  EXPECT_EQ(state.to_act(), 2);
  EXPECT_EQ(dice, (std::vector<std::vector<int>>{
                      {2, 5, 5, 5, 6}, {2, 5, 6, 6, 6}, {2, 3, 5, 5, 6}, {1, 2, 2, 3, 5}}));
}

// Seed example: a bid of five threes, four threes and no ones on the table: the bidder loses.
TEST(LiarsDiceTest, FalseBidCostsTheBidderADie) {
  State state = Deal(2, 5, {{{3, 3, 2, 4, 5}, {3, 3, 6, 6, 2}}}, /*first_bidder=*/0);
  Play(state, BidAction(5, 3));
  Play(state, kChallenge);
  EXPECT_EQ(state.dice_count(0), 4);
  EXPECT_EQ(state.dice_count(1), 5);
  EXPECT_EQ(state.reveal_counted(), 4);
  EXPECT_FALSE(state.reveal_bid_stood());
  EXPECT_EQ(state.to_act(), 0) << "the loser starts the next round";
}

// Seed example: ten twos bid and ten or more there (ones wild): the challenger loses.
TEST(LiarsDiceTest, TrueBidCostsTheChallengerADie) {
  State state = Deal(2, 5, {{{2, 2, 1, 1, 2}, {1, 2, 2, 2, 1}}}, /*first_bidder=*/1);
  Play(state, BidAction(4, 2));
  Play(state, BidAction(10, 2));
  Play(state, kChallenge);
  EXPECT_EQ(state.reveal_counted(), 10);
  EXPECT_TRUE(state.reveal_bid_stood());
  EXPECT_EQ(state.dice_count(1), 4) << "seat 1 challenged a true bid";
  EXPECT_EQ(state.dice_count(0), 5);
  EXPECT_EQ(state.to_act(), 1);
}

TEST(LiarsDiceTest, OnesBidCountsOnesOnce) {
  State state = Deal(2, 3, {{{1, 1, 4}, {1, 5, 5}}}, /*first_bidder=*/0);
  Play(state, BidAction(2, 5));
  Play(state, BidAction(3, 1));
  Play(state, kChallenge);
  EXPECT_EQ(state.reveal_counted(), 3);
  EXPECT_TRUE(state.reveal_bid_stood());
}

TEST(LiarsDiceTest, NextSeatStartsWhenTheLoserIsOut) {
  // Three players, one die each; seat 1 bids a false bid and is eliminated.
  State state = Deal(3, 1, {{{2}, {3}, {4}}}, /*first_bidder=*/1);
  Play(state, BidAction(3, 6));
  Play(state, kChallenge);  // seat 2 challenges; no sixes: seat 1 loses its only die
  EXPECT_EQ(state.dice_count(1), 0);
  EXPECT_EQ(state.elimination_rank(1), 3);
  EXPECT_EQ(state.to_act(), 2) << "next seat still in after the eliminated loser";
  EXPECT_EQ(state.starter(), 2);
}

TEST(LiarsDiceTest, TurnsSkipSeatsThatAreOut) {
  State state = Deal(3, 1, {{{2}, {3}, {4}}, {{5}, {}, {5}}}, /*first_bidder=*/1);
  Play(state, BidAction(3, 6));
  Play(state, kChallenge);
  Play(state, BidAction(1, 5));  // seat 2 opens
  EXPECT_EQ(state.to_act(), 0);
  Play(state, BidAction(1, 6));
  EXPECT_EQ(state.to_act(), 2) << "seat 1 is out and skipped";
}

TEST(LiarsDiceTest, LastPlayerWithDiceWinsOthersRankByElimination) {
  State state = Deal(3, 1, {{{2}, {3}, {4}}, {{5}, {}, {5}}}, /*first_bidder=*/1);
  Play(state, BidAction(3, 6));
  Play(state, kChallenge);       // seat 1 out: rank 3
  Play(state, BidAction(2, 5));  // seat 2: two fives, true
  Play(state, kChallenge);       // seat 0 challenges and loses its die: rank 2
  ASSERT_TRUE(state.over());
  EXPECT_EQ(state.to_act(), -1);
  const auto ranks = state.Ranks();
  EXPECT_EQ(ranks[0], 2);
  EXPECT_EQ(ranks[1], 3);
  EXPECT_EQ(ranks[2], 1);
}

// The player who goes from two dice to one may open the next round as Путана.
TEST(LiarsDiceTest, PutanaOfferedToThePlayerJustReducedToOneDie) {
  State state = Deal(2, 2, {{{3, 4}, {5, 6}}, {{2}, {5, 5}}}, /*first_bidder=*/0);
  Play(state, BidAction(2, 3));
  Play(state, kChallenge);  // one three and no ones: seat 0 is down to one die
  ASSERT_EQ(state.dice_count(0), 1);
  EXPECT_EQ(state.to_act(), 0);
  EXPECT_TRUE(state.bidding().may_declare_putana);
  Play(state, kDeclarePutana);
  EXPECT_TRUE(state.bidding().putana_round);
  EXPECT_TRUE(state.putana_used(0));
  EXPECT_EQ(state.to_act(), 0) << "the declarer still opens the bidding";
  EXPECT_EQ(state.Check(kDeclarePutana), Reason::kPutanaNotAllowed) << "once";
}

TEST(LiarsDiceTest, PutanaRoundOnesAreNotWild) {
  // Round 2 is Путана; seat 1 holds 1,5: with wild ones there would be three fives.
  State state = Deal(2, 2, {{{3, 4}, {5, 6}}, {{5}, {1, 5}}}, /*first_bidder=*/0);
  Play(state, BidAction(2, 3));
  Play(state, kChallenge);
  Play(state, kDeclarePutana);
  Play(state, BidAction(2, 5));
  Play(state, BidAction(3, 5));
  Play(state, kChallenge);
  EXPECT_EQ(state.reveal_counted(), 2);
  EXPECT_FALSE(state.reveal_bid_stood());
  EXPECT_EQ(state.dice_count(1), 1) << "seat 1 bid three fives and there were two";
}

TEST(LiarsDiceTest, PutanaWindowClosesAtTheFirstBid) {
  State state = Deal(2, 2, {{{3, 4}, {5, 6}}}, /*first_bidder=*/0);
  Play(state, BidAction(2, 3));
  Play(state, kChallenge);
  Play(state, BidAction(1, 4));
  EXPECT_FALSE(state.bidding().may_declare_putana);
  Play(state, kChallenge);
  EXPECT_FALSE(state.bidding().putana_round);
}

TEST(LiarsDiceTest, NormalPlayResumesAfterThePutanaRound) {
  State state = Deal(3, 2, {{{3, 4}, {5, 6}, {5, 6}}, {{2}, {2, 3}, {6, 6}}, {{1}, {1, 3}, {6, 6}}},
                     /*first_bidder=*/0);
  Play(state, BidAction(2, 3));
  Play(state, kChallenge);  // seat 1 challenges; one three: seat 0 down to one die
  Play(state, kDeclarePutana);
  Play(state, BidAction(1, 2));
  Play(state, BidAction(2, 2));
  Play(state, kChallenge);  // seat 2 challenges; two twos: seat 2 loses a die, down to one
  EXPECT_FALSE(state.bidding().putana_round);
  EXPECT_EQ(state.to_act(), 2);
  EXPECT_TRUE(state.bidding().may_declare_putana) << "seat 2 was just reduced to one die";
  Play(state, BidAction(2, 6));
  Play(state, BidAction(2, 1));  // seat 0: conversions to ones are back
  EXPECT_EQ(state.Check(BidAction(1, 1)), Reason::kNotARaise);
  EXPECT_EQ(state.Check(BidAction(4, 6)), Reason::kConversionTooLow) << "from ones needs 5";
  Play(state, kChallenge);  // seat 1 challenges two ones: two ones there
  EXPECT_EQ(state.reveal_counted(), 2);
}

TEST(LiarsDiceTest, NoPutanaWithOneDieFromTheStart) {
  State state = Deal(3, 1, {{{2}, {3}, {4}}}, /*first_bidder=*/0);
  Play(state, BidAction(3, 6));
  Play(state, kChallenge);
  EXPECT_FALSE(state.bidding().may_declare_putana);
  EXPECT_EQ(state.Check(kDeclarePutana), Reason::kPutanaNotAllowed);
}

TEST(LiarsDiceTest, OnlyTheReducedPlayerMayDeclare) {
  State state = Deal(3, 2, {{{3, 4}, {5, 6}, {5, 6}}}, /*first_bidder=*/0);
  EXPECT_EQ(state.Check(kDeclarePutana), Reason::kPutanaNotAllowed) << "nobody reduced yet";
  Play(state, BidAction(1, 6));
  Play(state, BidAction(5, 6));
  Play(state, kChallenge);  // seat 2 challenges five sixes (two there): seat 1 to one die
  EXPECT_EQ(state.to_act(), 1);
  EXPECT_TRUE(state.bidding().may_declare_putana);
}

TEST(LiarsDiceTest, RoundLimitRanksByDiceLeftWithTies) {
  State state =
      Deal(3, 3, {{{2, 2, 2}, {3, 3, 3}, {4, 4, 4}}}, /*first_bidder=*/0, /*max_rounds=*/1);
  Play(state, BidAction(9, 6));
  Play(state, kChallenge);
  ASSERT_TRUE(state.over());
  const auto ranks = state.Ranks();
  EXPECT_EQ(ranks[0], 3);
  EXPECT_EQ(ranks[1], 1);
  EXPECT_EQ(ranks[2], 1);
}

TEST(LiarsDiceTest, FirstBidderIsDrawnByLotFromTheSeed) {
  std::array<int, 4> first{};
  for (uint64_t seed = 0; seed < 4000; ++seed) {
    ++first[State(Settings{.players = 4, .dice_per_player = 5}, seed).to_act()];
  }
  for (int count : first) EXPECT_NEAR(count, 1000, 150);
}

TEST(LiarsDiceTest, ViewHoldsOnlyOwnDice) {
  State state = Deal(3, 2, {{{3, 4}, {5, 6}, {1, 2}}}, /*first_bidder=*/0);
  const SeatView view = state.ViewFor(1);
  EXPECT_EQ(view.my_dice_count, 2);
  EXPECT_EQ(view.my_dice[0], 5);
  EXPECT_EQ(view.my_dice[1], 6);
  EXPECT_EQ(view.dice_counts[0], 2);
  EXPECT_EQ(state.ViewFor(-1).my_dice_count, 0);
}

TEST(LiarsDiceTest, ResetDealsLikeANewState) {
  const Settings settings{.players = 3, .dice_per_player = 4};
  State reused(settings, 5);
  Action legal[kMaxActions];
  reused.LegalActions(legal);
  reused.Apply(legal[3], nullptr);
  reused.Reset(123);
  EXPECT_TRUE(reused == State(settings, 123));
}

}  // namespace
}  // namespace kahve::engine::liars_dice

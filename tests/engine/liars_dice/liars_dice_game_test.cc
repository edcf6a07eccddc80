// Liar's dice through the engine interface: settings, presets, every rejection reason with its
// message, events and their audiences, views.

#include "engine/liars_dice/liars_dice_game.h"

#include <memory>
#include <vector>

#include "engine/core/registry.h"
#include "gmock/gmock.h"
#include "google/protobuf/util/message_differencer.h"
#include "gtest/gtest.h"

namespace kahve::engine::liars_dice {
namespace {

using google::protobuf::util::MessageDifferencer;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

v1::GameSettings Settings(int players, int dice) {
  v1::GameSettings settings;
  settings.mutable_liars_dice()->set_players(players);
  settings.mutable_liars_dice()->set_dice_per_player(dice);
  return settings;
}

// A game with fixed rolls: rolls[round][seat].
std::unique_ptr<Game> Fixed(int players, int dice, std::vector<std::vector<std::vector<int>>> rolls,
                            int first_bidder) {
  v1::Deal deal;
  deal.set_seed(3);
  v1::LiarsDicePreset* preset = deal.mutable_liars_dice();
  preset->set_first_bidder(first_bidder);
  for (const auto& round : rolls) {
    v1::LiarsDiceRoll* roll = preset->add_rolls();
    for (const auto& seat : round) roll->add_seats()->mutable_dice()->Add(seat.begin(), seat.end());
  }
  return std::move(NewGame(Settings(players, dice), deal)).value();
}

void ExpectRejected(Game& game, int seat, const v1::Move& move, v1::RejectionReason reason,
                    const std::string& message_part) {
  const std::unique_ptr<Game> before = game.Clone();
  const MoveOutcome outcome = game.Apply(seat, move);
  EXPECT_FALSE(outcome.accepted);
  EXPECT_EQ(outcome.rejection.reason(), reason) << outcome.rejection.message();
  EXPECT_THAT(outcome.rejection.message(), HasSubstr(message_part));
  EXPECT_TRUE(outcome.events.empty());
  EXPECT_TRUE(game.SameState(*before)) << "a rejected move changes nothing";
}

void Accept(Game& game, int seat, const v1::Move& move) {
  const MoveOutcome outcome = game.Apply(seat, move);
  ASSERT_TRUE(outcome.accepted) << outcome.rejection.message();
}

TEST(LiarsDiceCodecTest, InvalidSettingsAreRefusedWithTheField) {
  v1::Deal deal;
  for (const auto& [players, dice, field] :
       std::vector<std::tuple<int, int, std::string>>{{1, 5, "players"},
                                                      {11, 5, "players"},
                                                      {-2, 5, "players"},
                                                      {4, 6, "dice_per_player"},
                                                      {4, -1, "dice_per_player"}}) {
    const auto game = NewGame(Settings(players, dice), deal);
    ASSERT_FALSE(game.ok());
    EXPECT_EQ(game.status().code(), absl::StatusCode::kInvalidArgument);
    EXPECT_THAT(game.status().message(), HasSubstr("liars_dice." + field));
  }
  v1::GameSettings negative_rounds = Settings(4, 5);
  negative_rounds.mutable_liars_dice()->set_max_rounds(-1);
  EXPECT_THAT(NewGame(negative_rounds, deal).status().message(), HasSubstr("max_rounds"));
  EXPECT_EQ(engine::NewGame(v1::GameSettings(), deal).status().code(),
            absl::StatusCode::kInvalidArgument);
}

TEST(LiarsDiceCodecTest, UnsetMeansDefaultAndSettingsAreStoredComplete) {
  v1::GameSettings unset;
  unset.mutable_liars_dice();
  const auto game = NewGame(unset, v1::Deal());
  ASSERT_TRUE(game.ok()) << game.status();
  EXPECT_EQ((*game)->num_seats(), 4);
  EXPECT_EQ((*game)->settings().liars_dice().players(), 4);
  EXPECT_EQ((*game)->settings().liars_dice().dice_per_player(), 5);
}

TEST(LiarsDiceCodecTest, InvalidPresetsAreRefused) {
  auto with_preset = [](auto fill) {
    v1::Deal deal;
    fill(deal.mutable_liars_dice());
    return NewGame(Settings(2, 2), deal).status();
  };
  EXPECT_THAT(with_preset([](v1::LiarsDicePreset* p) { p->set_first_bidder(2); }).message(),
              HasSubstr("first_bidder must be in 0..1"));
  EXPECT_THAT(with_preset([](v1::LiarsDicePreset* p) {
                p->add_rolls()->add_seats()->add_dice(7);
              }).message(),
              HasSubstr("faces are 1..6"));
  EXPECT_THAT(with_preset([](v1::LiarsDicePreset* p) {
                auto* seat = p->add_rolls()->add_seats();
                for (int i = 0; i < 3; ++i) seat->add_dice(2);
              }).message(),
              HasSubstr("more than 2 dice"));
  EXPECT_THAT(with_preset([](v1::LiarsDicePreset* p) {
                auto* roll = p->add_rolls();
                for (int i = 0; i < 3; ++i) roll->add_seats();
              }).message(),
              HasSubstr("3 seats for 2 players"));
}

TEST(LiarsDiceCodecTest, EveryRejectionReason) {
  std::unique_ptr<Game> game = Fixed(3, 2, {{{3, 4}, {5, 6}, {1, 1}}, {{2}, {5, 5}, {2, 2}}}, 0);
  ExpectRejected(*game, 3, BidMove(1, 2), v1::INVALID_SEAT, "seat 3 is not in 0..2");
  ExpectRejected(*game, -1, BidMove(1, 2), v1::INVALID_SEAT, "seat -1");
  ExpectRejected(*game, 1, BidMove(1, 2), v1::NOT_YOUR_TURN, "seat 1 may not act now");
  ExpectRejected(*game, 0, v1::Move(), v1::WRONG_RULESET, "not a move of this game's ruleset");
  v1::Move no_action;
  no_action.mutable_liars_dice();
  ExpectRejected(*game, 0, no_action, v1::MISSING_ACTION, "sets none of");
  ExpectRejected(*game, 0, BidMove(0, 3), v1::LIARS_DICE_QUANTITY_OUT_OF_RANGE, "at least 1");
  ExpectRejected(*game, 0, BidMove(7, 3), v1::LIARS_DICE_QUANTITY_ABOVE_DICE,
                 "6 dice on the table");
  ExpectRejected(*game, 0, BidMove(2147483647, 3), v1::LIARS_DICE_QUANTITY_ABOVE_DICE, "exceeds");
  ExpectRejected(*game, 0, BidMove(2, 0), v1::LIARS_DICE_FACE_OUT_OF_RANGE, "face must be 1..6");
  ExpectRejected(*game, 0, BidMove(2, 9), v1::LIARS_DICE_FACE_OUT_OF_RANGE, "got 9");
  ExpectRejected(*game, 0, BidMove(2, 1), v1::LIARS_DICE_OPENING_ONES, "may not be ones");
  ExpectRejected(*game, 0, ChallengeMove(), v1::LIARS_DICE_NOTHING_TO_CHALLENGE, "no bid");
  ExpectRejected(*game, 0, DeclarePutanaMove(), v1::LIARS_DICE_PUTANA_NOT_ALLOWED, "just reduced");
  Accept(*game, 0, BidMove(4, 3));
  ExpectRejected(*game, 1, BidMove(4, 2), v1::LIARS_DICE_NOT_A_RAISE, "4x2 does not beat 4x3");
  ExpectRejected(*game, 1, BidMove(1, 1), v1::LIARS_DICE_CONVERSION_TOO_LOW, "at least 2 ones");
  Accept(*game, 1, BidMove(2, 1));
  ExpectRejected(*game, 2, BidMove(4, 6), v1::LIARS_DICE_CONVERSION_TOO_LOW,
                 "at least 5 of another face");
  Accept(*game, 2, ChallengeMove());  // two ones: the bid stands, seat 2 loses a die
  EXPECT_TRUE(game->View(0).liars_dice().putana_offered()) << "public: everyone sees the offer";
  // Seat 2 (now one die) starts and may declare; in its Путана round the face is fixed.
  Accept(*game, 2, DeclarePutanaMove());
  EXPECT_FALSE(game->View(0).liars_dice().putana_offered());
  EXPECT_TRUE(game->View(0).liars_dice().putana_round());
  Accept(*game, 2, BidMove(1, 5));
  ExpectRejected(*game, 0, BidMove(2, 6), v1::LIARS_DICE_PUTANA_FACE_FIXED, "face stays 5");
  ExpectRejected(*game, 0, DeclarePutanaMove(), v1::LIARS_DICE_PUTANA_NOT_ALLOWED, "Putana");
}

TEST(LiarsDiceCodecTest, RejectionTextNamesNoHiddenDice) {
  std::unique_ptr<Game> game = Fixed(2, 5, {{{6, 6, 6, 6, 6}, {4, 4, 4, 4, 4}}}, 0);
  Accept(*game, 0, BidMove(3, 6));
  for (const v1::Move& move : {BidMove(2, 6), BidMove(11, 2), BidMove(1, 1), BidMove(3, 5)}) {
    const MoveOutcome outcome = game->Apply(1, move);
    ASSERT_FALSE(outcome.accepted);
    EXPECT_THAT(outcome.rejection.message(), ::testing::Not(HasSubstr("4x4")));
    EXPECT_THAT(outcome.rejection.message(), ::testing::Not(HasSubstr("5x6")));
  }
}

TEST(LiarsDiceCodecTest, DealEventsAnnounceTheRoundAndRollPrivately) {
  std::unique_ptr<Game> game = Fixed(2, 2, {{{3, 4}, {5, 6}}}, 1);
  const std::vector<v1::Event>& events = game->deal_events();
  ASSERT_EQ(events.size(), 3u);
  EXPECT_FALSE(events[0].has_private_to());
  EXPECT_EQ(events[0].liars_dice().round_started().starter(), 1);
  EXPECT_THAT(events[0].liars_dice().round_started().dice_counts(), ElementsAre(2, 2));
  EXPECT_EQ(events[1].private_to(), 0);
  EXPECT_THAT(events[1].liars_dice().dice_rolled().dice(), ElementsAre(3, 4));
  EXPECT_EQ(events[2].private_to(), 1);
  EXPECT_THAT(events[2].liars_dice().dice_rolled().dice(), ElementsAre(5, 6));
  EXPECT_EQ(VisibleTo(events, 0).size(), 2u);
  EXPECT_EQ(VisibleTo(events, kSpectator).size(), 1u);
}

TEST(LiarsDiceCodecTest, ChallengeEventsRevealAndStartTheNextRound) {
  std::unique_ptr<Game> game = Fixed(2, 2, {{{3, 4}, {5, 6}}, {{2}, {1, 1}}}, 0);
  Accept(*game, 0, BidMove(2, 3));
  const MoveOutcome outcome = game->Apply(1, ChallengeMove());
  ASSERT_TRUE(outcome.accepted);
  std::vector<std::string> kinds;
  for (const v1::Event& event : outcome.events) {
    EXPECT_EQ(event.move_number(), 2u);
    if (event.has_game_over()) {
      kinds.push_back("game_over");
      continue;
    }
    kinds.push_back(event.liars_dice()
                        .GetDescriptor()
                        ->FindFieldByNumber(event.liars_dice().event_case())
                        ->name());
  }
  EXPECT_THAT(kinds, ElementsAre("challenged", "dice_revealed", "die_lost", "round_started",
                                 "dice_rolled", "dice_rolled"));
  const auto& reveal = outcome.events[1].liars_dice().dice_revealed();
  EXPECT_THAT(reveal.dice(0).dice(), ElementsAre(3, 4));
  EXPECT_THAT(reveal.dice(1).dice(), ElementsAre(5, 6));
  EXPECT_EQ(reveal.counted(), 1);
  EXPECT_FALSE(reveal.bid_stood());
  EXPECT_EQ(outcome.events[2].seat(), 0);
  EXPECT_EQ(outcome.events[2].liars_dice().die_lost().dice_left(), 1);
  EXPECT_EQ(outcome.events[4].private_to(), 0);
  EXPECT_THAT(outcome.events[4].liars_dice().dice_rolled().dice(), ElementsAre(2));
}

// Previewing a challenge must not be a way to see the dice: the preview stops at the challenge.
TEST(LiarsDiceCodecTest, DryRunOfAChallengeRevealsNothing) {
  std::unique_ptr<Game> game = Fixed(2, 2, {{{3, 4}, {5, 6}}}, 0);
  Accept(*game, 0, BidMove(2, 3));
  const std::unique_ptr<Game> before = game->Clone();
  const MoveOutcome preview = game->DryRun(1, ChallengeMove());
  EXPECT_TRUE(preview.accepted);
  EXPECT_TRUE(preview.preview_truncated);
  ASSERT_EQ(preview.events.size(), 1u);
  EXPECT_TRUE(preview.events[0].liars_dice().has_challenged());
  EXPECT_TRUE(game->SameState(*before));
  // A bid reveals nothing: its preview is whole.
  const MoveOutcome bid = game->DryRun(1, BidMove(3, 3));
  EXPECT_FALSE(bid.preview_truncated);
  ASSERT_EQ(bid.events.size(), 1u);
  EXPECT_EQ(bid.events[0].liars_dice().bid_made().bid().quantity(), 3);
}

TEST(LiarsDiceCodecTest, ViewsShowOwnDicePublicFactsAndTheLastReveal) {
  std::unique_ptr<Game> game = Fixed(3, 2, {{{3, 4}, {5, 6}, {2, 2}}, {{1, 3}, {5}, {2, 2}}}, 0);
  Accept(*game, 0, BidMove(2, 5));
  const v1::View view = game->View(2);
  EXPECT_EQ(view.seat(), 2);
  EXPECT_THAT(view.to_act(), ElementsAre(1));
  EXPECT_THAT(view.liars_dice().my_dice(), ElementsAre(2, 2));
  EXPECT_THAT(view.liars_dice().dice_counts(), ElementsAre(2, 2, 2));
  EXPECT_EQ(view.liars_dice().dice_on_table(), 6);
  ASSERT_EQ(view.liars_dice().bids_size(), 1);
  EXPECT_EQ(view.liars_dice().bids(0).seat(), 0);
  EXPECT_FALSE(view.liars_dice().has_last_reveal());
  EXPECT_TRUE(game->View(kSpectator).liars_dice().my_dice().empty());

  Accept(*game, 1, BidMove(3, 6));
  Accept(*game, 2, ChallengeMove());  // 5,6 and ones: one six: seat 1 loses
  const v1::View after = game->View(0);
  EXPECT_THAT(after.liars_dice().my_dice(), ElementsAre(1, 3));
  EXPECT_THAT(after.liars_dice().last_reveal().dice(2).dice(), ElementsAre(2, 2));
  EXPECT_EQ(after.liars_dice().round(), 2);
  EXPECT_EQ(after.liars_dice().bids_size(), 0);
}

TEST(LiarsDiceCodecTest, LegalMovesOnlyForTheSeatToActInActionOrder) {
  std::unique_ptr<Game> game = Fixed(2, 1, {{{3}, {5}}}, 0);
  EXPECT_TRUE(game->LegalMoves(1).empty());
  const std::vector<v1::Move> moves = game->LegalMoves(0);
  ASSERT_EQ(moves.size(), 10u);  // quantities 1..2, faces 2..6
  EXPECT_TRUE(MessageDifferencer::Equals(moves[0], BidMove(1, 2)));
  EXPECT_TRUE(MessageDifferencer::Equals(moves[9], BidMove(2, 6)));
}

TEST(LiarsDiceCodecTest, ResultRanksScoresAndEnding) {
  std::unique_ptr<Game> game = Fixed(2, 1, {{{3}, {5}}}, 0);
  Accept(*game, 0, BidMove(2, 3));
  const MoveOutcome outcome = game->Apply(1, ChallengeMove());
  ASSERT_TRUE(outcome.accepted);
  ASSERT_TRUE(game->IsOver());
  ASSERT_TRUE(outcome.events.back().has_game_over());
  const v1::Result result = game->Result();
  EXPECT_EQ(result.ending(), "last_player_standing");
  EXPECT_EQ(result.seats(0).rank(), 2);
  EXPECT_EQ(result.seats(1).rank(), 1);
  EXPECT_EQ(result.seats(1).score(), 1);
  EXPECT_EQ(result.seats(1).team(), 1);
  EXPECT_TRUE(MessageDifferencer::Equals(outcome.events.back().game_over().result(), result));
  EXPECT_EQ(game->Apply(1, BidMove(1, 2)).rejection.reason(), v1::GAME_OVER);
}

TEST(LiarsDiceCodecTest, BotMoveIsLegalAndOnlyForTheSeatToAct) {
  std::unique_ptr<Game> game = Fixed(3, 2, {{{3, 4}, {5, 6}, {2, 2}}}, 0);
  EXPECT_EQ(game->BotMove(1, "random", 1).status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(game->BotMove(0, "clever", 1).status().code(), absl::StatusCode::kNotFound);
  for (const std::string& kind : game->BotKinds()) {
    const auto move = game->BotMove(0, kind, 1);
    ASSERT_TRUE(move.ok());
    EXPECT_TRUE(game->DryRun(0, *move).accepted);
  }
}

}  // namespace
}  // namespace kahve::engine::liars_dice

// okey101's settlement (seed 003, "Подсчёт очков" and "Дополнительные штрафы"), seat by seat,
// with the seed's own examples: an okey finish gives -202 and 404 to seats not opened; a one-turn
// okey finish -404 and 808.

#include "engine/okey101/okey101_settlement.h"

#include "engine/okey101/okey101.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace kahve::engine::okey101 {
namespace {

using okey::FaceCounts;
using okey_laying::DealEnd;
using okey_laying::Finish;
using okey_laying::Opened;
using ::testing::ElementsAre;

FaceCounts Left(std::initializer_list<const char*> names, int okeys = 0) {
  FaceCounts hand;
  hand.wilds = okeys;
  for (const char* name : names) ++hand.count[*okey::ParseFace(name)];
  return hand;
}

// Seat 0 finishes; seat 1 opened with runs and sets holding 5 + 9 = 14; seat 2 opened with pairs
// holding 3; seat 3 never opened.
DealEnd Table(Finish finish) {
  DealEnd end{.finish = finish, .finisher = 0};
  end.seats = {{{.opened = Opened::kMelds, .finished = true},
                {.opened = Opened::kMelds, .hand = Left({"R5", "K9"})},
                {.opened = Opened::kPairs, .hand = Left({"Y3"})},
                {.opened = Opened::kNo, .hand = Left({"B13", "B12"})}}};
  return end;
}

TEST(Okey101SettlementTest, FromHand) {
  const okey_laying::Settlement settled = Okey101Settle(Table(Finish::kFromHand));
  EXPECT_EQ(settled.multiplier, 1);
  // A pairs opener who did not finish pays his tiles twice.
  EXPECT_THAT(settled.points, ElementsAre(-101, 14, 6, 202));
}

TEST(Okey101SettlementTest, AnOkeyFinishDoublesEverything) {
  const okey_laying::Settlement settled = Okey101Settle(Table(Finish::kOkeyDiscard));
  EXPECT_EQ(settled.multiplier, 2);
  EXPECT_THAT(settled.points, ElementsAre(-202, 28, 12, 404));
}

TEST(Okey101SettlementTest, APairsOpenersFinishDoublesEverything) {
  DealEnd end = Table(Finish::kPairs);
  end.seats[0].opened = Opened::kPairs;
  const okey_laying::Settlement settled = Okey101Settle(end);
  EXPECT_EQ(settled.multiplier, 2);
  EXPECT_THAT(settled.points, ElementsAre(-202, 28, 12, 404));
}

TEST(Okey101SettlementTest, DoublingsStack) {
  // The seed's one-turn okey finish: -404 for the finisher, 808 for each seat not opened. Nobody
  // else had opened, so every other seat is one not opened.
  DealEnd end{.finish = Finish::kOkeyDiscard, .finisher = 2, .one_turn = true};
  end.seats[2] = {.opened = Opened::kMelds, .finished = true};
  const okey_laying::Settlement settled = Okey101Settle(end);
  EXPECT_EQ(settled.multiplier, 4);
  EXPECT_THAT(settled.points, ElementsAre(808, 808, -404, 808));
  // All three: an okey finish by a pairs opener in one turn.
  end.seats[2].opened = Opened::kPairs;
  EXPECT_EQ(Okey101Multiplier(end), 8);
}

TEST(Okey101SettlementTest, HeldOkeysCost101Or202AndAreNeverMultiplied) {
  DealEnd end = Table(Finish::kOkeyDiscard);
  end.seats[1].hand = Left({"R5"}, /*okeys=*/1);
  end.seats[2].hand = Left({}, /*okeys=*/2);
  end.seats[3].hand = Left({"B13"}, /*okeys=*/1);
  const okey_laying::Settlement settled = Okey101Settle(end);
  // Seat 1: 5 x 2 + 101; seat 2 (pairs): 0 + 2 x 101; seat 3 (not opened): 202 x 2 + 202.
  EXPECT_THAT(settled.points, ElementsAre(-202, 111, 202, 606));
}

TEST(Okey101SettlementTest, DeckExhaustedHasNoFinisherAndNoMultiplier) {
  DealEnd end = Table(Finish::kDeckExhausted);
  end.finisher = -1;
  end.seats[0] = {.opened = Opened::kMelds, .hand = Left({"K1", "K2"})};
  const okey_laying::Settlement settled = Okey101Settle(end);
  EXPECT_EQ(settled.multiplier, 1);
  EXPECT_THAT(settled.points, ElementsAre(3, 14, 6, 202));
}

TEST(Okey101SettlementTest, TheFinishersPartnerPaysNothingIn2v2) {
  DealEnd end = Table(Finish::kFromHand);
  end.seats[2].partner_of_finisher = true;
  EXPECT_THAT(Okey101Settle(end).points, ElementsAre(-101, 14, 0, 202));
}

}  // namespace
}  // namespace kahve::engine::okey101

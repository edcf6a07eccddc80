// okey51's table of finishes (seed 000), seat by seat.

#include "engine/okey51/okey51_settlement.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace kahve::engine::okey51 {
namespace {

using ::testing::ElementsAre;

FaceCounts Left(std::initializer_list<const char*> names, int okeys = 0) {
  FaceCounts hand;
  hand.wilds = okeys;
  for (const char* name : names) ++hand.count[*okey::ParseFace(name)];
  return hand;
}

// Seat 0 finishes; seat 1 opened with runs and sets holding 5 + 9 = 14; seat 2 opened with pairs
// holding 3; seat 3 never opened.
std::vector<Okey51SeatAtEnd> Table() {
  return {{.opened = Opened::kMelds, .finished = true},
          {.opened = Opened::kMelds, .hand = Left({"R5", "K9"})},
          {.opened = Opened::kPairs, .hand = Left({"Y3"})},
          {.opened = Opened::kNo, .hand = Left({"B13", "B12"})}};
}

TEST(Okey51SettlementTest, FromHand) {
  EXPECT_THAT(Okey51Settlement(Okey51Finish::kFromHand, Table()), ElementsAre(-500, 70, 30, 500));
}

TEST(Okey51SettlementTest, PairsAndOkeyDiscardDoubleEverything) {
  EXPECT_THAT(Okey51Settlement(Okey51Finish::kPairs, Table()), ElementsAre(-1000, 140, 30, 1000));
  EXPECT_THAT(Okey51Settlement(Okey51Finish::kOkeyDiscard, Table()),
              ElementsAre(-1000, 140, 30, 1000));
}

TEST(Okey51SettlementTest, DeckExhaustedHasNoFinisher) {
  std::vector<Okey51SeatAtEnd> seats = Table();
  seats[0] = {.opened = Opened::kMelds, .hand = Left({"R1"})};
  EXPECT_THAT(Okey51Settlement(Okey51Finish::kDeckExhausted, seats), ElementsAre(5, 70, 30, 500));
}

TEST(Okey51SettlementTest, AnOkeyLeftCountsOneHundredAndAFakeItsFace) {
  // Indicator R5: the okey is R6; a fake okey left counts as R6, i.e. 6.
  EXPECT_EQ(Okey51TilesLeft(Left({"R6", "B2"}, /*okeys=*/1)), 108);
  std::vector<Okey51SeatAtEnd> seats = Table();
  seats[1].hand = Left({}, /*okeys=*/1);
  EXPECT_EQ(Okey51Settlement(Okey51Finish::kFromHand, seats)[1], 500);
  EXPECT_EQ(Okey51Settlement(Okey51Finish::kOkeyDiscard, seats)[1], 1000);
}

TEST(Okey51SettlementTest, TheFinishersPartnerPaysNothingIn2v2) {
  std::vector<Okey51SeatAtEnd> seats = Table();
  seats[2].partner_of_finisher = true;
  EXPECT_THAT(Okey51Settlement(Okey51Finish::kFromHand, seats), ElementsAre(-500, 70, 0, 500));
}

TEST(Okey51SettlementTest, AnOkeyAsLastTileBeatsAPairsFinish) {
  EXPECT_EQ(okey_laying::FinishOf(/*last_tile_was_okey=*/true, /*finisher_opened_with_pairs=*/true),
            Okey51Finish::kOkeyDiscard);
  EXPECT_EQ(okey_laying::FinishOf(false, true), Okey51Finish::kPairs);
  EXPECT_EQ(okey_laying::FinishOf(false, false), Okey51Finish::kFromHand);
}

}  // namespace
}  // namespace kahve::engine::okey51

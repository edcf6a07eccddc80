// Tiles and melds of the okey family (RULES.md "Okey tiles").

#include "engine/okey/okey_melds.h"

#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace kahve::engine::okey {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;

// Indicator R5: the okey is R6; okey tiles are R6's two copies, fake okeys play as R6.
const Jokers kJokers(OkeyFaceFor(*ParseFace("R5")));
constexpr Tile kWild = MakeFace(kRed, 6) * 2;
constexpr Tile kFake = kFirstFakeOkey;

Tile T(const char* name, int copy = 0) { return static_cast<Tile>(*ParseFace(name) * 2 + copy); }
PlacedTile P(const char* name) { return {.tile = T(name)}; }
PlacedTile WildAs(const char* name) { return {.tile = kWild, .stands_for = *ParseFace(name)}; }
PlacedTile WildOpen() { return {.tile = kWild, .open_colour = true}; }

MeldError ErrorOf(std::vector<PlacedTile> tiles) { return CheckMeld(tiles, kJokers).error; }

TEST(OkeyTilesTest, TheIndicatorNamesTheOkeyAndThirteenWrapsToOne) {
  EXPECT_EQ(FaceName(OkeyFaceFor(*ParseFace("R5"))), "R6");
  EXPECT_EQ(FaceName(OkeyFaceFor(*ParseFace("K13"))), "K1");
  EXPECT_TRUE(kJokers.IsWild(kWild));
  EXPECT_TRUE(kJokers.IsWild(kWild + 1));
  EXPECT_FALSE(kJokers.IsWild(kFake));
  EXPECT_EQ(kJokers.PlaysAs(kFake), MakeFace(kRed, 6));
  EXPECT_EQ(TileName(kFake), "F");
  EXPECT_EQ(TileName(T("Y13", 1)), "Y13");
}

TEST(OkeyTilesTest, FaceNamesParseStrictly) {
  for (int face = 0; face < kFaces; ++face) {
    EXPECT_EQ(ParseFace(FaceName(static_cast<Face>(face))), face);
  }
  for (const char* bad : {"", "R", "R0", "R14", "G5", "r5", "R05", "R+5", "R 5", "R5x", "F"}) {
    EXPECT_EQ(ParseFace(bad), std::nullopt) << bad;
  }
}

TEST(OkeyMeldsTest, RunsMayPutOneLowOrHighButNeverWrap) {
  EXPECT_EQ(ErrorOf({P("B1"), P("B2"), P("B3")}), MeldError::kNone);
  EXPECT_EQ(ErrorOf({P("B12"), P("B13"), P("B1")}), MeldError::kNone);
  EXPECT_EQ(ErrorOf({P("B13"), P("B1"), P("B2")}), MeldError::kRunWraps);
  EXPECT_EQ(ErrorOf({P("B1"), P("B13"), P("B12")}), MeldError::kNotConsecutive);
  EXPECT_EQ(ErrorOf({P("B3"), P("B5"), P("B4")}), MeldError::kNotConsecutive);
  EXPECT_EQ(ErrorOf({P("B3"), P("B4")}), MeldError::kTooFewTiles);
  EXPECT_EQ(ErrorOf({P("B3"), P("K4"), P("B5")}), MeldError::kNotARunOrSet);
  const Meld high = CheckMeld(std::vector{P("B12"), P("B13"), P("B1")}, kJokers).meld;
  EXPECT_EQ(high.low, 12);
  EXPECT_EQ(high.high, kHighOne);
  EXPECT_EQ(high.Value(), 26);  // a 1 is worth 1 wherever it stands
}

TEST(OkeyMeldsTest, TheLongestRunHasThirteenTiles) {
  std::vector<PlacedTile> low;
  for (const char* name :
       {"Y1", "Y2", "Y3", "Y4", "Y5", "Y6", "Y7", "Y8", "Y9", "Y10", "Y11", "Y12", "Y13"}) {
    low.push_back(P(name));
  }
  EXPECT_EQ(ErrorOf(low), MeldError::kNone);
  std::vector<PlacedTile> high(low.begin() + 1, low.end());
  high.push_back(P("Y1"));
  EXPECT_EQ(ErrorOf(high), MeldError::kNone);
  low.push_back(P("Y1"));
  EXPECT_EQ(ErrorOf(low), MeldError::kTooManyTiles);
}

TEST(OkeyMeldsTest, SetsHoldThreeOrFourDistinctColours) {
  EXPECT_EQ(ErrorOf({P("R7"), P("B7"), P("K7")}), MeldError::kNone);
  EXPECT_EQ(ErrorOf({P("R7"), P("B7"), P("K7"), P("Y7")}), MeldError::kNone);
  EXPECT_EQ(ErrorOf({P("R7"), P("B7"), P("R7")}), MeldError::kRepeatedColour);
  EXPECT_EQ(ErrorOf({P("R7"), P("B7"), P("K7"), P("Y7"), WildOpen()}), MeldError::kTooManyTiles);
  EXPECT_EQ(CheckMeld(std::vector{P("R7"), P("B7"), P("K7"), P("Y7")}, kJokers).meld.Value(), 28);
}

TEST(OkeyMeldsTest, AnOkeyStandsForOneMissingTileAndAFakeOnlyForTheOkeysFace) {
  EXPECT_EQ(ErrorOf({P("B4"), WildAs("B5"), P("B6")}), MeldError::kNone);
  EXPECT_EQ(ErrorOf({P("B4"), WildAs("K5"), P("B6")}), MeldError::kBadStandIn);
  EXPECT_EQ(ErrorOf({P("K9"), P("Y9"), WildOpen()}), MeldError::kNone);
  EXPECT_EQ(ErrorOf({P("K9"), P("Y9"), WildAs("R9")}), MeldError::kNone);
  EXPECT_EQ(ErrorOf({P("K9"), P("Y9"), WildAs("K9")}), MeldError::kRepeatedColour);
  // The fake okey is R6: R5 F R7 is a run, B6 K6 F a set, B5 F B7 nothing.
  EXPECT_EQ(ErrorOf({P("R5"), {.tile = kFake}, P("R7")}), MeldError::kNone);
  EXPECT_EQ(ErrorOf({P("B6"), P("K6"), {.tile = kFake}}), MeldError::kNone);
  EXPECT_NE(ErrorOf({P("B5"), {.tile = kFake}, P("B7")}), MeldError::kNone);
  // An okey may stand for its own face: R5 okey(R6) R7.
  EXPECT_EQ(ErrorOf({P("R5"), WildAs("R6"), P("R7")}), MeldError::kNone);
  const Meld run = CheckMeld(std::vector{WildAs("B3"), P("B4"), P("B5")}, kJokers).meld;
  EXPECT_EQ(run.Value(), 12);  // the okey is worth the tile it stands for
}

TEST(OkeyMeldsTest, TilesGoAtARunsEndsASetsMissingColourOrInAnOkeysPlace) {
  const Meld top = CheckMeld(std::vector{P("B11"), P("B12"), P("B13")}, kJokers).meld;
  EXPECT_THAT(PlacesFor(top, T("B1"), kJokers), ElementsAre(AddPlace::kRunHigh));
  EXPECT_THAT(PlacesFor(top, T("B10"), kJokers), ElementsAre(AddPlace::kRunLow));
  EXPECT_THAT(PlacesFor(top, T("K10"), kJokers), IsEmpty());
  const Meld bottom = CheckMeld(std::vector{P("B1"), P("B2"), P("B3")}, kJokers).meld;
  EXPECT_THAT(PlacesFor(bottom, T("B13"), kJokers), IsEmpty());  // no wrapping
  EXPECT_THAT(PlacesFor(bottom, kWild, kJokers), ElementsAre(AddPlace::kRunHigh));

  const Meld with_okey = CheckMeld(std::vector{P("K4"), WildAs("K5"), P("K6")}, kJokers).meld;
  EXPECT_THAT(PlacesFor(with_okey, T("K5", 1), kJokers), ElementsAre(AddPlace::kReplaceWild));
  const Meld taken_out = WithTile(with_okey, T("K5"), AddPlace::kReplaceWild, kJokers);
  EXPECT_EQ(taken_out.wilds, 0);
  EXPECT_EQ(taken_out.wild_positions, 0);

  // In a set the okey's colour stays open: named K9, it still makes way for Y9, and K9 may join
  // beside it.
  const Meld set = CheckMeld(std::vector{P("R9"), P("B9"), WildAs("K9")}, kJokers).meld;
  EXPECT_THAT(PlacesFor(set, T("Y9"), kJokers),
              ElementsAre(AddPlace::kSetColour, AddPlace::kReplaceWild));
  EXPECT_THAT(PlacesFor(set, T("K9"), kJokers),
              ElementsAre(AddPlace::kSetColour, AddPlace::kReplaceWild));
  EXPECT_THAT(PlacesFor(set, T("R9", 1), kJokers), IsEmpty());
  const Meld beside = WithTile(set, T("K9"), AddPlace::kSetColour, kJokers);
  EXPECT_EQ(beside.named_colours, 0);  // the okey stands for whatever is missing: Y9
  EXPECT_THAT(PlacesFor(beside, T("Y9"), kJokers), ElementsAre(AddPlace::kReplaceWild));
  const Meld swapped = WithTile(set, T("Y9"), AddPlace::kReplaceWild, kJokers);
  EXPECT_EQ(swapped.wilds, 0);
  EXPECT_EQ(swapped.named_colours, 0);
  EXPECT_EQ(swapped.real_colours, 0b1011);  // R, B and Y
  EXPECT_THAT(PlacesFor(swapped, T("K9"), kJokers), ElementsAre(AddPlace::kSetColour));
  const Meld open = CheckMeld(std::vector{P("R9"), P("B9"), WildOpen()}, kJokers).meld;
  EXPECT_THAT(PlacesFor(open, T("Y9"), kJokers),
              ElementsAre(AddPlace::kSetColour, AddPlace::kReplaceWild));
  const Meld full = WithTile(open, T("Y9"), AddPlace::kSetColour, kJokers);
  EXPECT_EQ(full.Size(), 4);
  EXPECT_THAT(PlacesFor(full, T("K9"), kJokers), ElementsAre(AddPlace::kReplaceWild));
  EXPECT_THAT(PlacesFor(full, kWild + 1, kJokers), IsEmpty());
}

TEST(OkeyMeldsTest, AnOkeyNamedInASetOfTwoOkeysMakesWayForAnyMissingColour) {
  // R9 with okeys named B9 and K9: Y9 takes out the one named lowest (B, as WithTile documents).
  const Meld set = CheckMeld(std::vector{P("R9"), WildAs("B9"), WildAs("K9")}, kJokers).meld;
  EXPECT_THAT(PlacesFor(set, T("Y9"), kJokers),
              ElementsAre(AddPlace::kSetColour, AddPlace::kReplaceWild));
  const Meld swapped = WithTile(set, T("Y9"), AddPlace::kReplaceWild, kJokers);
  EXPECT_EQ(swapped.wilds, 1);
  EXPECT_EQ(swapped.named_colours, 1 << kBlack);
}

TEST(OkeyMeldsTest, OneMeldIsOneRunOrOneSetUnderSomeReadingOfItsOkeys) {
  auto counts = [](std::vector<const char*> names, int wilds) {
    FaceCounts faces;
    for (const char* name : names) ++faces.count[*ParseFace(name)];
    faces.wilds = wilds;
    return faces;
  };
  EXPECT_TRUE(IsOneMeld(counts({"K12", "K13", "K1"}, 0)));
  EXPECT_TRUE(IsOneMeld(counts({"K1", "K2"}, 1)));
  EXPECT_TRUE(IsOneMeld(counts({"K1", "K13"}, 1)));         // 12-13-1
  EXPECT_FALSE(IsOneMeld(counts({"K1", "K2", "K13"}, 0)));  // 13-1-2 wraps
  EXPECT_TRUE(IsOneMeld(counts({"R9", "B9", "K9"}, 1)));
  EXPECT_FALSE(IsOneMeld(counts({"R9", "B9", "K9", "Y9"}, 1)));  // a set of five
  EXPECT_FALSE(IsOneMeld(counts({"R9", "R9", "B9"}, 0)));
  EXPECT_FALSE(IsOneMeld(counts({"R9", "B9"}, 0)));
  // K1..K13 and another K1: two runs (K1-K10, K11-K13-K1), never one.
  std::vector<const char*> thirteen = {"K1", "K2", "K3",  "K4",  "K5",  "K6", "K7",
                                       "K8", "K9", "K10", "K11", "K12", "K13"};
  EXPECT_TRUE(IsOneMeld(counts(thirteen, 0)));
  FaceCounts fourteen = counts(thirteen, 0);
  ++fourteen.count[*ParseFace("K1")];
  EXPECT_FALSE(IsOneMeld(fourteen));
  // Two sets in one group.
  EXPECT_FALSE(IsOneMeld(counts({"R9", "B9", "K9", "R10", "B10", "K10"}, 0)));
  // A gap two okeys fill, and one they cannot.
  EXPECT_TRUE(IsOneMeld(counts({"Y3", "Y6"}, 2)));
  EXPECT_FALSE(IsOneMeld(counts({"Y3", "Y7"}, 2)));
}

TEST(OkeyMeldsTest, ARunOfThirteenTakesNoMoreTiles) {
  std::vector<PlacedTile> tiles;
  for (int number = 2; number <= 13; ++number)
    tiles.push_back({.tile = static_cast<Tile>(MakeFace(kYellow, number) * 2)});
  tiles.push_back(P("Y1"));
  const Meld run = CheckMeld(tiles, kJokers).meld;
  ASSERT_EQ(run.Size(), 13);
  EXPECT_THAT(PlacesFor(run, kWild, kJokers), IsEmpty());
}

TEST(OkeyMeldsTest, LayOffTargetsAndPenaltyTilesLookAtEveryMeldOnTheTable) {
  const std::vector<Meld> table = {
      CheckMeld(std::vector{P("B11"), P("B12"), P("B13")}, kJokers).meld,
      CheckMeld(std::vector{P("K4"), WildAs("K5"), P("K6")}, kJokers).meld,
      CheckMeld(std::vector{P("R9"), P("B9"), P("K9")}, kJokers).meld,
      CheckMeld(std::vector{P("R10"), P("B10"), P("K10"), P("Y10")}, kJokers).meld,
  };
  EXPECT_THAT(LayOffTargets(table, T("B10"), kJokers),
              ElementsAre(LayOffTarget{0, AddPlace::kRunLow}));
  EXPECT_THAT(LayOffTargets(table, T("Y9"), kJokers),
              ElementsAre(LayOffTarget{2, AddPlace::kSetColour}));
  EXPECT_TRUE(IsPenaltyTile(table, T("B10"), kJokers));
  EXPECT_TRUE(IsPenaltyTile(table, T("K7"), kJokers));
  // Beside a set whose okey was named K9, the real K9 still joins: a penalty tile.
  const std::vector<Meld> named = {
      CheckMeld(std::vector{P("R9"), P("B9"), WildAs("K9")}, kJokers).meld};
  EXPECT_TRUE(IsPenaltyTile(named, T("K9"), kJokers));
  EXPECT_TRUE(IsPenaltyTile(named, T("Y9"), kJokers));
  // K5 only takes the okey out of K4-okey-K6: not a penalty tile.
  EXPECT_THAT(LayOffTargets(table, T("K5"), kJokers),
              ElementsAre(LayOffTarget{1, AddPlace::kReplaceWild}));
  EXPECT_FALSE(IsPenaltyTile(table, T("K5"), kJokers));
  // Nothing takes a fifth 10 or a B8 in this layout.
  EXPECT_FALSE(IsPenaltyTile(table, T("Y10", 1), kJokers));
  EXPECT_FALSE(IsPenaltyTile(table, T("B8"), kJokers));
  // An okey fits the runs' open ends and the set of three, not the full set.
  const std::vector<LayOffTarget> okey = LayOffTargets(table, kWild, kJokers);
  EXPECT_THAT(okey,
              ElementsAre(LayOffTarget{0, AddPlace::kRunLow}, LayOffTarget{0, AddPlace::kRunHigh},
                          LayOffTarget{1, AddPlace::kRunLow}, LayOffTarget{1, AddPlace::kRunHigh},
                          LayOffTarget{2, AddPlace::kSetColour}));
  EXPECT_TRUE(IsPenaltyTile(table, kWild, kJokers));
  EXPECT_FALSE(IsPenaltyTile(std::span<const Meld>(table).subspan(3), kWild, kJokers));
}

}  // namespace
}  // namespace kahve::engine::okey

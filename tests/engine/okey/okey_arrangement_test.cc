// The okey arrangement search, against hand-made hands and against a brute-force oracle that
// tries every grouping of small random hands.

#include "engine/okey/okey_arrangement.h"

#include <algorithm>
#include <vector>

#include "engine/core/rng.h"
#include "gtest/gtest.h"

namespace kahve::engine::okey {
namespace {

// A hand from face names; "*" is a wild okey.
FaceCounts Hand(std::initializer_list<const char*> names) {
  FaceCounts hand;
  for (const char* name : names) {
    if (std::string_view(name) == "*") {
      ++hand.wilds;
    } else {
      ++hand.count[*ParseFace(name)];
    }
  }
  return hand;
}

// Every meld of an arrangement is well formed, and melds plus loose tiles are the hand.
void ExpectAccountsFor(const Arrangement& arrangement, const FaceCounts& hand) {
  FaceCounts used = arrangement.loose;
  int value = 0;
  int tiles = 0;
  for (int i = 0; i < arrangement.meld_count; ++i) {
    const Meld& meld = arrangement.melds[i];
    ASSERT_GE(meld.Size(), 3);
    value += meld.Value();
    tiles += meld.Size();
    used.wilds += meld.wilds;
    if (meld.kind == MeldKind::kSet) {
      ASSERT_LE(meld.Size(), kColours);
      for (int colour = 0; colour < kColours; ++colour) {
        if ((meld.real_colours >> colour & 1u) != 0) ++used.count[MakeFace(colour, meld.number)];
      }
    } else {
      ASSERT_LE(meld.Size(), kNumbers);
      ASSERT_FALSE(meld.low == 1 && meld.high == kHighOne);
      ASSERT_EQ(std::popcount(meld.wild_positions), meld.wilds);
      for (int position = meld.low; position <= meld.high; ++position) {
        if ((meld.wild_positions >> position & 1u) == 0) ++used.count[meld.FaceAt(position)];
      }
    }
  }
  EXPECT_EQ(used.count, hand.count);
  EXPECT_EQ(used.wilds, hand.wilds);
  EXPECT_EQ(value, arrangement.value);
  EXPECT_EQ(tiles, arrangement.tiles_in_melds);
}

TEST(OkeyArrangementTest, FindsAWinningHandOfRunsAndSets) {
  // 14 tiles: R1-R2-R3, B7-K7-Y7, K10-K11-K12-K13, Y12-Y13-Y1 + one to discard.
  const FaceCounts hand = Hand({"R1", "R2", "R3", "B7", "K7", "Y7", "K10", "K11", "K12", "K13",
                                "Y12", "Y13", "Y1", "B2", "B9"});
  Arrangement found;
  EXPECT_FALSE(FindCovering(hand, /*loose_allowed=*/1, &found));
  const FaceCounts fourteen = Hand(
      {"R1", "R2", "R3", "B7", "K7", "Y7", "K10", "K11", "K12", "K13", "Y12", "Y13", "Y1", "B2"});
  ASSERT_TRUE(FindCovering(fourteen, 1, &found));
  ExpectAccountsFor(found, fourteen);
  EXPECT_EQ(found.tiles_in_melds, 13);
}

TEST(OkeyArrangementTest, OkeysFillGapsEndsAndMissingColours) {
  // B3 _ B5 with an okey, K8 Y8 with an okey, R11 R12 R13: all 9 in melds.
  const FaceCounts hand = Hand({"B3", "B5", "*", "K8", "Y8", "*", "R11", "R12", "R13"});
  Arrangement found;
  ASSERT_TRUE(FindCovering(hand, 0, &found));
  ExpectAccountsFor(found, hand);
  // A 13-1-2 wrap is no run, even with an okey (which makes 12-13-1 of B13 B1).
  EXPECT_FALSE(FindCovering(Hand({"B13", "B2", "*"}), 0, nullptr));
  EXPECT_TRUE(FindCovering(Hand({"B13", "B1", "*"}), 0, nullptr));
  EXPECT_FALSE(FindCovering(Hand({"B13", "B1", "B2"}), 0, nullptr));
  EXPECT_TRUE(FindCovering(Hand({"B12", "B13", "*"}), 0, nullptr));
  EXPECT_TRUE(FindCovering(Hand({"B13", "*", "*"}), 0, nullptr));
}

TEST(OkeyArrangementTest, TheOpeningSumCountsAnOkeyAsTheTileItStandsFor) {
  // R10-R11-R12 (33) and K13-Y13-okey (39) beat R10-R11-R12-okey as R13 (46) with K13 Y13 loose.
  const FaceCounts hand = Hand({"R10", "R11", "R12", "*", "K13", "Y13", "B2"});
  const Arrangement best = BestArrangement(hand, ArrangementGoal::kMostValue);
  ExpectAccountsFor(best, hand);
  EXPECT_EQ(best.value, 72);
  // 12-13-1: the 1 is worth 1.
  EXPECT_EQ(BestArrangement(Hand({"Y12", "Y13", "Y1"}), ArrangementGoal::kMostValue).value, 26);
}

TEST(OkeyArrangementTest, ReachingAValueBuildsTheBestArrangementOrNothing) {
  // 10-11-12 + okey as 13 (46) and the 13s (39): 85.
  const FaceCounts hand = Hand({"R10", "R11", "R12", "*", "K13", "Y13", "B13", "B2"});
  const std::optional<Arrangement> reaching = BestArrangementReaching(hand, 85);
  ASSERT_TRUE(reaching.has_value());
  EXPECT_EQ(reaching->value, BestArrangement(hand, ArrangementGoal::kMostValue).value);
  EXPECT_EQ(reaching->value, 85);
  EXPECT_FALSE(BestArrangementReaching(hand, 86).has_value());
}

TEST(OkeyArrangementTest, InSomeMeldRulesATileOutOfEveryMeld) {
  const FaceCounts hand = Hand({"R4", "R5", "B7", "K7", "Y12"});
  EXPECT_TRUE(InSomeMeld(hand, *ParseFace("R6")));                  // 4-5-6
  EXPECT_TRUE(InSomeMeld(hand, *ParseFace("R3")));                  // 3-4-5
  EXPECT_FALSE(InSomeMeld(hand, *ParseFace("R8")));                 // nothing next to it
  EXPECT_TRUE(InSomeMeld(hand, *ParseFace("Y7")));                  // the 7s
  EXPECT_FALSE(InSomeMeld(hand, *ParseFace("Y11")));                // Y12 alone is not enough
  EXPECT_TRUE(InSomeMeld(Hand({"Y12", "*"}), *ParseFace("Y11")));   // with an okey it is
  EXPECT_TRUE(InSomeMeld(Hand({"Y12", "Y13"}), *ParseFace("Y1")));  // the high 1
  EXPECT_FALSE(InSomeMeld(Hand({"Y13", "Y2"}), *ParseFace("Y1")));  // 13-1-2 wraps
}

TEST(OkeyArrangementTest, CountsPairsWithOkeysPairingAnything) {
  EXPECT_EQ(CountPairs(Hand({"R1", "R1", "B2", "B2", "K3"})), 2);
  EXPECT_EQ(CountPairs(Hand({"R1", "R1", "B2", "*", "K3"})), 2);
  EXPECT_EQ(CountPairs(Hand({"R1", "*", "*"})), 1);
  EXPECT_EQ(CountPairs(Hand({"R1", "R1", "*", "*"})), 2);
  // Seven pairs of 14 tiles (two fake okeys count as the okey's face, a pair).
  EXPECT_EQ(CountPairs(Hand({"R1", "R1", "B2", "B2", "K3", "K3", "Y4", "Y4", "R5", "R5", "B6", "B6",
                             "K7", "*"})),
            7);
}

// --- The oracle: every partition of the tiles into melds and loose tiles ---------------------

// A tile of a small hand: a face, or -1 for a wild.
using OracleHand = std::vector<int>;

// The best value of `tiles` as one meld (runs try every window the wilds can fill), or -1.
int OracleMeldValue(const OracleHand& tiles) {
  if (tiles.size() < 3) return -1;
  std::vector<int> reals;
  for (const int tile : tiles) {
    if (tile >= 0) reals.push_back(tile);
  }
  const int size = static_cast<int>(tiles.size());
  int best = -1;
  // A set: one number, distinct colours, at most four.
  bool set = size <= kColours;
  for (size_t i = 0; i < reals.size(); ++i) {
    for (size_t j = 0; j < i; ++j) {
      if (ColourOf(reals[i]) == ColourOf(reals[j])) set = false;
    }
    if (NumberOf(reals[i]) != NumberOf(reals[0])) set = false;
  }
  if (set && !reals.empty()) best = NumberOf(reals[0]) * size;
  // A run: a window low..low+size-1 of positions 1..14 (not both 1 and 14), one colour, each real
  // at its own position (a 1 at 1 or at 14).
  for (int low = 1; low + size - 1 <= kHighOne; ++low) {
    const int high = low + size - 1;
    if (low == 1 && high == kHighOne) continue;
    std::vector<bool> taken(kHighOne + 1, false);
    bool fits = !reals.empty();
    for (const int face : reals) {
      if (ColourOf(face) != ColourOf(reals[0])) fits = false;
      int position = NumberOf(face);
      if (position == 1 && high == kHighOne) position = kHighOne;
      if (position < low || position > high || taken[position]) fits = false;
      if (fits) taken[position] = true;
    }
    if (!fits) continue;
    int value = 0;
    for (int position = low; position <= high; ++position)
      value += position == kHighOne ? 1 : position;
    best = std::max(best, value);
  }
  return best;
}

struct OracleBest {
  int value = 0;
  int tiles = 0;
  int fewest_loose = 1 << 20;
};

// Tries `tiles[0]` loose or in every meld with any subset of the others.
void Oracle(const OracleHand& tiles, int value, int in_melds, int loose, OracleBest& best) {
  if (tiles.empty()) {
    best.value = std::max(best.value, value);
    best.tiles = std::max(best.tiles, in_melds);
    best.fewest_loose = std::min(best.fewest_loose, loose);
    return;
  }
  const OracleHand rest(tiles.begin() + 1, tiles.end());
  Oracle(rest, value, in_melds, loose + 1, best);
  const int others = static_cast<int>(rest.size());
  for (uint32_t mask = 1; mask < (1u << others); ++mask) {
    if (std::popcount(mask) < 2) continue;
    OracleHand meld = {tiles[0]};
    OracleHand left;
    for (int i = 0; i < others; ++i) ((mask >> i & 1u) != 0 ? meld : left).push_back(rest[i]);
    const int meld_value = OracleMeldValue(meld);
    if (meld_value >= 0) {
      Oracle(left, value + meld_value, in_melds + static_cast<int>(meld.size()), loose, best);
    }
  }
}

// Two pools of tiles: two colours with duplicates (runs, the high 1, duplicate faces), and all four
// colours at a few numbers (sets of three and four beside runs). Each has up to two wilds.
std::vector<std::vector<int>> OraclePools() {
  std::vector<int> runs;
  for (const int colour : {kRed, kBlack}) {
    for (const int number : {1, 2, 3, 10, 11, 12, 13}) {
      runs.push_back(MakeFace(colour, number));
      runs.push_back(MakeFace(colour, number));
    }
  }
  runs.push_back(MakeFace(kBlue, 1));
  runs.push_back(MakeFace(kYellow, 1));
  std::vector<int> sets;
  for (int colour = 0; colour < kColours; ++colour) {
    for (const int number : {1, 2, 3, 12, 13}) sets.push_back(MakeFace(colour, number));
  }
  for (std::vector<int>* pool : {&runs, &sets}) {
    pool->push_back(-1);
    pool->push_back(-1);
  }
  return {runs, sets};
}

class OkeyArrangementOracleTest : public ::testing::TestWithParam<int> {};

TEST_P(OkeyArrangementOracleTest, AgreesWithTheOracleOnRandomSmallHands) {
  const std::vector<int> pool = OraclePools()[GetParam()];
  Rng rng(7 + GetParam());
  for (int round = 0; round < 1500; ++round) {
    std::vector<int> shuffled = pool;
    for (size_t i = shuffled.size() - 1; i > 0; --i) {
      std::swap(shuffled[i], shuffled[rng.Below(static_cast<uint32_t>(i + 1))]);
    }
    const int size = 3 + static_cast<int>(rng.Below(7));
    const OracleHand tiles(shuffled.begin(), shuffled.begin() + size);
    FaceCounts hand;
    for (const int tile : tiles) {
      if (tile < 0) {
        ++hand.wilds;
      } else {
        ++hand.count[tile];
      }
    }
    OracleBest oracle;
    Oracle(tiles, 0, 0, 0, oracle);
    SCOPED_TRACE(testing::Message() << "round " << round << ", " << size << " tiles");

    const Arrangement by_value = BestArrangement(hand, ArrangementGoal::kMostValue);
    ExpectAccountsFor(by_value, hand);
    EXPECT_EQ(by_value.value, oracle.value);
    const Arrangement by_tiles = BestArrangement(hand, ArrangementGoal::kMostTiles);
    ExpectAccountsFor(by_tiles, hand);
    EXPECT_EQ(by_tiles.tiles_in_melds, oracle.tiles);
    for (int loose_allowed = 0; loose_allowed <= 2; ++loose_allowed) {
      Arrangement covering;
      const bool found = FindCovering(hand, loose_allowed, &covering);
      EXPECT_EQ(found, oracle.fewest_loose <= loose_allowed) << "loose allowed " << loose_allowed;
      if (found) {
        ExpectAccountsFor(covering, hand);
        EXPECT_LE(size - covering.tiles_in_melds, loose_allowed);
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Pools, OkeyArrangementOracleTest, ::testing::Values(0, 1));

}  // namespace
}  // namespace kahve::engine::okey

// Mexican Train's rules state (work in progress, issue 8): the set and the deal, and seeded
// random matches in which every listed action is accepted, every tile stays in exactly one place,
// and every match of 13 rounds ends.

#include "engine/mexican_train/mexican_train.h"

#include <set>

#include "engine/core/rng.h"
#include "gtest/gtest.h"

namespace kahve::engine::mexican_train {
namespace {

TEST(MexicanTrainTest, TheDoubleTwelveSetHas91TilesEachOnce) {
  std::set<std::pair<int, int>> seen;
  for (int id = 0; id < kTiles; ++id) {
    const Domino domino = DominoOf(static_cast<TileId>(id));
    EXPECT_LE(domino.low, domino.high);
    EXPECT_EQ(IdOf(domino.high, domino.low), id);
    seen.insert({domino.low, domino.high});
  }
  EXPECT_EQ(seen.size(), 91u);
  EXPECT_EQ(TileName(IdOf(12, 3)), "3-12");
}

TEST(MexicanTrainTest, HandSizesFollowTheNumberOfPlayers) {
  EXPECT_EQ(HandSize(2), 15);
  EXPECT_EQ(HandSize(4), 15);
  EXPECT_EQ(HandSize(5), 12);
  EXPECT_EQ(HandSize(6), 12);
  EXPECT_EQ(HandSize(7), 10);
  EXPECT_EQ(HandSize(8), 10);
  EXPECT_EQ(HandSize(9), 8);
  EXPECT_EQ(HandSize(10), 8);
  EXPECT_FALSE(ValidateSettings({.players = 1}).ok());
  EXPECT_FALSE(ValidateSettings({.players = 11}).ok());
}

TEST(MexicanTrainTest, TheEngineIsPlacedAndTheOwnersNextSeatStarts) {
  for (uint64_t seed = 1; seed <= 50; ++seed) {
    const State state({.players = 4}, seed);
    state.CheckInvariants();
    EXPECT_EQ(state.engine(), 12);
    const TileId engine = IdOf(12, 12);
    int in_hands = 0;
    for (int seat = 0; seat < 4; ++seat) {
      for (const TileId tile : state.hand(seat)) in_hands += tile == engine ? 1 : 0;
    }
    EXPECT_EQ(in_hands, 0) << "the engine is on the table";
    EXPECT_EQ(state.to_act(), (state.engine_owner() + 1) % 4);
    EXPECT_TRUE(state.in_first_turns());
  }
}

// Random legal play to the end, with every action put to Check first.
TEST(MexicanTrainTest, RandomMatchesKeepEveryTileAndEnd) {
  for (int players = kMinPlayers; players <= kMaxPlayers; ++players) {
    for (uint64_t seed = 1; seed <= 20; ++seed) {
      State state({.players = players}, seed);
      Rng rng(seed * 31 + static_cast<uint64_t>(players));
      int moves = 0;
      while (!state.over()) {
        const std::vector<Action> legal = state.LegalActions();
        ASSERT_FALSE(legal.empty());
        for (const Action& action : legal) {
          ASSERT_EQ(state.Check(action).reason, Reason::kNone) << state.Check(action).message;
        }
        const Action action = legal[rng.Below(static_cast<uint32_t>(legal.size()))];
        const int seat = state.to_act();
        const bool marked = state.train(seat).marked;
        const int boneyard = state.boneyard_count();
        const size_t rounds = state.records().size();
        state.Apply(action);
        state.CheckInvariants();
        if (state.records().size() > rounds && state.records().back().went_out < 0) {
          EXPECT_EQ(boneyard, 0) << "a block needs an empty boneyard";
        }
        if (state.records().size() == rounds) {
          // Passing marks the seat's train; only a tile on its own train takes the marker off.
          if (action.kind == ActionKind::kPass) {
            EXPECT_TRUE(state.train(seat).marked);
          }
          if (action.kind == ActionKind::kPlay && action.train != seat) {
            EXPECT_EQ(state.train(seat).marked, marked);
          }
          if (action.kind == ActionKind::kPlay && action.train == seat) {
            EXPECT_FALSE(state.train(seat).marked);
          }
        }
        ASSERT_LT(++moves, 100000) << "a match ends";
      }
      ASSERT_EQ(state.records().size(), static_cast<size_t>(kRounds));
      for (int seat = 0; seat < players; ++seat) {
        int sum = 0;
        for (const RoundRecord& record : state.records()) sum += record.penalties[seat];
        EXPECT_EQ(sum, state.total(seat));
      }
      for (size_t r = 0; r < state.records().size(); ++r) {
        EXPECT_EQ(state.records()[r].engine, kHighPip - static_cast<int>(r));
      }
    }
  }
}

}  // namespace
}  // namespace kahve::engine::mexican_train

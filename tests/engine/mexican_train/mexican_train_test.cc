// Mexican Train's rules state (work in progress, issue 8): the set and the deal, and seeded
// random matches in which every listed action is accepted, every tile stays in exactly one place,
// and every match of 13 rounds ends.

#include "engine/mexican_train/mexican_train.h"

#include <map>
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

TileId T(int a, int b) { return IdOf(a, b); }

// A two-player round 1 (engine 12-12) dealt as given: each hand padded to 15 with tiles of pips
// 0..7 only, which the tests below never play on; `draws` come first from the boneyard.
Preset TwoPlayers(std::vector<TileId> seat0, std::vector<TileId> seat1, std::vector<TileId> draws) {
  std::set<TileId> named(seat0.begin(), seat0.end());
  named.insert(seat1.begin(), seat1.end());
  named.insert(draws.begin(), draws.end());
  std::vector<TileId> fillers;
  for (int a = 0; a <= 7; ++a) {
    for (int b = a; b <= 7; ++b) {
      if (named.count(T(a, b)) == 0) fillers.push_back(T(a, b));
    }
  }
  size_t next = 0;
  for (auto* hand : {&seat0, &seat1}) {
    while (hand->size() < 15 && next < fillers.size()) hand->push_back(fillers[next++]);
  }
  return Preset{.rounds = {RoundPreset{.hands = {seat0, seat1}, .draws = draws}}};
}

// A game of two dealt from a preset that must be valid.
State Dealt(const Preset& preset) {
  const absl::Status valid = ValidatePreset(preset, {.players = 2});
  EXPECT_TRUE(valid.ok()) << valid;
  return State({.players = 2}, 1, valid.ok() ? &preset : nullptr);
}

Action Play(int a, int b, int train) {
  return {.kind = ActionKind::kPlay, .tile = T(a, b), .train = train};
}

TEST(MexicanTrainTest, TheEngineSearchCompletesItsPass) {
  // Nobody holds 12-12; seat 0 draws it first in the first pass, and seat 1 still draws.
  const Preset preset = TwoPlayers({}, {}, {T(12, 12), T(11, 9)});
  const State state = Dealt(preset);
  state.CheckInvariants();
  EXPECT_EQ(state.engine_owner(), 0);
  EXPECT_EQ(state.hand(0).size(), 15u) << "16 after the draw, less the engine placed";
  EXPECT_EQ(state.hand(1).size(), 16u) << "the pass is completed";
  EXPECT_EQ(state.to_act(), 1) << "play runs from the owner's next seat";
}

TEST(MexicanTrainTest, AFirstTurnPlaysAChainOnTheOwnTrainWithoutDrawing) {
  const Preset preset = TwoPlayers({T(12, 12)}, {T(12, 11), T(11, 10), T(12, 9)}, {});
  State state = Dealt(preset);
  ASSERT_EQ(state.to_act(), 1);
  EXPECT_EQ(state.Check(Play(12, 9, kMexicanTrain)).reason, Reason::kFirstTurnOwnTrainOnly);
  EXPECT_EQ(state.Check(Play(12, 9, 0)).reason, Reason::kFirstTurnOwnTrainOnly);
  EXPECT_EQ(state.Check({.kind = ActionKind::kDraw}).reason, Reason::kMayNotDraw);
  EXPECT_EQ(state.Check({.kind = ActionKind::kPass}).reason, Reason::kMustPlay);
  EXPECT_EQ(state.Check({.kind = ActionKind::kEndFirstTurn}).reason, Reason::kNothingPlayedYet);
  state.Apply(Play(12, 11, 1));
  EXPECT_EQ(state.Check({.kind = ActionKind::kPass}).reason, Reason::kFirstTurnStarted);
  state.Apply(Play(11, 10, 1));
  // Nothing more fits 10: the first turn ends by itself, and seat 0, with nothing for 12,
  // passes without drawing and marks its train.
  ASSERT_EQ(state.to_act(), 0);
  EXPECT_EQ(state.Check({.kind = ActionKind::kDraw}).reason, Reason::kMayNotDraw);
  const int boneyard = state.boneyard_count();
  state.Apply({.kind = ActionKind::kPass});
  EXPECT_TRUE(state.train(0).marked);
  EXPECT_EQ(state.boneyard_count(), boneyard);
  EXPECT_FALSE(state.in_first_turns());
  // Later turns: the Mexican train and the marked train are open, the seat's own too.
  ASSERT_EQ(state.to_act(), 1);
  EXPECT_EQ(state.Check(Play(12, 9, kMexicanTrain)).reason, Reason::kNone);
  EXPECT_EQ(state.Check(Play(12, 9, 0)).reason, Reason::kNone);
  state.Apply(Play(12, 9, 0));
  EXPECT_TRUE(state.train(0).marked) << "only a tile on its own train takes a marker off";
}

TEST(MexicanTrainTest, AnOpenDoubleFromTheFirstTurnsBindsTheNextPlayer) {
  const Preset preset = TwoPlayers({T(12, 12)}, {T(12, 10), T(10, 10), T(10, 9), T(12, 8)}, {});
  State state = Dealt(preset);
  state.Apply(Play(12, 10, 1));
  state.Apply(Play(10, 10, 1));
  state.Apply({.kind = ActionKind::kEndFirstTurn});  // the double waits for everyone's first turn
  ASSERT_EQ(state.to_act(), 0);
  state.Apply({.kind = ActionKind::kPass});
  ASSERT_EQ(state.to_act(), 1);
  ASSERT_EQ(state.open_doubles(), std::vector<int>{1});
  EXPECT_EQ(state.Check(Play(12, 8, kMexicanTrain)).reason, Reason::kBoundByDouble);
  state.Apply(Play(10, 9, 1));
  EXPECT_TRUE(state.open_doubles().empty());
  EXPECT_EQ(state.to_act(), 0) << "the satisfying tile ends the turn";
}

TEST(MexicanTrainTest, ADoubleAsksForAnotherTileWithADrawOfItsOwn) {
  const Preset preset = TwoPlayers({T(12, 12)}, {T(12, 11), T(11, 11)}, {T(11, 7), T(0, 0)});
  State state = Dealt(preset);
  state.Apply(Play(12, 11, 1));
  state.Apply({.kind = ActionKind::kEndFirstTurn});
  state.Apply({.kind = ActionKind::kPass});  // seat 0 has nothing for 12
  ASSERT_EQ(state.to_act(), 1);
  state.Apply(Play(11, 11, 1));
  EXPECT_EQ(state.to_act(), 1) << "a double asks for another tile";
  EXPECT_EQ(state.Check({.kind = ActionKind::kPass}).reason, Reason::kMustDraw);
  state.Apply({.kind = ActionKind::kDraw});
  EXPECT_EQ(state.Check({.kind = ActionKind::kDraw}).reason, Reason::kMustPlay);
  state.Apply(Play(11, 7, 1));  // the drawn tile fits the double and is played
  EXPECT_EQ(state.to_act(), 0);
  EXPECT_TRUE(state.open_doubles().empty());
}

TEST(MexicanTrainTest, AnEmptiedHandWaitsForEveryFirstTurnAndTheSearchSeatRotates) {
  // Seat 1 lays its whole hand in its first turn, ending on a double; seat 0 still takes its
  // first turn (it passes) before the round ends as seat 1 going out.
  const std::vector<std::pair<int, int>> chain = {{12, 11}, {11, 10}, {10, 9}, {9, 8},   {8, 7},
                                                  {7, 6},   {6, 5},   {5, 4},  {4, 3},   {3, 2},
                                                  {2, 1},   {1, 0},   {0, 12}, {12, 10}, {10, 10}};
  std::vector<TileId> seat1;
  for (const auto& [a, b] : chain) seat1.push_back(T(a, b));
  Preset preset = TwoPlayers({T(12, 12)}, seat1, {});
  // Round 2 (engine 11-11): nobody holds it; the search starts at seat 1, which draws it first,
  // and seat 0 still draws in that pass.
  preset.rounds.push_back(TwoPlayers({}, {}, {T(11, 11), T(9, 4)}).rounds[0]);
  State state = Dealt(preset);
  ASSERT_EQ(state.to_act(), 1);
  for (const auto& [a, b] : chain) {
    ASSERT_EQ(state.Check(Play(a, b, 1)).reason, Reason::kNone) << a << "-" << b;
    state.Apply(Play(a, b, 1));
  }
  EXPECT_TRUE(state.hand(1).empty());
  EXPECT_EQ(state.round(), 0) << "the round waits for seat 0's first turn";
  ASSERT_EQ(state.to_act(), 0);
  int pips = 0;
  for (const TileId tile : state.hand(0)) pips += DominoOf(tile).Pips();
  state.Apply({.kind = ActionKind::kPass});
  ASSERT_EQ(state.records().size(), 1u);
  EXPECT_EQ(state.records()[0].went_out, 1);
  EXPECT_EQ(state.records()[0].penalties, (std::vector<int>{pips, 0}));
  EXPECT_EQ(state.round(), 1);
  EXPECT_EQ(state.engine(), 11);
  EXPECT_EQ(state.engine_owner(), 1);
  EXPECT_EQ(state.hand(1).size(), 15u) << "16 after the draw, less the engine";
  EXPECT_EQ(state.hand(0).size(), 16u);
  EXPECT_EQ(state.to_act(), 0);
  state.CheckInvariants();
}

// Random legal play to the end, with every action put to Check first.
// A round declared blocked after `action` (played on `before`): no tile left in any hand fits
// where the rules would let it go, worked out from the trains as the move left them.
void ExpectTrulyBlocked(const State& before, const Action& action, const RoundRecord& record) {
  const int players = static_cast<int>(record.hands.size());
  std::map<int, int> ends;  // train -> end
  for (int train = kMexicanTrain; train < players; ++train) ends[train] = before.train(train).end;
  std::vector<int> open = before.open_doubles();
  if (action.kind == ActionKind::kPlay) {
    const Domino domino = DominoOf(action.tile);
    ASSERT_FALSE(domino.IsDouble()) << "a double asks for another tile: the turn goes on";
    const int end = ends[action.train];
    ends[action.train] = domino.low == end ? domino.high : domino.low;
    if (!open.empty() && open.front() == action.train) open.erase(open.begin());
  }
  std::set<int> wanted;
  if (!open.empty()) {
    wanted.insert(ends[open.front()]);
  } else {
    for (const auto& [train, end] : ends) wanted.insert(end);
  }
  for (int seat = 0; seat < players; ++seat) {
    for (const TileId tile : record.hands[seat]) {
      const Domino domino = DominoOf(tile);
      EXPECT_FALSE(wanted.count(domino.low) > 0 || wanted.count(domino.high) > 0)
          << "blocked, yet seat " << seat << " could play " << TileName(tile);
    }
  }
}

TEST(MexicanTrainTest, RandomMatchesKeepEveryTileAndEnd) {
  int blocks = 0;
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
        const State before = state;
        state.Apply(action);
        state.CheckInvariants();
        if (state.records().size() > rounds && state.records().back().went_out < 0) {
          EXPECT_EQ(boneyard, 0) << "a block needs an empty boneyard";
          ExpectTrulyBlocked(before, action, state.records().back());
          ++blocks;
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
  EXPECT_GT(blocks, 0) << "no round ended in a block: the block checks proved nothing";
}

}  // namespace
}  // namespace kahve::engine::mexican_train

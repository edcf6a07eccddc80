// Hidden information never leaks (after OpenSpiel's ResampleInfostateTest): two okey51 or okey101
// deals that
// differ only in what a seat cannot see, the other seats' hands, must look byte-identical to that
// seat (and to spectators) in views, events, rejections of its own moves, its legal moves and its
// bot's choices, until the deal's end shows every hand.

#include <memory>
#include <vector>

#include "engine/core/game.h"
#include "engine/core/registry.h"
#include "engine/core/rng.h"
#include "engine/okey/okey_tiles.h"
#include "google/protobuf/util/message_differencer.h"
#include "gtest/gtest.h"
#include "tests/engine/okey/okey_test_deals.h"
#include "tests/engine/okey_laying/laying_rulesets.h"

namespace kahve::engine {
namespace {

using google::protobuf::util::MessageDifferencer;
using testing::LayingRuleset;

constexpr int kPlayers = 4;

class LayingLeakTest : public ::testing::TestWithParam<LayingRuleset> {};

std::unique_ptr<Game> Start(const LayingRuleset& ruleset, const v1::OkeyDealPreset& preset,
                            bool hints) {
  v1::Deal deal;
  deal.set_seed(77);
  *ruleset.Preset(deal)->add_deals() = preset;
  return std::move(NewGame(ruleset.Settings(hints), deal)).value();
}

bool EndsTheDeal(const LayingRuleset& ruleset, const std::vector<v1::Event>& events) {
  for (const v1::Event& event : events) {
    const v1::OkeyLayingEvent& okey = ruleset.Event(event);
    if (okey.has_deal_ended() || okey.has_deal_voided()) return true;
  }
  return false;
}

v1::Move Probe(const LayingRuleset& ruleset, Rng& rng) {
  static const char* const kTiles[] = {"R1", "R5", "B9", "K13", "Y7", "F", "B4", "K8"};
  v1::Move move;
  switch (rng.Below(4)) {
    case 0:
      ruleset.Move(move)->mutable_discard()->set_tile(kTiles[rng.Below(8)]);
      break;
    case 1: {
      auto* add = ruleset.Move(move)->mutable_add_tile();
      add->set_tile(kTiles[rng.Below(8)]);
      add->set_meld(static_cast<int>(rng.Below(3)));
      add->set_place(v1::OKEY_PLACE_RUN_HIGH);
      break;
    }
    case 2: {
      auto* meld = ruleset.Move(move)->mutable_lay_melds()->add_melds();
      for (int i = 0; i < 3; ++i) meld->add_tiles()->set_tile(kTiles[rng.Below(8)]);
      break;
    }
    default:
      ruleset.Move(move)->mutable_draw();
  }
  return move;
}

// The other seats draw and throw the drawn tile away (seat 0 first throws its first tile), which
// both deals allow; `viewer` plays random legal moves. Compares what `viewer` sees until the end.
void Compare(const LayingRuleset& ruleset, Game& a, Game& b, int viewer, Rng& rng) {
  testing::ExpectSameSeen(a.deal_events(), b.deal_events(), viewer);
  std::string drawn;
  while (!a.IsOver()) {
    ASSERT_TRUE(MessageDifferencer::Equals(a.View(viewer), b.View(viewer)))
        << a.View(viewer).DebugString() << " vs " << b.View(viewer).DebugString();
    const int seat = a.SeatsToAct()[0];
    ASSERT_EQ(a.SeatsToAct(), b.SeatsToAct());
    v1::Move move;
    if (seat == viewer) {
      const std::vector<v1::Move> legal = a.LegalMoves(seat);
      const std::vector<v1::Move> legal_b = b.LegalMoves(seat);
      ASSERT_EQ(legal.size(), legal_b.size());
      for (size_t i = 0; i < legal.size(); ++i) {
        ASSERT_TRUE(MessageDifferencer::Equals(legal[i], legal_b[i]));
      }
      for (const char* bot : {"heuristic", "random"}) {
        ASSERT_TRUE(MessageDifferencer::Equals(*a.BotMove(seat, bot, 9), *b.BotMove(seat, bot, 9)))
            << "the bot sees only its view";
      }
      const auto hints_a = a.Hints(seat);
      const auto hints_b = b.Hints(seat);
      ASSERT_TRUE(hints_a.ok() && hints_b.ok());
      ASSERT_TRUE(MessageDifferencer::Equals(*hints_a, *hints_b));
      const v1::Move probe = Probe(ruleset, rng);
      const MoveOutcome probe_a = a.DryRun(seat, probe);
      const MoveOutcome probe_b = b.DryRun(seat, probe);
      ASSERT_EQ(probe_a.accepted, probe_b.accepted);
      ASSERT_TRUE(MessageDifferencer::Equals(probe_a.rejection, probe_b.rejection));
      move = legal[rng.Below(legal.size())];
    } else if (!ruleset.View(a.View(seat)).drawn()) {
      ruleset.Move(move)->mutable_draw();
    } else {
      const std::string first = ruleset.View(a.View(seat)).my_hand(0);
      ruleset.Move(move)->mutable_discard()->set_tile(drawn.empty() ? first : drawn);
    }
    const MoveOutcome out_a = a.Apply(seat, move);
    const MoveOutcome out_b = b.Apply(seat, move);
    ASSERT_TRUE(out_a.accepted && out_b.accepted)
        << out_a.rejection.message() << " / " << out_b.rejection.message();
    drawn.clear();
    for (const v1::Event& event : out_a.events) {
      const v1::OkeyLayingEvent& okey = ruleset.Event(event);
      if (okey.has_tile_drawn()) drawn = okey.tile_drawn().tile();
    }
    if (EndsTheDeal(ruleset, out_a.events)) return;  // from here on every hand is shown
    testing::ExpectSameSeen(out_a.events, out_b.events, viewer);
  }
}

TEST_P(LayingLeakTest, SeatsAndSpectatorsSeeNothingOfOtherHands) {
  const LayingRuleset& ruleset = GetParam();
  Rng rng(51);
  for (int trial = 0; trial < 40; ++trial) {
    for (const int viewer : {kSpectator, 0, 1, 2, 3}) {
      const v1::OkeyDealPreset deal = testing::RandomOkeyDeal(rng, ruleset.starter_tiles);
      const v1::OkeyDealPreset other = testing::ResampledOkeyDeal(deal, viewer, rng);
      ASSERT_FALSE(MessageDifferencer::Equals(deal, other));
      std::unique_ptr<Game> a = Start(ruleset, deal, /*hints=*/true);
      std::unique_ptr<Game> b = Start(ruleset, other, /*hints=*/true);
      Compare(ruleset, *a, *b, viewer, rng);
      if (::testing::Test::HasFatalFailure()) return;
    }
  }
}

TEST_P(LayingLeakTest, TheDealsDifferWhereHidden) {
  // The resampled deal really differs: seat 1's own view tells the two apart.
  const LayingRuleset& ruleset = GetParam();
  Rng rng(52);
  const v1::OkeyDealPreset deal = testing::RandomOkeyDeal(rng, ruleset.starter_tiles);
  const v1::OkeyDealPreset other = testing::ResampledOkeyDeal(deal, 0, rng);
  EXPECT_FALSE(MessageDifferencer::Equals(Start(ruleset, deal, false)->View(1),
                                          Start(ruleset, other, false)->View(1)));
}

INSTANTIATE_TEST_SUITE_P(Rulesets, LayingLeakTest,
                         ::testing::Values(testing::kOkey51, testing::kOkey101),
                         [](const auto& info) { return info.param.name; });

}  // namespace
}  // namespace kahve::engine

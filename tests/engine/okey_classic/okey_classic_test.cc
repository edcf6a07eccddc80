// Classic okey: hidden information (two deals differing only in the other seats' hands look the
// same to a seat, in views, events, legal moves and bot choices), the bots, and settings refused
// with the field at fault.

#include <memory>
#include <vector>

#include "engine/core/registry.h"
#include "engine/core/rng.h"
#include "engine/core/simulation.h"
#include "engine/okey/okey_tiles.h"
#include "engine/okey_classic/okey_classic_game.h"
#include "engine/okey_classic/okey_classic_moves.h"
#include "gmock/gmock.h"
#include "google/protobuf/util/message_differencer.h"
#include "gtest/gtest.h"
#include "tests/engine/okey/okey_test_deals.h"

namespace kahve::engine::okey_classic {
namespace {

using google::protobuf::util::MessageDifferencer;

std::unique_ptr<Game> Start(const v1::OkeyDealPreset& preset) {
  v1::GameSettings settings;
  settings.mutable_okey()->set_max_deals(1);
  v1::Deal deal;
  deal.set_seed(5);
  *deal.mutable_okey()->add_deals() = preset;
  return std::move(NewGame(settings, deal)).value();
}

bool EndsTheDeal(const std::vector<v1::Event>& events) {
  for (const v1::Event& event : events) {
    if (event.okey().has_won() || event.okey().has_deal_ended()) return true;
  }
  return false;
}

// Seats other than the viewer draw and throw the drawn tile away (seat 0 first throws its first
// tile); the viewer plays random legal moves. Neither deal may look different to the viewer.
TEST(OkeyLeakTest, SeatsAndSpectatorsSeeNothingOfOtherHands) {
  Rng rng(71);
  for (int trial = 0; trial < 30; ++trial) {
    for (const int viewer : {kSpectator, 0, 1, 2, 3}) {
      const v1::OkeyDealPreset deal = testing::RandomOkeyDeal(rng, 15);
      std::unique_ptr<Game> a = Start(deal);
      std::unique_ptr<Game> b = Start(testing::ResampledOkeyDeal(deal, viewer, rng));
      testing::ExpectSameSeen(a->deal_events(), b->deal_events(), viewer);
      std::string drawn;
      while (!a->IsOver()) {
        ASSERT_TRUE(MessageDifferencer::Equals(a->View(viewer), b->View(viewer)));
        const int seat = a->SeatsToAct()[0];
        v1::Move move;
        if (seat == viewer) {
          const std::vector<v1::Move> legal = a->LegalMoves(seat);
          ASSERT_EQ(legal.size(), b->LegalMoves(seat).size());
          ASSERT_TRUE(MessageDifferencer::Equals(*a->BotMove(seat, "heuristic", 3),
                                                 *b->BotMove(seat, "heuristic", 3)));
          move = legal[rng.Below(static_cast<uint32_t>(legal.size()))];
        } else if (!a->View(seat).okey().drawn()) {
          move.mutable_okey()->mutable_draw();
        } else {
          move.mutable_okey()->mutable_discard()->set_tile(
              drawn.empty() ? a->View(seat).okey().my_hand(0) : drawn);
        }
        const MoveOutcome out_a = a->Apply(seat, move);
        const MoveOutcome out_b = b->Apply(seat, move);
        ASSERT_TRUE(out_a.accepted && out_b.accepted)
            << out_a.rejection.message() << " / " << out_b.rejection.message();
        drawn.clear();
        for (const v1::Event& event : out_a.events) {
          if (event.okey().has_tile_drawn()) drawn = event.okey().tile_drawn().tile();
        }
        if (EndsTheDeal(out_a.events)) break;
        testing::ExpectSameSeen(out_a.events, out_b.events, viewer);
      }
      if (HasFatalFailure()) return;
    }
  }
}

TEST(OkeyBotsTest, TheHeuristicWinsFarMoreDealsThanRandomPlay) {
  const Settings settings{.max_deals = 1};
  State state(settings, 1);
  const std::array<BotKind, 4> bots = {BotKind::kHeuristic, BotKind::kRandom, BotKind::kRandom,
                                       BotKind::kRandom};
  int heuristic_wins = 0;
  int random_wins = 0;
  constexpr int kDeals = 300;
  for (int game = 0; game < kDeals; ++game) {
    state.Reset(GameSeed(81, game));
    Rng rng(BotSeed(GameSeed(81, game)));
    while (!state.over()) {
      const int seat = state.to_act();
      const Action action = ChooseAction(bots[seat], SeatView(state, seat), rng);
      ASSERT_EQ(state.Check(seat, action).reason, Reason::kNone) << "a bot chose a refused action";
      state.Apply(seat, action, nullptr);
      state.CheckInvariants();
    }
    const int winner = state.records().back().winner;
    heuristic_wins += winner == 0 ? 1 : 0;
    random_wins += winner > 0 ? 1 : 0;
  }
  RecordProperty("heuristic_wins", heuristic_wins);
  EXPECT_GE(heuristic_wins, kDeals / 3) << heuristic_wins;
  EXPECT_GT(heuristic_wins, 5 * random_wins) << random_wins;
}

TEST(OkeyGameTest, SettingsAreRefusedWithTheField) {
  auto refused = [](auto fill) {
    v1::GameSettings settings;
    fill(settings.mutable_okey());
    return std::string(NewGame(settings, {}).status().message());
  };
  EXPECT_THAT(refused([](v1::OkeySettings* s) { s->set_players(5); }),
              ::testing::HasSubstr("players: 5 is outside 2..4"));
  EXPECT_THAT(refused([](v1::OkeySettings* s) { s->set_first_starter(4); }),
              ::testing::HasSubstr("first_starter: 4 is outside 0..3"));
  EXPECT_THAT(refused([](v1::OkeySettings* s) {
                s->set_players(3);
                s->set_partners(true);
              }),
              ::testing::HasSubstr("partners: a partnership game has 4 players"));
  EXPECT_THAT(refused([](v1::OkeySettings* s) {
                s->set_partners(true);
                s->set_elimination(true);
              }),
              ::testing::HasSubstr("elimination: not with partners"));
  EXPECT_THAT(refused([](v1::OkeySettings* s) { s->set_single_colour_red_black_only(true); }),
              ::testing::HasSubstr("needs single_colour_doubles"));
  EXPECT_THAT(refused([](v1::OkeySettings* s) { s->set_max_deals(-1); }),
              ::testing::HasSubstr("max_deals: -1 is negative"));
}

// Partners are ranked as teams, as the rating service's team mode records them: the team with more
// points ranks 1, the other 2 (both 1 on equal sums), both partners holding their team's rank.
TEST(OkeyClassicTest, PartnersRankAsTeams) {
  v1::GameSettings settings;
  settings.mutable_okey()->set_partners(true);
  settings.mutable_okey()->set_max_deals(3);
  int unequal = 0;
  for (uint64_t seed = 1; seed <= 20; ++seed) {
    v1::Deal deal;
    deal.set_seed(seed);
    std::unique_ptr<Game> game = std::move(NewGame(settings, deal)).value();
    for (int moves = 0; !game->IsOver() && moves < 5000; ++moves) {
      const int seat = game->SeatsToAct()[0];
      ASSERT_TRUE(game->Apply(seat, *game->BotMove(seat, "heuristic", seed + moves)).accepted);
    }
    ASSERT_TRUE(game->IsOver());
    const v1::Result result = game->Result();
    const double team0 = result.seats(0).score() + result.seats(2).score();
    const double team1 = result.seats(1).score() + result.seats(3).score();
    unequal += team0 != team1 ? 1 : 0;
    EXPECT_EQ(result.seats(0).rank(), team0 >= team1 ? 1 : 2) << "seed " << seed;
    EXPECT_EQ(result.seats(2).rank(), result.seats(0).rank());
    EXPECT_EQ(result.seats(1).rank(), team1 >= team0 ? 1 : 2) << "seed " << seed;
    EXPECT_EQ(result.seats(3).rank(), result.seats(1).rank());
  }
  EXPECT_GT(unequal, 0) << "some game must tell the teams apart";
}

// Found by the fuzzer: with elimination and no deal limit, the game can end by elimination in a
// deal whose leavers still hold that deal's tiles (no next deal takes them back). The final deal's
// tiles stay where it ended them, and every tile is still in exactly one place.
TEST(OkeyClassicTest, AnEliminationGameEndsWithEveryTileAccountedFor) {
  v1::GameSettings settings;
  settings.mutable_okey()->set_players(3);
  settings.mutable_okey()->set_elimination(true);
  int ended_by_elimination = 0;
  for (uint64_t seed = 1; seed <= 8; ++seed) {
    v1::Deal deal;
    deal.set_seed(seed);
    std::unique_ptr<Game> game = std::move(NewGame(settings, deal)).value();
    for (int moves = 0; !game->IsOver() && moves < 20000; ++moves) {
      const int seat = game->SeatsToAct()[0];
      ASSERT_TRUE(game->Apply(seat, *game->BotMove(seat, "heuristic", seed + moves)).accepted);
      game->CheckInvariants();
    }
    ASSERT_TRUE(game->IsOver()) << "seed " << seed;
    ended_by_elimination += game->Result().ending() == "points_exhausted" ? 1 : 0;
  }
  EXPECT_GT(ended_by_elimination, 0);
}

}  // namespace
}  // namespace kahve::engine::okey_classic

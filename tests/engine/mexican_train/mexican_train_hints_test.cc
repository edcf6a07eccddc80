// Mexican Train hints (issue 8): the legal plays and the heuristic bot's suggested one, for the
// seat asking, from its own view.

#include <memory>

#include "engine/core/game.h"
#include "engine/core/registry.h"
#include "engine/core/rng.h"
#include "google/protobuf/util/message_differencer.h"
#include "gtest/gtest.h"

namespace kahve::engine {
namespace {

using google::protobuf::util::MessageDifferencer;

std::unique_ptr<Game> NewMatch(uint64_t seed) {
  v1::GameSettings settings;
  settings.mutable_mexican_train()->set_players(3);
  v1::Deal deal;
  deal.set_seed(seed);
  return std::move(NewGame(settings, deal)).value();
}

TEST(MexicanTrainHintsTest, TheSeatToActGetsItsLegalMovesAndTheHeuristicBotsChoice) {
  std::unique_ptr<Game> game = NewMatch(5);
  Rng rng(5);
  for (int step = 0; step < 400 && !game->IsOver(); ++step) {
    const int acting = game->SeatsToAct()[0];
    for (int seat = 0; seat < 3; ++seat) {
      const v1::MexicanTrainHints hints = game->Hints(seat).value().mexican_train();
      const std::vector<v1::Move> legal = game->LegalMoves(seat);
      ASSERT_EQ(hints.legal_size(), static_cast<int>(legal.size()));
      for (size_t i = 0; i < legal.size(); ++i) {
        EXPECT_TRUE(MessageDifferencer::Equals(hints.legal(i), legal[i].mexican_train()));
      }
      EXPECT_EQ(hints.has_suggested(), seat == acting);
      if (seat != acting) continue;
      // The bot's choice, whatever its seed: it draws on chance only between non-plays, and a
      // turn offers one at a time.
      const v1::Move bot = game->BotMove(seat, "heuristic", step + 1).value();
      EXPECT_TRUE(MessageDifferencer::Equals(hints.suggested(), bot.mexican_train()));
      EXPECT_TRUE(game->DryRun(seat, bot).accepted);
    }
    const std::vector<v1::Move> legal = game->LegalMoves(acting);
    ASSERT_TRUE(game->Apply(acting, legal[rng.Below(legal.size())]).accepted);
  }
}

TEST(MexicanTrainHintsTest, ThePlanIsAChainFromTheSeatsOwnTrainEnd) {
  std::unique_ptr<Game> game = NewMatch(11);
  int planned = 0;
  for (int seat = 0; seat < 3; ++seat) {
    const v1::MexicanTrainHints hints = game->Hints(seat).value().mexican_train();
    const v1::MexicanTrainView view = game->View(seat).mexican_train();
    int end = view.trains(seat).end();
    for (const std::string& tile : hints.own_train_plan()) {
      // "low-high": each tile matches the end it is laid on, and leaves its other half.
      const int low = std::stoi(tile.substr(0, tile.find('-')));
      const int high = std::stoi(tile.substr(tile.find('-') + 1));
      ASSERT_TRUE(low == end || high == end) << tile << " does not follow " << end;
      end = low == end ? high : low;
      EXPECT_NE(std::find(view.my_hand().begin(), view.my_hand().end(), tile),
                view.my_hand().end());
      ++planned;
    }
  }
  EXPECT_GT(planned, 0) << "the deal gives no seat a plan: the test proves nothing";
}

TEST(MexicanTrainHintsTest, ASpectatorAndAFinishedGameGetNone) {
  std::unique_ptr<Game> game = NewMatch(3);
  EXPECT_EQ(game->Hints(kSpectator).status().code(), absl::StatusCode::kFailedPrecondition);
  Rng rng(3);
  while (!game->IsOver()) {
    const int seat = game->SeatsToAct()[0];
    const std::vector<v1::Move> legal = game->LegalMoves(seat);
    ASSERT_TRUE(game->Apply(seat, legal[rng.Below(legal.size())]).accepted);
  }
  EXPECT_EQ(game->Hints(0).status().code(), absl::StatusCode::kFailedPrecondition);
}

}  // namespace
}  // namespace kahve::engine

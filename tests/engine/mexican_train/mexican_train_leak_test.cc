// Mexican Train's hidden information: until a round's end shows every hand, no event or view a
// seat (or a spectator) may see, and no hint, names a tile that seat could not know: its own hand
// and draws, the tiles on the table and the engine. A drawn tile is named only to its drawer.

#include <memory>
#include <set>
#include <string>

#include "engine/core/game.h"
#include "engine/core/registry.h"
#include "engine/core/rng.h"
#include "gtest/gtest.h"

namespace kahve::engine {
namespace {

// Every tile name a visible event or a view carries.
void Names(const v1::MexicanTrainEvent& event, std::set<std::string>* out) {
  for (const std::string& tile : event.tiles_dealt().tiles()) out->insert(tile);
  if (event.has_tile_drawn()) out->insert(event.tile_drawn().tile());
}

TEST(MexicanTrainLeakTest, NoSeatSeesAnotherSeatsTilesBeforeTheRoundEnds) {
  for (uint64_t seed = 1; seed <= 20; ++seed) {
    v1::GameSettings settings;
    settings.mutable_mexican_train()->set_players(4);
    v1::Deal deal;
    deal.set_seed(seed);
    std::unique_ptr<Game> game = std::move(NewGame(settings, deal)).value();
    Rng rng(seed);
    // What each seat may know: its own tiles (dealt or drawn) and the table.
    std::vector<std::set<std::string>> own(4);
    std::set<std::string> table;
    auto check = [&](const std::vector<v1::Event>& events) -> bool {
      for (const v1::Event& event : events) {
        const v1::MexicanTrainEvent& train = event.mexican_train();
        if (train.has_round_ended()) return false;  // from here every hand is shown
        if (train.has_round_started()) table.insert(train.round_started().engine());
        if (train.has_tile_played()) table.insert(train.tile_played().tile());
        for (int seat = kSpectator; seat < 4; ++seat) {
          if (!IsVisibleTo(event, seat)) continue;
          std::set<std::string> named;
          Names(train, &named);
          for (const std::string& tile : named) {
            if (seat == kSpectator) {
              ADD_FAILURE() << "a spectator sees " << tile;
            } else {
              own[seat].insert(tile);  // dealt or drawn to this seat: it is its own
              EXPECT_TRUE(event.private_to() == seat) << "a hidden tile shown beyond its owner";
            }
          }
        }
      }
      return true;
    };
    bool same_round = check(game->deal_events());
    while (!game->IsOver() && same_round) {
      for (int seat = kSpectator; seat < 4; ++seat) {
        const v1::MexicanTrainView view = game->View(seat).mexican_train();
        for (const std::string& tile : view.my_hand()) {
          EXPECT_TRUE(seat >= 0 && own[seat].count(tile) == 1)
              << "seat " << seat << " sees " << tile << " it never held";
        }
        if (seat == kSpectator) continue;
        // Hints name only the seat's own tiles: its moves, the bot's choice, its plan.
        const v1::MexicanTrainHints hints = game->Hints(seat).value().mexican_train();
        std::set<std::string> hinted(hints.own_train_plan().begin(), hints.own_train_plan().end());
        for (const v1::MexicanTrainMove& move : hints.legal()) hinted.insert(move.play().tile());
        hinted.insert(hints.suggested().play().tile());
        hinted.erase("");
        for (const std::string& tile : hinted) {
          EXPECT_EQ(own[seat].count(tile), 1u) << "a hint to seat " << seat << " names " << tile;
        }
      }
      const int seat = game->SeatsToAct()[0];
      const std::vector<v1::Move> legal = game->LegalMoves(seat);
      const MoveOutcome outcome = game->Apply(seat, legal[rng.Below(legal.size())]);
      ASSERT_TRUE(outcome.accepted);
      same_round = check(outcome.events);
    }
  }
}

}  // namespace
}  // namespace kahve::engine

// okey51 at a real table (gRPC and PostgreSQL): four players play a deal through the service, and
// GetHints serves each seat its own hints where the table's settings turn them on.

#include <algorithm>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/services/service_testing.h"
#include "tests/services/table/table_fixture.h"

namespace kahve::table {
namespace {

const std::vector<std::string> kFour = {"ana", "ben", "cem", "dua"};

v1::TableOptions Relaxed() {
  v1::TableOptions options;
  options.set_away_grace_seconds(60);
  return options;
}

v1::GameSettings Okey51(bool hints) {
  v1::GameSettings settings;
  settings.mutable_okey51()->set_hints(hints);
  return settings;
}

class TableOkey51Test : public TableServiceTest {
 protected:
  grpc::Status Hints(const std::string& table_id, const std::string& player,
                     const std::string& token, v1::GetHintsResponse* response) {
    auto context = kahve::testing::ContextFor(player);
    v1::GetHintsRequest request;
    request.set_table_id(table_id);
    request.set_seat_token(token);
    return stub().GetHints(context.get(), request, response);
  }
};

// The tiles the hints sort (groups and loose), as names, sorted.
std::vector<std::string> HintedTiles(const v1::OkeyHints& hints) {
  std::vector<std::string> tiles(hints.loose().begin(), hints.loose().end());
  for (const v1::OkeyMeld& group : hints.groups()) {
    for (const v1::OkeyPlacedTile& tile : group.tiles()) tiles.push_back(tile.tile());
  }
  std::sort(tiles.begin(), tiles.end());
  return tiles;
}

TEST_F(TableOkey51Test, FourPlayersPlayADealAndEachSeatGetsItsOwnHints) {
  std::string table_id;
  const v1::GameSettings settings = Okey51(/*hints=*/true);
  const std::vector<Player> players = CreateTable(kFour, Relaxed(), &table_id, 7, &settings);
  ASSERT_EQ(players.size(), 4u);

  for (const Player& player : players) {
    v1::GetHintsResponse hints;
    ASSERT_TRUE(Hints(table_id, player.id, player.token, &hints).ok()) << player.id;
    auto view = View(table_id, player.id, player.token);
    ASSERT_TRUE(view.ok());
    std::vector<std::string> hand(view->view().okey51().my_hand().begin(),
                                  view->view().okey51().my_hand().end());
    std::sort(hand.begin(), hand.end());
    // The hints sort exactly the seat's own hand: every tile once, nobody else's.
    EXPECT_EQ(HintedTiles(hints.hints().okey()), hand) << player.id;
    EXPECT_EQ(hints.seq(), view->seq());
  }

  // A spectator has no hand to hint at; a token of another table or none at all gets nothing.
  v1::GetHintsResponse none;
  EXPECT_EQ(Hints(table_id, "ana", "", &none).error_code(), grpc::StatusCode::FAILED_PRECONDITION);
  EXPECT_EQ(Hints(table_id, "ana", "forged-token", &none).error_code(),
            grpc::StatusCode::PERMISSION_DENIED);
  EXPECT_EQ(Hints("no-such-table", "ana", players[0].token, &none).error_code(),
            grpc::StatusCode::NOT_FOUND);

  PlayToTheEnd(table_id, players);
  auto end = View(table_id, "ana", players[0].token);
  ASSERT_TRUE(end.ok());
  ASSERT_TRUE(end->view().over());
  const v1::Result& result = end->view().result();
  ASSERT_EQ(result.rounds_size(), 1);
  // Drawing and discarding only, nobody opens: the deck runs out and every seat pays 500.
  EXPECT_EQ(result.rounds(0).ending(), "deck_exhausted");
  EXPECT_THAT(result.rounds(0).seat_scores(), ::testing::Each(::testing::Ge(500)));
  EXPECT_EQ(Hints(table_id, "ana", players[0].token, &none).error_code(),
            grpc::StatusCode::FAILED_PRECONDITION)
      << "no hints once the game is over";
}

TEST_F(TableOkey51Test, HintsAreRefusedWhereTheTableTurnsThemOff) {
  std::string table_id;
  const v1::GameSettings settings = Okey51(/*hints=*/false);
  const std::vector<Player> players = CreateTable(kFour, Relaxed(), &table_id, 7, &settings);
  v1::GetHintsResponse hints;
  const grpc::Status status = Hints(table_id, "ana", players[0].token, &hints);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::FAILED_PRECONDITION);
  EXPECT_THAT(status.error_message(), ::testing::HasSubstr("hints are off"));

  // Liar's dice has no hints at all.
  std::string dice_table;
  const std::vector<Player> dice = CreateTable(kFour, Relaxed(), &dice_table);
  EXPECT_EQ(Hints(dice_table, "ana", dice[0].token, &hints).error_code(),
            grpc::StatusCode::FAILED_PRECONDITION);
}

}  // namespace
}  // namespace kahve::table

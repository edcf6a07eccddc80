#include "tools/kahve/demo_clients.h"

#include <cstdlib>
#include <string>
#include <vector>

#include "tools/kahve/table_bot.h"

namespace kahve::tools {
namespace {

// Liar's dice: the load test's client picture of the table (public facts only) picks the move.
v1::Move ChooseLiarsDiceMove(const v1::View& view, engine::Rng& rng) {
  BotTableState state;
  state.FromView(view);
  return ChooseMove(state, rng);
}

DemoClient LiarsDice() {
  DemoClient client{.ruleset = "liars_dice", .players = 3, .choose = &ChooseLiarsDiceMove};
  client.settings.mutable_liars_dice()->set_players(3);
  // Three dice each keep the demo's transcript short enough to read.
  client.settings.mutable_liars_dice()->set_dice_per_player(3);
  return client;
}

// A tile name's colour letter and number ("K12" -> 'K', 12).
std::pair<char, int> ColourAndNumber(const std::string& tile) {
  if (tile.size() < 2) return {tile.empty() ? '?' : tile[0], 0};
  return {tile[0], std::atoi(tile.c_str() + 1)};
}

// The tile of `hand` that helps it least, as a simple client judges: fewest tiles of its colour
// close by or of its number, the higher number first; never the okey while another will do.
std::string LeastUsefulTile(const google::protobuf::RepeatedPtrField<std::string>& hand,
                            const std::string& okey) {
  std::string worst;
  int worst_score = 0;
  for (const std::string& tile : hand) {
    if (tile == okey && hand.size() > 1) continue;
    const auto [colour, number] = ColourAndNumber(tile);
    int score = -number;
    for (const std::string& other : hand) {
      const auto [other_colour, other_number] = ColourAndNumber(other);
      const int gap = std::abs(other_number - number);
      if (other_colour == colour && (gap == 1 || gap == 2)) score += 20;
      if (other_colour != colour && gap == 0) score += 20;
    }
    if (worst.empty() || score < worst_score) {
      worst = tile;
      worst_score = score;
    }
  }
  return worst;
}

// okey51 and okey101 as a simple client plays them from its view: draw, then throw away the tile
// that helps its hand least. It never opens, so its deals run until the deck is out.
v1::Move ChooseLayingOkeyMove(const v1::View& view, engine::Rng& /*rng*/) {
  const bool okey51 = view.has_okey51();
  const v1::OkeyLayingView& okey = okey51 ? view.okey51() : view.okey101();
  v1::Move move;
  v1::OkeyLayingMove* laying = okey51 ? move.mutable_okey51() : move.mutable_okey101();
  if (!okey.drawn()) {
    laying->mutable_draw();
  } else {
    laying->mutable_discard()->set_tile(LeastUsefulTile(okey.my_hand(), okey.okey()));
  }
  return move;
}

// Classic okey the same way, showing the indicator's twin when it may. It never declares a win.
v1::Move ChooseOkeyMove(const v1::View& view, engine::Rng& /*rng*/) {
  v1::Move move;
  const v1::OkeyView& okey = view.okey();
  if (okey.may_show_indicator()) {
    move.mutable_okey()->mutable_show_indicator();
  } else if (!okey.drawn()) {
    move.mutable_okey()->mutable_draw();
  } else {
    move.mutable_okey()->mutable_discard()->set_tile(LeastUsefulTile(okey.my_hand(), okey.okey()));
  }
  return move;
}

// Mexican Train as a simple client plays it from its view: the first tile of its sorted hand that
// fits a train it may use, else a draw, else a pass.
v1::Move ChooseMexicanTrainMove(const v1::View& view, engine::Rng& /*rng*/) {
  const v1::MexicanTrainView& table = view.mexican_train();
  const int seat = view.seat();
  std::vector<int> trains;  // -1 is the Mexican train
  if (table.first_turn()) {
    trains = {seat};
  } else if (table.bound()) {
    trains = {table.open_doubles(0)};
  } else {
    trains = {seat, -1};
    for (int other = 0; other < table.trains_size(); ++other) {
      if (other != seat && table.trains(other).marked()) trains.push_back(other);
    }
  }
  v1::Move move;
  v1::MexicanTrainMove* train_move = move.mutable_mexican_train();
  for (const std::string& tile : table.my_hand()) {
    const size_t dash = tile.find('-');
    const int low = std::atoi(tile.substr(0, dash).c_str());
    const int high = std::atoi(tile.substr(dash + 1).c_str());
    for (const int train : trains) {
      const int end = train < 0 ? table.mexican().end() : table.trains(train).end();
      if (low == end || high == end) {
        train_move->mutable_play()->set_tile(tile);
        train_move->mutable_play()->set_train(train);
        return move;
      }
    }
  }
  if (!table.first_turn() && !table.drew() && table.boneyard_count() > 0) {
    train_move->mutable_draw();
  } else {
    train_move->mutable_pass();
  }
  return move;
}

DemoClient MexicanTrain() {
  DemoClient client{.ruleset = "mexican_train", .players = 4, .choose = &ChooseMexicanTrainMove};
  client.settings.mutable_mexican_train()->set_players(4);
  return client;
}

DemoClient Okey() {
  DemoClient client{.ruleset = "okey", .players = 4, .choose = &ChooseOkeyMove};
  // One deal: clients that never win would otherwise play on for ever.
  client.settings.mutable_okey()->set_max_deals(1);
  return client;
}

DemoClient Okey51() {
  DemoClient client{.ruleset = "okey51", .players = 4, .choose = &ChooseLayingOkeyMove};
  // Hints on: the demo's players could ask the table for them.
  client.settings.mutable_okey51()->set_hints(true);
  return client;
}

DemoClient Okey101() {
  DemoClient client{.ruleset = "okey101", .players = 4, .choose = &ChooseLayingOkeyMove};
  // Three deals, the fewest okey101 plays.
  client.settings.mutable_okey101()->set_deals(3);
  return client;
}

}  // namespace

const std::vector<DemoClient>& DemoClients() {
  static const std::vector<DemoClient> clients = {LiarsDice(), Okey(), Okey51(), Okey101(),
                                                  MexicanTrain()};
  return clients;
}

}  // namespace kahve::tools

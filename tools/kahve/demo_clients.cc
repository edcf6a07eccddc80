#include "tools/kahve/demo_clients.h"

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

}  // namespace

const std::vector<DemoClient>& DemoClients() {
  static const std::vector<DemoClient> clients = {LiarsDice()};
  return clients;
}

}  // namespace kahve::tools

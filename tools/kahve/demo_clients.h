#ifndef KAHVE_TOOLS_KAHVE_DEMO_CLIENTS_H_
#define KAHVE_TOOLS_KAHVE_DEMO_CLIENTS_H_

// What `kahve demo` needs to play a ruleset the way a third-party client would: the game it
// queues for, and a client's choice of move made from that seat's own view alone (the client has
// no engine and sees only what the server shows it). Every ruleset of the engine has one entry; a
// test holds the list to the engine's registry and plays each to the end with its choices.

#include <string_view>
#include <vector>

#include "engine/core/rng.h"
#include "kahve/v1/engine.pb.h"

namespace kahve::tools {

struct DemoClient {
  std::string_view ruleset;  // engine id (engine/core/registry.h)
  // Players that queue together, and the settings they queue for (the table size).
  int players = 0;
  v1::GameSettings settings;
  // A legal move for the seat the view belongs to, which must be one of view.to_act.
  v1::Move (*choose)(const v1::View& view, engine::Rng& rng) = nullptr;
};

const std::vector<DemoClient>& DemoClients();

}  // namespace kahve::tools

#endif  // KAHVE_TOOLS_KAHVE_DEMO_CLIENTS_H_

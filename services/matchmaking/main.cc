// kahve-matchmaking: the matchmaking service. See docs/configuration.md for every flag (each also
// read from KAHVE_<NAME>) and docs/matchmaking.md for the rules.

#include "services/matchmaking/matchmaking_process.h"

int main(int argc, char** argv) {
  return kahve::common::RunServiceMain(argc, argv, kahve::matchmaking::kMatchmakingService);
}

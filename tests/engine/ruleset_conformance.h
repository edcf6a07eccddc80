#ifndef KAHVE_TESTS_ENGINE_RULESET_CONFORMANCE_H_
#define KAHVE_TESTS_ENGINE_RULESET_CONFORMANCE_H_

// The conformance kit every ruleset's tests run (after OpenSpiel's basic_tests): seeded random
// games through the engine interface, checking what every ruleset must hold.

#include <cstdint>
#include <functional>

#include "engine/core/rng.h"
#include "kahve/v1/engine.pb.h"

namespace kahve::engine::testing {

struct ConformanceOptions {
  v1::GameSettings settings;
  int games = 1000;
  uint64_t seed = 1;
  // A game longer than this fails the "every game ends" check.
  int max_moves = 100000;
  // A move that may or may not be legal, to drive the rejection path; null: only legal moves.
  std::function<v1::Move(Rng&)> random_move;
};

// Plays options.games games with uniformly random legal moves and checks, after every move:
// SeatsToAct sorted, unique and empty exactly when over; seats that may not act list only moves
// they may make out of turn, and get NOT_YOUR_TURN for the acting seat's move; a spectator and a
// seat past the last list no moves; legal moves unique; a random move is accepted exactly when it
// is listed as legal; a rejected move changes nothing; DryRun answers as Apply would (its events a
// prefix of Apply's) and changes nothing; events carry the move number and a valid audience;
// CheckInvariants; a clone equals its original; replay of (settings, deal, history) equals the
// game at power-of-two move counts and at the end; every game ends; the result ranks every seat,
// with ties sharing a rank.
void RunConformance(const ConformanceOptions& options);

}  // namespace kahve::engine::testing

#endif  // KAHVE_TESTS_ENGINE_RULESET_CONFORMANCE_H_

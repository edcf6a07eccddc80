#ifndef KAHVE_TOOLS_KAHVE_DEMO_PRACTICE_H_
#define KAHVE_TOOLS_KAHVE_DEMO_PRACTICE_H_

// The practice part of `kahve demo`: one player opens a practice table against bots, takes the
// table's hint, plays it, undoes it (with the bots' replies), redoes it, pauses and resumes, then
// resigns so the bots play the game out. Checks that the undo and redo bring back exactly the
// views the player saw before and after the move. Prints a line per step with `transcript`, one
// line in all otherwise.

#include <string>

#include "absl/status/status.h"
#include "kahve/v1/engine.pb.h"
#include "tools/kahve/demo_player.h"

namespace kahve::tools {

// `table_endpoint`: a table host (host:port); `settings` must be a ruleset with hints on.
absl::Status PlayPractice(const std::string& table_endpoint, const v1::GameSettings& settings,
                          const DemoPlayerIdentity& player, bool transcript);

}  // namespace kahve::tools

#endif  // KAHVE_TOOLS_KAHVE_DEMO_PRACTICE_H_

#ifndef KAHVE_TOOLS_KAHVE_TRANSCRIPT_H_
#define KAHVE_TOOLS_KAHVE_TRANSCRIPT_H_

// `kahve replay`'s account of a finished game (docs/replay.md): the table's header (table, match,
// who sat where), then the engine's transcript for one seat or a spectator
// (engine/core/transcript.h), which alone decides what hidden information the reader sees.

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "kahve/v1/table.pb.h"

namespace kahve::tools {

struct ReplayTextOptions {
  // A seat of the game, or -1 for a spectator.
  int seat = -1;
  bool full_state = false;
};

// InvalidArgument for a seat that is not the game's or a replay the engine cannot play.
absl::StatusOr<std::vector<std::string>> ReplayText(const v1::Replay& replay,
                                                    const ReplayTextOptions& options);

}  // namespace kahve::tools

#endif  // KAHVE_TOOLS_KAHVE_TRANSCRIPT_H_

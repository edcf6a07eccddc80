#ifndef KAHVE_TOOLS_KAHVE_DEAL_VERIFIER_H_
#define KAHVE_TOOLS_KAHVE_DEAL_VERIFIER_H_

// `kahve verify`'s checks (docs/fairness.md): that a finished game's replay opens the deal
// commitment its table published, that its moves replayed on the engine give its result, and that
// a saved Connect stream shows each update as the replayed game shows it to that recipient.

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "kahve/v1/table.pb.h"

namespace kahve::tools {

struct VerifiedReplay {
  std::string ruleset;
  int seats = 0;
  int moves = 0;
  std::string ending;
};

// Checks `replay`: it has a commitment and a reveal, the reveal opens the commitment for its deal
// (deal_commitment.h, CheckReveal), the engine accepts its settings and deal and every move in
// turn, the events it lists (deal_events, each move's events; replays of servers before 0.2.0
// list none) are the replayed game's, the game is over after the last move, and the replayed
// result is the recorded one.
// FailedPrecondition naming the first mismatch (the field, or the move by index, number and seat,
// with both values).
absl::StatusOr<VerifiedReplay> VerifyReplay(const v1::Replay& replay);

struct VerifiedStream {
  int recipient = 0;  // a seat, or -1 for a spectator
  size_t updates = 0;
  uint64_t first_seq = 0;
  uint64_t last_seq = 0;
  // The first snapshot's move number: the commitment was seen before move first_move + 1.
  uint64_t first_move = 0;
  int moves_checked = 0;
  bool reached_end = false;
};

// Checks one recipient's saved Connect stream against a replay VerifyReplay accepted: it starts
// with a snapshot; seqs follow one another (a later snapshot, after a reconnect, may skip ahead);
// every snapshot shows the replay's commitment and the view the replayed game gives the recipient
// at that move; every MoveApplied names the replay's next move's seat and bot, and carries exactly
// the events the replayed game shows the recipient, the seats to act, and with the last move the
// result and the replay's reveal (never a reveal before it). FailedPrecondition naming the first
// mismatch by line, seq and move; InvalidArgument for a stream it cannot check (no snapshot first,
// practice undo or redo).
absl::StatusOr<VerifiedStream> VerifyStream(const v1::Replay& replay,
                                            const std::vector<v1::TableUpdate>& updates);

}  // namespace kahve::tools

#endif  // KAHVE_TOOLS_KAHVE_DEAL_VERIFIER_H_

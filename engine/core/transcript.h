#ifndef KAHVE_ENGINE_CORE_TRANSCRIPT_H_
#define KAHVE_ENGINE_CORE_TRANSCRIPT_H_

// A readable move-by-move account of a game as one seat, or a spectator, saw it (`kahve replay`,
// docs/replay.md). The game is replayed on the engine and the account is written from
// Game::View(recipient) and VisibleTo(events, recipient) alone, through the ruleset's RulesetText:
// it never reads the deal or another seat's view, so it holds nothing the recipient could not see.

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "engine/core/game.h"

namespace kahve::engine {

// One accepted move, with a note on who chose it (e.g. "bot: timeout"), empty for a player's own.
struct TranscriptMove {
  int seat = 0;
  v1::Move move;
  std::string note;
};

struct TranscriptOptions {
  // A seat of the game, or kSpectator (public information only).
  int recipient = kSpectator;
  // Shown beside seat numbers in the result (player ids, bot kinds); index = seat, may be short.
  std::vector<std::string> seat_names;
  // Every state line after every move; otherwise only the lines that changed.
  bool full_state = false;
};

// The transcript's lines: the settings, the deal's events and state, per move its number, seat,
// note, words and the events and state the recipient saw, then the result. InvalidArgument for a
// recipient that is no seat of the game, settings or a deal the ruleset refuses, or a move the
// engine rejects (naming its number).
absl::StatusOr<std::vector<std::string>> Transcript(const v1::GameSettings& settings,
                                                    const v1::Deal& deal,
                                                    const std::vector<TranscriptMove>& moves,
                                                    const TranscriptOptions& options);

// A result in words: the ending, each seat's rank and score, the score of each round or deal.
std::vector<std::string> ResultLines(const v1::Result& result,
                                     const std::vector<std::string>& seat_names);

}  // namespace kahve::engine

#endif  // KAHVE_ENGINE_CORE_TRANSCRIPT_H_

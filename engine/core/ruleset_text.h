#ifndef KAHVE_ENGINE_CORE_RULESET_TEXT_H_
#define KAHVE_ENGINE_CORE_RULESET_TEXT_H_

// How a ruleset puts its kahve.v1 messages into words, for transcripts (`kahve replay`,
// docs/replay.md). Each function sees one message and nothing else, so it can say no more than
// that message holds: what a reader learns from a transcript is what its views and events showed.

#include <string>
#include <vector>

#include "kahve/v1/engine.pb.h"

namespace kahve::engine {

struct RulesetText {
  // The settings in brief, e.g. "4 players, 5 dice each".
  std::string (*settings)(const v1::GameSettings& settings) = nullptr;
  // A move in words without its seat, e.g. "bids 3 x 5". Moves are public intents in every
  // ruleset (a draw names no tile), so any reader may see them.
  std::string (*move)(const v1::Move& move) = nullptr;
  // An event in words, naming its seat where it has one; "" for one not worth a line. A long one
  // (a deal's end with every hand) may hold several lines, separated by '\n'.
  std::string (*event)(const v1::Event& event) = nullptr;
  // The view's state, compactly, one line per part (the reader's own hand or dice, the table).
  std::vector<std::string> (*view)(const v1::View& view) = nullptr;
};

// Words shared by the rulesets' texts.
// "seat 2"; "nobody" for -1.
std::string SeatText(int seat);
// Per-seat numbers as "0:5 1:3 2:0" (index = seat).
std::string PerSeatText(const google::protobuf::RepeatedField<int32_t>& values);
// "2 tiles" / "1 tile".
std::string Counted(int count, const std::string& noun);

}  // namespace kahve::engine

#endif  // KAHVE_ENGINE_CORE_RULESET_TEXT_H_

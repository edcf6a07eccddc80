#ifndef KAHVE_TESTS_FUZZ_ENGINE_FUZZ_H_
#define KAHVE_TESTS_FUZZ_ENGINE_FUZZ_H_

// What the engine fuzz targets share with the corpus generator (make_corpus.cc): the input format,
// the settings each ruleset's bytes decode to, and the checks run on every step.
//
// An input is [4 settings bytes][4 seed bytes, little-endian], then steps, each opened by a byte h
// whose top two bits say what follows and whose low four bits name a seat:
//   0  a move from the input: seat (h & 15) - 1, a 2-byte little-endian length n, then n bytes of
//      a serialized kahve.v1.Move (bytes that do not parse skip the step);
//   1  a listed move: seat (h & 15) % seats, then a byte k: LegalMoves(seat)[k % count];
//   2  a bot's move: seat (h & 15) - 1, then a byte b: bot kind b % kinds, bot seed b;
//   3  an audit of seat (h & 15) - 1: each of its listed moves passes DryRun, its hints, every
//      seat's view, a clone. Audits in a row see the same game, so they check each seat, the
//      views and the clone once.
// Seats run from -1 to 14, so spectators and seats out of range are tried too.

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "kahve/v1/engine.pb.h"

namespace kahve::fuzz {

inline constexpr size_t kSettingsBytes = 4;
inline constexpr size_t kHeaderBytes = kSettingsBytes + 4;

enum class Step : uint8_t { kMove = 0, kListed = 1, kBot = 2, kAudit = 3 };

struct FuzzedRuleset {
  std::string_view id;  // as in engine/registry.cc
  // Settings from the input's first bytes; some decode to settings NewGame refuses, which ends
  // the input there (the refusal is checked, not the game).
  v1::GameSettings (*settings)(const uint8_t* bytes);
};

// The five rulesets, in registry order.
const std::vector<FuzzedRuleset>& FuzzedRulesets();
// The ruleset named `id`; aborts on an unknown one (a typo in a target).
const FuzzedRuleset& FuzzedRulesetFor(std::string_view id);

// Plays one input; aborts (so libFuzzer reports it) when a property fails: a rejection that
// changed the game or gave no reason, DryRun disagreeing with Apply, a listed or bot move refused,
// a broken invariant, events out of place, replay or a clone differing from the game. Invariants
// and who acts are checked after every move; views (a message per tile) at power-of-two move
// numbers, at the game's end, at the input's last position and in audits; replay at the end.
void RunEngineInput(const FuzzedRuleset& ruleset, const uint8_t* data, size_t size);

// Writes inputs in the format above (the corpus generator).
class EngineInputWriter {
 public:
  EngineInputWriter(const uint8_t* settings, uint32_t seed);

  void Move(int seat, const v1::Move& move);
  void Listed(int seat, uint8_t index);
  void Bot(int seat, uint8_t choice);
  void Audit(int seat);

  const std::string& bytes() const { return bytes_; }

 private:
  void Open(Step step, int seat_nibble);
  std::string bytes_;
};

}  // namespace kahve::fuzz

#endif  // KAHVE_TESTS_FUZZ_ENGINE_FUZZ_H_

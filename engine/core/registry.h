#ifndef KAHVE_ENGINE_CORE_REGISTRY_H_
#define KAHVE_ENGINE_CORE_REGISTRY_H_

#include <cstdint>
#include <memory>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "engine/core/game.h"
#include "engine/core/ruleset_text.h"
#include "engine/core/seating.h"
#include "engine/core/simulation.h"

namespace kahve::engine {

// A setting a matchmaking queue may ask for, and the values queues offer for it: few, so that
// the queues clients can open are few and known (docs/matchmaking.md, Queues). The engine stays
// the judge of settings; the list only narrows what a queue may ask for, to values it deals.
// Ascending; a bool's are 0 and 1.
struct QueueableSetting {
  std::string_view name;
  std::vector<int32_t> values;
};

// One ruleset: its id (as in RULES.md), how to start a game, how to simulate many, and what
// matchmaking and tools need to know of its settings, so that no switch on rulesets is needed
// outside engine/ (docs/engine.md, section 4). The engine's `new_game` stays the one judge of
// settings: player ranges are checked there alone.
struct Ruleset {
  std::string_view id;
  v1::GameSettings::RulesetCase settings_case;
  absl::StatusOr<std::unique_ptr<Game>> (*new_game)(const v1::GameSettings&, const v1::Deal&);
  // Plays options.games bot games on the ruleset's fast path (no protobuf per move).
  absl::StatusOr<SimSummary> (*simulate)(const SimOptions& options);
  // The fields of the ruleset's kahve.v1 settings message (int32 or bool scalars, by name) a
  // matchmaking queue may ask for, each with its values, in the order a queue key lists them
  // (docs/matchmaking.md). The others (first starter, round limits) are for simulations,
  // scenarios and practice tables: a queue that could ask for them would only split its players.
  std::vector<QueueableSetting> queueable_settings;
  // Writes each default into the optional settings fields left unset (the ruleset's oneof of
  // `settings` must be the one set), so settings that mean the same game compare equal.
  void (*fill_defaults)(v1::GameSettings& settings);
  // The seats settings with defaults filled in ask for, and the fewest `with_players` may shrink
  // them to.
  Seating (*seating)(const v1::GameSettings& settings);
  // Rewrites filled settings for a table of `players` seats (seating's min..preferred); null when
  // the table size never shrinks (seating's min equals preferred).
  void (*with_players)(v1::GameSettings& settings, int players);
  // The bool field of the ruleset's settings message that plays 2v2, partners opposite
  // (engine/core/seating.h: TeamOf, PartnerOf): a TEAMS queue turns it on, a SOLO queue off.
  // Empty: no partnerships.
  std::string_view partnership_setting;
  // Writes what a bot simulation needs beyond the defaults, before `kahve sim` writes its flags;
  // null when the defaults serve.
  void (*fill_sim_defaults)(v1::GameSettings& settings);
  // Its messages in words, for transcripts (engine/core/transcript.h): the ruleset's knowledge
  // of how to say a move, an event or a view stays in its folder.
  const RulesetText* text;
};

// Every ruleset, in one explicit list (engine/registry.cc).
const std::vector<Ruleset>& Rulesets();

// NotFound for an unknown id.
absl::StatusOr<const Ruleset*> FindRuleset(std::string_view id);
// The ruleset the settings name; InvalidArgument when they name none.
absl::StatusOr<const Ruleset*> RulesetOf(const v1::GameSettings& settings);
// A new game: InvalidArgument for settings or a deal the ruleset refuses.
absl::StatusOr<std::unique_ptr<Game>> NewGame(const v1::GameSettings& settings,
                                              const v1::Deal& deal);

}  // namespace kahve::engine

#endif  // KAHVE_ENGINE_CORE_REGISTRY_H_

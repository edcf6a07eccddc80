#ifndef KAHVE_SERVICES_MATCHMAKING_QUEUE_SPEC_H_
#define KAHVE_SERVICES_MATCHMAKING_QUEUE_SPEC_H_

// What a queue is: the ruleset, the normalized settings and the mode that tickets ask for, and
// what the ruleset allows for tables formed from it (sizes, partners, bots). What differs between
// rulesets comes from the engine's registry (engine/core/registry.h), so matchmaking names none.

#include <string>

#include "absl/status/statusor.h"
#include "kahve/v1/engine.pb.h"
#include "kahve/v1/rating.pb.h"

namespace kahve::matchmaking {

struct QueueSpec {
  // Names the queue: tickets with the same key wait together. The ruleset, the mode and every
  // queueable setting (engine::Ruleset::queueable_settings, in its order) with defaults filled
  // in: "liars_dice/solo/players=4,dice_per_player=5"; booleans are 0 or 1. Stored in
  // mm_tickets.queue_key and used as a metric label, so its form is part of the contract
  // (docs/matchmaking.md).
  std::string key;
  std::string ruleset;
  // The settings with defaults filled in, so equivalent requests share a queue.
  v1::GameSettings settings;
  // 2v2: two teams of two (only rulesets with partners).
  bool teams = false;
  // The ratings that measure skill in this queue.
  v1::MatchMode mode = v1::SOLO;
  // The table size the settings ask for, and the fewest seats a table may start with after a
  // wait (equal when the ruleset's table size is fixed).
  int preferred_seats = 4;
  int min_seats = 4;
  // The ruleset has bots, so empty seats may be given to them.
  bool bots_allowed = false;
};

// The queue for a request: InvalidArgument for settings that name no ruleset, set a field that
// is not queueable (naming it) or a queueable one to a value queues do not offer (naming the
// field and its values), the engine refuses, or teams where the ruleset has no partners.
absl::StatusOr<QueueSpec> QueueSpecFor(const v1::GameSettings& settings, bool teams);

// A queue key's ruleset and mode read back from the key: its leading [a-z0-9_] (keys stored before
// the canonical form began "<ruleset> ", so they parse too while they linger in the statistics),
// and "teams" when the part after it is "/teams/", else "solo".
std::string RulesetOfKey(const std::string& key);
const char* ModeOfKey(const std::string& key);

// The settings of a table of `seats` seats formed in the queue (fewer than preferred after a
// wait).
v1::GameSettings SettingsForSeats(const QueueSpec& spec, int seats);

}  // namespace kahve::matchmaking

#endif  // KAHVE_SERVICES_MATCHMAKING_QUEUE_SPEC_H_

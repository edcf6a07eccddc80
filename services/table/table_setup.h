#ifndef KAHVE_SERVICES_TABLE_TABLE_SETUP_H_
#define KAHVE_SERVICES_TABLE_TABLE_SETUP_H_

// Checking a table's creation entry before a session exists.

#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "engine/core/game.h"
#include "kahve/v1/table.pb.h"

namespace kahve::table {

// The game a creation entry (seq 0, a TableCreated) describes, after checking every field: ids,
// settings and deal (engine::NewGame), options, one seat per game seat, bot kinds the ruleset
// has, distinct non-empty player ids, one token digest per human seat, a deal commitment (when
// present) that the stored salt, seed and preset open. InvalidArgument naming the first wrong
// field, e.g. "created.seats[2].bot_kind: ...".
absl::StatusOr<std::unique_ptr<engine::Game>> CheckCreated(const v1::TableLogEntry& entry);

// The bot that plays a human seat while the player is away, timed out or resigned: "heuristic"
// when the ruleset has it, else its first kind.
std::string TakeoverBotKind(const engine::Game& game);

}  // namespace kahve::table

#endif  // KAHVE_SERVICES_TABLE_TABLE_SETUP_H_

#ifndef KAHVE_ENGINE_CORE_BOT_KIND_H_
#define KAHVE_ENGINE_CORE_BOT_KIND_H_

// The bots every ruleset has, by the names tables and `kahve sim` use: "random" (a uniform choice
// among the legal moves) and "heuristic" (the ruleset's rules of thumb).

#include <string_view>

#include "absl/status/statusor.h"

namespace kahve::engine {

enum class BotKind { kRandom, kHeuristic };

// "random" or "heuristic"; NotFound, naming the bots, otherwise.
absl::StatusOr<BotKind> ParseBotKind(std::string_view name);
std::string_view BotName(BotKind kind);

}  // namespace kahve::engine

#endif  // KAHVE_ENGINE_CORE_BOT_KIND_H_

#include "engine/core/bot_kind.h"

#include <string>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"

namespace kahve::engine {

absl::StatusOr<BotKind> ParseBotKind(std::string_view name) {
  if (name == "random") return BotKind::kRandom;
  if (name == "heuristic") return BotKind::kHeuristic;
  return absl::NotFoundError(
      absl::StrCat("no bot \"", std::string(name), "\"; the bots: random, heuristic"));
}

std::string_view BotName(BotKind kind) { return kind == BotKind::kRandom ? "random" : "heuristic"; }

}  // namespace kahve::engine

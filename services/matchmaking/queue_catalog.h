#ifndef KAHVE_SERVICES_MATCHMAKING_QUEUE_CATALOG_H_
#define KAHVE_SERVICES_MATCHMAKING_QUEUE_CATALOG_H_

// The queues clients can open, all of them, from the values the engine's registry offers for each
// queueable setting (engine::QueueableSetting): few and known, so the queue budget can cover them
// (docs/matchmaking.md, Queues).

#include <string>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "services/matchmaking/queue_spec.h"

namespace kahve::matchmaking {

// Every queue: each ruleset and mode with every combination of the offered values that
// QueueSpecFor takes, in the registry's order. Deals a game per combination (a few hundred): for
// tests and the start-up check, not for calls.
std::vector<QueueSpec> EveryQueue();

// The keys of the standard queues: each ruleset's defaults, solo and, where the ruleset has
// partners, teams. What most players queue for, so the queue budget never refuses them.
absl::flat_hash_set<std::string> StandardQueueKeys();

}  // namespace kahve::matchmaking

#endif  // KAHVE_SERVICES_MATCHMAKING_QUEUE_CATALOG_H_

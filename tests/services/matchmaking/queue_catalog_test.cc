// The queues clients can open (queue_catalog.h, docs/matchmaking.md, Queues): how many there are
// per ruleset and mode, that every value the registry offers is one some queue takes, and which
// queues are standard.

#include "services/matchmaking/queue_catalog.h"

#include <cstdint>
#include <map>
#include <set>
#include <string>

#include "engine/core/registry.h"
#include "google/protobuf/descriptor.h"
#include "gtest/gtest.h"
#include "services/matchmaking/queue_budget.h"

namespace kahve::matchmaking {
namespace {

using google::protobuf::FieldDescriptor;
using google::protobuf::Message;

// The documented count (docs/matchmaking.md): what the budget's default must cover.
constexpr int64_t kQueues = 300;

// The value of a queueable setting in a queue's settings, a bool as 0 or 1.
int32_t ValueIn(const QueueSpec& queue, std::string_view name) {
  const FieldDescriptor* oneof =
      v1::GameSettings::descriptor()->FindFieldByNumber(queue.settings.ruleset_case());
  const Message& chosen = queue.settings.GetReflection()->GetMessage(queue.settings, oneof);
  const FieldDescriptor* field = chosen.GetDescriptor()->FindFieldByName(std::string(name));
  if (field->cpp_type() == FieldDescriptor::CPPTYPE_BOOL) {
    return chosen.GetReflection()->GetBool(chosen, field) ? 1 : 0;
  }
  return chosen.GetReflection()->GetInt32(chosen, field);
}

TEST(MatchmakingQueueCatalogTest, ThereAreThreeHundredQueuesEachWithItsOwnKey) {
  const std::vector<QueueSpec> queues = EveryQueue();
  std::set<std::string> keys;
  std::map<std::string, int> per_mode;
  for (const QueueSpec& queue : queues) {
    keys.insert(queue.key);
    ++per_mode[queue.key.substr(0, queue.key.rfind('/'))];
  }
  EXPECT_EQ(keys.size(), queues.size());
  // Classic okey: 3 table sizes x 2 (indicator) x 2 (elimination) x 3 (single colour: off, any,
  // red or black) x 5 deal limits solo; with partners, four players and no elimination.
  const std::map<std::string, int> expected = {
      {"liars_dice/solo", 9 * 5}, {"mexican_train/solo", 9},  {"okey/solo", 3 * 2 * 2 * 3 * 5},
      {"okey/teams", 2 * 3 * 5},  {"okey101/solo", 2 * 5},    {"okey101/teams", 2 * 5},
      {"okey51/solo", 2 * 2 * 2}, {"okey51/teams", 2 * 2 * 2}};
  EXPECT_EQ(per_mode, expected);
  EXPECT_EQ(static_cast<int64_t>(queues.size()), kQueues);
}

// A value the registry offers but no queue takes (the engine refuses it with every combination)
// would be a promise the refusals' text breaks.
TEST(MatchmakingQueueCatalogTest, EveryOfferedValueIsTakenBySomeQueue) {
  const std::vector<QueueSpec> queues = EveryQueue();
  for (const engine::Ruleset& ruleset : engine::Rulesets()) {
    for (const engine::QueueableSetting& setting : ruleset.queueable_settings) {
      for (const int32_t value : setting.values) {
        bool taken = false;
        for (const QueueSpec& queue : queues) {
          taken = taken || (queue.ruleset == ruleset.id && ValueIn(queue, setting.name) == value);
        }
        EXPECT_TRUE(taken) << ruleset.id << "." << setting.name << " = " << value;
      }
    }
  }
}

// Each queue is one a client can ask for, with the settings it holds.
TEST(MatchmakingQueueCatalogTest, EveryQueueIsWhatItsSettingsAskFor) {
  for (const QueueSpec& queue : EveryQueue()) {
    const absl::StatusOr<QueueSpec> asked = QueueSpecFor(queue.settings, queue.teams);
    ASSERT_TRUE(asked.ok()) << queue.key << ": " << asked.status();
    EXPECT_EQ(asked->key, queue.key);
  }
}

TEST(MatchmakingQueueCatalogTest, TheStandardQueuesAreEachRulesetsDefaults) {
  const absl::flat_hash_set<std::string> expected = {
      "liars_dice/solo/players=4,dice_per_player=5",
      "okey/solo/players=4,partners=0,indicator_last_tile=0,elimination=0,"
      "single_colour_doubles=0,single_colour_red_black_only=0,max_deals=0",
      "okey/teams/players=4,partners=1,indicator_last_tile=0,elimination=0,"
      "single_colour_doubles=0,single_colour_red_black_only=0,max_deals=0",
      "okey101/solo/teams=0,hints=0,deals=5",
      "okey101/teams/teams=1,hints=0,deals=5",
      "okey51/solo/teams=0,hints=0,doubling=0,deals=1",
      "okey51/teams/teams=1,hints=0,doubling=0,deals=1",
      "mexican_train/solo/players=4"};
  EXPECT_EQ(StandardQueueKeys(), expected);
}

// The default budget refuses no queue: an attacker with an account per queue opens them all and
// honest players still get in (matchmaking_fair_shares_pgtest.cc shows it over gRPC).
TEST(MatchmakingQueueCatalogTest, TheDefaultQueueBudgetCoversEveryQueue) {
  EXPECT_GE(QueueBudgetSettings{}.max_active_queues,
            static_cast<int64_t>(EveryQueue().size() - StandardQueueKeys().size()));
}

}  // namespace
}  // namespace kahve::matchmaking

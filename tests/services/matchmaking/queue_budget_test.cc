// The queue budget's fair share (queue_budget.h): the standard queues are admitted past a full
// max_active_queues and never count against it, however the count was learned (admitted here or
// read back from the database by a pass).

#include "services/matchmaking/queue_budget.h"

#include <map>
#include <string>

#include "gtest/gtest.h"

namespace kahve::matchmaking {
namespace {

constexpr char kStandard[] = "liars_dice/solo/players=4,dice_per_player=5";
constexpr char kOtherStandard[] = "mexican_train/solo/players=4";

QueueBudget TwoQueues() {
  return QueueBudget({.max_active_queues = 2, .max_active_tickets = 100},
                     {kStandard, kOtherStandard}, /*metrics=*/nullptr);
}

TEST(MatchmakingQueueBudgetTest, StandardQueuesAreAdmittedPastAFullBudget) {
  QueueBudget budget = TwoQueues();
  EXPECT_TRUE(budget.Admit("liars_dice/solo/players=2,dice_per_player=5").ok());
  EXPECT_TRUE(budget.Admit("liars_dice/solo/players=3,dice_per_player=5").ok());
  EXPECT_EQ(budget.Admit("liars_dice/solo/players=5,dice_per_player=5").code(),
            absl::StatusCode::kResourceExhausted);
  EXPECT_TRUE(budget.Admit(kStandard).ok());
  EXPECT_TRUE(budget.Admit(kOtherStandard).ok());
  EXPECT_TRUE(budget.Admit("liars_dice/solo/players=2,dice_per_player=5").ok()) << "active";
}

TEST(MatchmakingQueueBudgetTest, StandardQueuesReadBackDoNotCount) {
  QueueBudget budget = TwoQueues();
  const int64_t mark = budget.Mark();
  budget.Refresh({{kStandard, 40},
                  {kOtherStandard, 1},
                  {"okey51/solo/teams=0,hints=1,"
                   "doubling=0,deals=1",
                   1}},
                 mark);
  EXPECT_TRUE(budget.Admit("liars_dice/solo/players=2,dice_per_player=5").ok());
  EXPECT_EQ(budget.Admit("liars_dice/solo/players=3,dice_per_player=5").code(),
            absl::StatusCode::kResourceExhausted);
  EXPECT_TRUE(budget.Admit(kStandard).ok());
}

// Tickets are every queue's: the standard queues' count against max_active_tickets.
TEST(MatchmakingQueueBudgetTest, StandardQueuesTicketsCount) {
  QueueBudget budget({.max_active_queues = 2, .max_active_tickets = 3}, {kStandard}, nullptr);
  for (int i = 0; i < 3; ++i) ASSERT_TRUE(budget.Admit(kStandard).ok());
  const absl::Status full = budget.Admit(kStandard);
  EXPECT_EQ(full.code(), absl::StatusCode::kResourceExhausted);
  EXPECT_NE(full.message().find("max_active_tickets"), std::string::npos) << full;
}

}  // namespace
}  // namespace kahve::matchmaking

// The matching pass on its own: table sizes, oldest first, skill windows widening with the wait,
// provisional players, parties kept together, balanced 2v2 teams, shrinking and bot fill, and that
// no ticket is ever in two matches.

#include "services/matchmaking/matcher.h"

#include <set>

#include "absl/random/random.h"
#include "gtest/gtest.h"

namespace kahve::matchmaking {
namespace {

const absl::Time kNow = absl::FromUnixSeconds(1'700'000'000);

WaitingTicket Ticket(double rating, int waited_seconds, int party_size = 1,
                     bool provisional = false) {
  WaitingTicket ticket;
  ticket.rating = rating;
  ticket.enqueued = kNow - absl::Seconds(waited_seconds);
  ticket.party_size = party_size;
  ticket.provisional = provisional;
  return ticket;
}

QueueRules FourSeats() {
  QueueRules rules;
  rules.preferred_seats = rules.min_seats = 4;
  return rules;
}

TEST(MatcherTest, FourClosePlayersMakeOneTableWithDistinctSeats) {
  const auto matches =
      MatchPass({Ticket(20, 5), Ticket(21, 4), Ticket(19, 3), Ticket(20.5, 2)}, FourSeats(), kNow);
  ASSERT_EQ(matches.size(), 1u);
  EXPECT_EQ(std::set<int>(matches[0].tickets.begin(), matches[0].tickets.end()).size(), 4u);
  EXPECT_EQ(std::set<int>(matches[0].seat_of.begin(), matches[0].seat_of.end()),
            (std::set<int>{0, 1, 2, 3}));
  EXPECT_EQ(matches[0].bots, 0);
  EXPECT_DOUBLE_EQ(matches[0].rating_spread, 2);
}

TEST(MatcherTest, ThreePlayersWaitForAFourth) {
  EXPECT_TRUE(MatchPass({Ticket(20, 5), Ticket(21, 4), Ticket(19, 3)}, FourSeats(), kNow).empty());
}

TEST(MatcherTest, FarApartClustersMixOnlyOnceTheWindowAllows) {
  QueueRules rules = FourSeats();
  rules.window = SkillWindow{.base = 3, .per_second = 0.5, .max = 40, .provisional_extra = 10};
  // Two players near 10, two near 30: 20 apart, within the window after (20 - 3) / 0.5 = 34 s.
  std::vector<WaitingTicket> tickets = {Ticket(10, 0), Ticket(11, 0), Ticket(30, 0), Ticket(31, 0)};
  EXPECT_TRUE(MatchPass(tickets, rules, kNow).empty());
  for (auto& ticket : tickets) ticket.enqueued = kNow - absl::Seconds(20);
  EXPECT_TRUE(MatchPass(tickets, rules, kNow).empty()) << "window 13 < 21";
  for (auto& ticket : tickets) ticket.enqueued = kNow - absl::Seconds(40);
  EXPECT_EQ(MatchPass(tickets, rules, kNow).size(), 1u) << "window 23 >= 21";
}

TEST(MatcherTest, ProvisionalPlayersGetAWiderWindow) {
  QueueRules rules = FourSeats();
  std::vector<WaitingTicket> tickets = {Ticket(20, 0), Ticket(21, 0), Ticket(22, 0), Ticket(28, 0)};
  EXPECT_TRUE(MatchPass(tickets, rules, kNow).empty());
  tickets[3].provisional = true;
  EXPECT_EQ(MatchPass(tickets, rules, kNow).size(), 1u);
}

TEST(MatcherTest, OldestTicketIsServedFirst) {
  // Five close players for one table of four: the newest one waits.
  const auto matches =
      MatchPass({Ticket(20, 1), Ticket(20, 50), Ticket(20, 40), Ticket(20, 30), Ticket(20, 20)},
                FourSeats(), kNow);
  ASSERT_EQ(matches.size(), 1u);
  EXPECT_EQ(std::set<int>(matches[0].tickets.begin(), matches[0].tickets.end()),
            (std::set<int>{1, 2, 3, 4}));
}

TEST(MatcherTest, NearestRatingsAreTakenFirst) {
  const auto matches = MatchPass(
      {Ticket(20, 60), Ticket(35, 0), Ticket(21, 0), Ticket(5, 0), Ticket(19, 0), Ticket(22, 0)},
      FourSeats(), kNow);
  ASSERT_EQ(matches.size(), 1u);
  EXPECT_EQ(std::set<int>(matches[0].tickets.begin(), matches[0].tickets.end()),
            (std::set<int>{0, 2, 4, 5}));
}

TEST(MatcherTest, PartiesTakeConsecutiveSeatsAndNeverSplit) {
  const auto matches = MatchPass({Ticket(20, 9, 2), Ticket(20, 5), Ticket(20, 4, 2), Ticket(20, 3)},
                                 FourSeats(), kNow);
  ASSERT_EQ(matches.size(), 1u);
  int seats = 0;
  for (int t : matches[0].tickets) seats += t == 0 || t == 2 ? 2 : 1;
  EXPECT_EQ(seats, 4);
  // The anchor party sits at 0 and 1; whoever else fits follows.
  EXPECT_EQ(matches[0].tickets[0], 0);
  EXPECT_EQ(matches[0].seat_of[0], 0);
}

TEST(MatcherTest, TwoVersusTwoKeepsPartnersAndBalancesSingles) {
  QueueRules rules = FourSeats();
  rules.teams = true;
  // A party of two stays a team on seats {0, 2}.
  auto matches = MatchPass({Ticket(20, 9, 2), Ticket(18, 5), Ticket(22, 4)}, rules, kNow);
  ASSERT_EQ(matches.size(), 1u);
  EXPECT_EQ(matches[0].tickets[0], 0);
  EXPECT_EQ(matches[0].seat_of[0], 0);
  EXPECT_EQ(std::set<int>(matches[0].seat_of.begin() + 1, matches[0].seat_of.end()),
            (std::set<int>{1, 3}));
  // Four singles 10, 12, 18, 20 (close enough after a long wait): 10+20 against 12+18.
  matches =
      MatchPass({Ticket(10, 100), Ticket(12, 90), Ticket(18, 80), Ticket(20, 70)}, rules, kNow);
  ASSERT_EQ(matches.size(), 1u);
  double team_a = 0, team_b = 0;
  for (size_t i = 0; i < matches[0].tickets.size(); ++i) {
    const double rating = std::vector<double>{10, 12, 18, 20}[matches[0].tickets[i]];
    (matches[0].seat_of[i] % 2 == 0 ? team_a : team_b) += rating;
  }
  EXPECT_DOUBLE_EQ(team_a, 30);
  EXPECT_DOUBLE_EQ(team_b, 30);
}

TEST(MatcherTest, SmallerTableAfterShrinkWaitAndBotsAfterLongestWait) {
  QueueRules rules;
  rules.preferred_seats = 6;
  rules.min_seats = 2;
  rules.shrink_after = absl::Seconds(30);
  EXPECT_TRUE(MatchPass({Ticket(20, 10), Ticket(20, 10), Ticket(20, 10)}, rules, kNow).empty());
  auto matches = MatchPass({Ticket(20, 31), Ticket(20, 10), Ticket(20, 10)}, rules, kNow);
  ASSERT_EQ(matches.size(), 1u);
  EXPECT_EQ(matches[0].tickets.size(), 3u);
  EXPECT_EQ(matches[0].bots, 0);

  QueueRules okey = FourSeats();
  okey.bot_fill = true;
  okey.longest_wait = absl::Seconds(60);
  EXPECT_TRUE(MatchPass({Ticket(20, 59)}, okey, kNow).empty());
  matches = MatchPass({Ticket(20, 61)}, okey, kNow);
  ASSERT_EQ(matches.size(), 1u);
  EXPECT_EQ(matches[0].bots, 3);
  okey.bot_fill = false;
  EXPECT_TRUE(MatchPass({Ticket(20, 600)}, okey, kNow).empty());
}

TEST(MatcherTest, NoTicketIsEverInTwoMatchesAndTablesAreFull) {
  absl::BitGen random;
  for (int round = 0; round < 20; ++round) {
    std::vector<WaitingTicket> tickets;
    for (int i = 0; i < 2000; ++i) {
      tickets.push_back(Ticket(absl::Gaussian(random, 20.0, 8.0), absl::Uniform(random, 0, 120),
                               absl::Bernoulli(random, 0.2) ? 2 : 1, absl::Bernoulli(random, 0.1)));
    }
    QueueRules rules = FourSeats();
    rules.teams = round % 2 == 1;
    std::set<int> seen;
    for (const FormedMatch& match : MatchPass(tickets, rules, kNow)) {
      int seats = match.bots;
      for (int t : match.tickets) {
        EXPECT_TRUE(seen.insert(t).second) << "ticket " << t << " matched twice";
        seats += tickets[t].party_size;
      }
      EXPECT_EQ(seats, 4);
    }
    EXPECT_GT(seen.size(), 1000u);
  }
}

}  // namespace
}  // namespace kahve::matchmaking

#include "tests/engine/ruleset_conformance.h"

#include <algorithm>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "engine/core/registry.h"
#include "google/protobuf/util/message_differencer.h"
#include "gtest/gtest.h"

namespace kahve::engine::testing {
namespace {

using google::protobuf::util::MessageDifferencer;

std::unique_ptr<Game> MustNewGame(const v1::GameSettings& settings, const v1::Deal& deal) {
  auto game = NewGame(settings, deal);
  EXPECT_TRUE(game.ok()) << game.status();
  return game.ok() ? std::move(game).value() : nullptr;
}

std::unique_ptr<Game> Replay(const Game& game) {
  std::unique_ptr<Game> replay = MustNewGame(game.settings(), game.deal());
  for (const AcceptedMove& move : game.history()) {
    const MoveOutcome outcome = replay->Apply(move.seat, move.move);
    EXPECT_TRUE(outcome.accepted) << outcome.rejection.message();
  }
  return replay;
}

bool IsPowerOfTwo(uint64_t n) { return n != 0 && (n & (n - 1)) == 0; }

void CheckEvents(const Game& game, const std::vector<v1::Event>& events, uint64_t move_number) {
  for (const v1::Event& event : events) {
    ASSERT_EQ(event.move_number(), move_number);
    if (event.has_private_to()) {
      ASSERT_GE(event.private_to(), 0);
      ASSERT_LT(event.private_to(), game.num_seats());
    }
  }
}

void CheckEventsEqual(const std::vector<v1::Event>& a, const std::vector<v1::Event>& b) {
  ASSERT_EQ(a.size(), b.size());
  for (size_t i = 0; i < a.size(); ++i) ASSERT_TRUE(MessageDifferencer::Equals(a[i], b[i]));
}

// A seat not to act lists only the moves its ruleset allows out of turn (okey's gösterme), each
// accepted; `probe`, a move of the acting seat (its last listed: gösterme comes first), is
// NOT_YOUR_TURN for it.
void CheckSeatsThatMayNotAct(Game& game, const std::vector<int>& to_act, const v1::Move& probe) {
  for (int seat = 0; seat < game.num_seats(); ++seat) {
    if (std::binary_search(to_act.begin(), to_act.end(), seat)) continue;
    bool probe_allowed = false;
    for (const v1::Move& out_of_turn : game.LegalMoves(seat)) {
      ASSERT_TRUE(game.DryRun(seat, out_of_turn).accepted) << out_of_turn.DebugString();
      probe_allowed = probe_allowed || out_of_turn.SerializeAsString() == probe.SerializeAsString();
    }
    if (probe_allowed) continue;
    const std::unique_ptr<Game> before = game.Clone();
    const MoveOutcome outcome = game.Apply(seat, probe);
    ASSERT_FALSE(outcome.accepted);
    ASSERT_EQ(outcome.rejection.reason(), v1::NOT_YOUR_TURN);
    ASSERT_TRUE(game.SameState(*before));
  }
}

// A random move is accepted exactly when listed; a rejection changes nothing and says why.
void CheckRandomMove(const Game& game, int seat, const std::set<std::string>& legal,
                     const v1::Move& move) {
  const std::unique_ptr<Game> scratch = game.Clone();
  const MoveOutcome outcome = scratch->Apply(seat, move);
  const bool listed = legal.count(move.SerializeAsString()) > 0;
  ASSERT_EQ(outcome.accepted, listed) << move.DebugString() << outcome.rejection.DebugString();
  if (!outcome.accepted) {
    ASSERT_NE(outcome.rejection.reason(), v1::REJECTION_REASON_UNSPECIFIED);
    ASSERT_FALSE(outcome.rejection.message().empty());
    ASSERT_TRUE(scratch->SameState(game));
  }
}

void CheckResult(const Game& game) {
  const v1::Result result = game.Result();
  ASSERT_EQ(result.seats_size(), game.num_seats());
  // Teammates share one rank; the teams (a seat alone is a team of one) are in competition
  // ranking: a rank r has exactly r-1 teams ranked better.
  std::map<int, int> team_ranks;
  for (int seat = 0; seat < game.num_seats(); ++seat) {
    ASSERT_EQ(result.seats(seat).seat(), seat);
    const auto [it, added] =
        team_ranks.emplace(result.seats(seat).team(), result.seats(seat).rank());
    ASSERT_EQ(it->second, result.seats(seat).rank()) << "teammates share their team's rank";
  }
  std::vector<int> ranks;
  for (const auto& [team, rank] : team_ranks) ranks.push_back(rank);
  for (int rank : ranks) {
    ASSERT_GE(rank, 1);
    ASSERT_LE(rank, static_cast<int>(ranks.size()));
    ASSERT_EQ(std::count_if(ranks.begin(), ranks.end(), [&](int other) { return other < rank; }),
              rank - 1);
  }
  ASSERT_FALSE(result.ending().empty());
}

void PlayOneGame(const ConformanceOptions& options, uint64_t seed) {
  v1::Deal deal;
  deal.set_seed(seed);
  std::unique_ptr<Game> game = MustNewGame(options.settings, deal);
  ASSERT_NE(game, nullptr);
  game->CheckInvariants();
  CheckEvents(*game, game->deal_events(), 0);
  Rng rng(DeriveSeed(seed, 0xC0DE));
  while (!game->IsOver()) {
    ASSERT_LT(game->move_number(), static_cast<uint64_t>(options.max_moves))
        << "the game never ends";
    const std::vector<int> to_act = game->SeatsToAct();
    ASSERT_FALSE(to_act.empty());
    ASSERT_TRUE(std::is_sorted(to_act.begin(), to_act.end()));
    ASSERT_EQ(std::adjacent_find(to_act.begin(), to_act.end()), to_act.end());
    const int seat = to_act[rng.Below(to_act.size())];
    const std::vector<v1::Move> legal = game->LegalMoves(seat);
    ASSERT_FALSE(legal.empty());
    std::set<std::string> legal_bytes;
    for (const v1::Move& move : legal) legal_bytes.insert(move.SerializeAsString());
    ASSERT_EQ(legal_bytes.size(), legal.size()) << "legal moves are unique";

    CheckSeatsThatMayNotAct(*game, to_act, legal.back());
    ASSERT_TRUE(game->LegalMoves(kSpectator).empty()) << "a spectator has no moves";
    ASSERT_TRUE(game->LegalMoves(game->num_seats()).empty()) << "nor has a seat past the last";
    if (options.random_move) CheckRandomMove(*game, seat, legal_bytes, options.random_move(rng));

    const v1::Move& chosen = legal[rng.Below(legal.size())];
    const std::unique_ptr<Game> before = game->Clone();
    const MoveOutcome dry = game->DryRun(seat, chosen);
    ASSERT_TRUE(game->SameState(*before)) << "dry run changed the game";
    const MoveOutcome outcome = game->Apply(seat, chosen);
    ASSERT_TRUE(outcome.accepted) << outcome.rejection.message();
    ASSERT_TRUE(dry.accepted);
    // A preview is the move's events, cut before the first one hidden information decides.
    ASSERT_LE(dry.events.size(), outcome.events.size());
    ASSERT_EQ(dry.preview_truncated, dry.events.size() < outcome.events.size());
    CheckEventsEqual(
        dry.events,
        std::vector<v1::Event>(outcome.events.begin(), outcome.events.begin() + dry.events.size()));
    CheckEvents(*game, outcome.events, game->move_number());
    game->CheckInvariants();
    ASSERT_TRUE(game->Clone()->SameState(*game)) << "a clone equals its original";
    if (IsPowerOfTwo(game->move_number())) {
      ASSERT_TRUE(Replay(*game)->SameState(*game)) << "replay at move " << game->move_number();
    }
  }
  ASSERT_TRUE(game->SeatsToAct().empty());
  for (int seat = 0; seat < game->num_seats(); ++seat) ASSERT_TRUE(game->LegalMoves(seat).empty());
  const MoveOutcome late = game->Apply(0, game->history().back().move);
  ASSERT_EQ(late.rejection.reason(), v1::GAME_OVER);
  CheckResult(*game);
  ASSERT_TRUE(Replay(*game)->SameState(*game)) << "replay of the whole game";
}

}  // namespace

void RunConformance(const ConformanceOptions& options) {
  for (int i = 0; i < options.games; ++i) {
    const uint64_t seed = DeriveSeed(options.seed, static_cast<uint64_t>(i));
    SCOPED_TRACE(::testing::Message() << "game " << i << " seed " << seed);
    PlayOneGame(options, seed);
    if (::testing::Test::HasFatalFailure() || ::testing::Test::HasNonfatalFailure()) return;
  }
}

}  // namespace kahve::engine::testing

// Transcripts (engine/core/transcript.h) of every ruleset: what a seat's transcript shows (its own
// hand or dice, the table), what a spectator's never shows (a hand, a private event), and that a
// seat's transcript holds nothing it could not see: two deals that differ only in the other
// seats' hidden tiles or dice give that seat byte-identical transcripts until a reveal.

#include "engine/core/transcript.h"

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "engine/core/registry.h"
#include "engine/core/rng.h"
#include "gtest/gtest.h"
#include "tests/engine/okey/okey_test_deals.h"

namespace kahve::engine {
namespace {

using Lines = std::vector<std::string>;

// A ruleset's game for these tests, and a way to deal it twice: the second deal differs from the
// first only in what seat 0 cannot see (the other seats' hands or dice).
struct Case {
  std::string ruleset;
  v1::GameSettings settings;
  // The two deals from `rng`.
  void (*deals)(Rng& rng, v1::Deal& a, v1::Deal& b);
  // A part of seat 0's state every transcript of it shows, and a ruleset word of the table.
  std::string own_state;
  std::string table_word;
};

void PrintTo(const Case& test_case, std::ostream* out) { *out << test_case.ruleset; }

void LiarsDiceDeals(Rng& rng, v1::Deal& a, v1::Deal& b) {
  v1::LiarsDicePreset* preset = a.mutable_liars_dice();
  preset->set_first_bidder(1);
  for (int round = 0; round < 9; ++round) {
    v1::LiarsDiceRoll* roll = preset->add_rolls();
    for (int seat = 0; seat < 3; ++seat) {
      auto* dice = roll->add_seats();
      for (int i = 0; i < 5; ++i) dice->add_dice(rng.RollDie());
    }
  }
  b = a;
  for (v1::LiarsDiceRoll& roll : *b.mutable_liars_dice()->mutable_rolls()) {
    for (int seat = 1; seat < 3; ++seat) {
      for (int& die : *roll.mutable_seats(seat)->mutable_dice()) die = die % 6 + 1;
    }
  }
}

template <int kStarterTiles, v1::OkeyDealPreset* (*kAdd)(v1::Deal&)>
void OkeyDeals(Rng& rng, v1::Deal& a, v1::Deal& b) {
  const v1::OkeyDealPreset deal = testing::RandomOkeyDeal(rng, kStarterTiles);
  *kAdd(a) = deal;
  *kAdd(b) = testing::ResampledOkeyDeal(deal, /*viewer=*/0, rng);
}

v1::OkeyDealPreset* AddOkey(v1::Deal& deal) { return deal.mutable_okey()->add_deals(); }
v1::OkeyDealPreset* AddOkey51(v1::Deal& deal) { return deal.mutable_okey51()->add_deals(); }
v1::OkeyDealPreset* AddOkey101(v1::Deal& deal) { return deal.mutable_okey101()->add_deals(); }

// Three hands of 15; seat 0 holds the engine 12-12, so no search draws; seats 1 and 2 swap their
// hands in the second deal (the boneyard is the same set, so the same order). Their hands hold no
// 12, so both games begin with the same moves: each passes its first turn.
void MexicanTrainDeals(Rng& rng, v1::Deal& a, v1::Deal& b) {
  std::vector<std::string> twelves, others;
  for (int low = 0; low <= 12; ++low) {
    for (int high = low; high <= 12; ++high) {
      if (low == 12) continue;
      (high == 12 ? twelves : others).push_back(absl::StrCat(low, "-", high));
    }
  }
  rng.Shuffle(others.data(), static_cast<uint32_t>(others.size()));
  v1::MexicanTrainPreset::Round* round = a.mutable_mexican_train()->add_rounds();
  v1::MexicanTrainPreset::Hand* own = round->add_hands();
  own->add_tiles("12-12");
  for (int i = 0; i < 4; ++i) own->add_tiles(twelves[i]);
  size_t next = 0;
  while (own->tiles_size() < 15) own->add_tiles(others[next++]);
  for (int seat = 1; seat < 3; ++seat) {
    v1::MexicanTrainPreset::Hand* hand = round->add_hands();
    while (hand->tiles_size() < 15) hand->add_tiles(others[next++]);
  }
  b = a;
  b.mutable_mexican_train()->mutable_rounds(0)->mutable_hands()->SwapElements(1, 2);
}

std::vector<Case> Cases() {
  std::vector<Case> cases;
  Case liars{.ruleset = "liars_dice",
             .deals = &LiarsDiceDeals,
             .own_state = "your dice [",
             .table_word = "current bid "};
  liars.settings.mutable_liars_dice()->set_players(3);
  liars.settings.mutable_liars_dice()->set_dice_per_player(5);
  cases.push_back(liars);
  Case okey{.ruleset = "okey",
            .deals = &OkeyDeals<15, &AddOkey>,
            .own_state = "your hand ",
            .table_word = "discards 0:["};
  okey.settings.mutable_okey()->set_players(4);
  okey.settings.mutable_okey()->set_max_deals(1);
  cases.push_back(okey);
  Case okey51{.ruleset = "okey51",
              .deals = &OkeyDeals<15, &AddOkey51>,
              .own_state = "your hand ",
              .table_word = "table "};
  okey51.settings.mutable_okey51()->set_deals(1);
  cases.push_back(okey51);
  Case okey101{.ruleset = "okey101",
               .deals = &OkeyDeals<22, &AddOkey101>,
               .own_state = "your hand ",
               .table_word = "table "};
  okey101.settings.mutable_okey101()->set_deals(3);
  cases.push_back(okey101);
  Case train{.ruleset = "mexican_train",
             .deals = &MexicanTrainDeals,
             .own_state = "your hand ",
             .table_word = "Mexican train: "};
  train.settings.mutable_mexican_train()->set_players(3);
  cases.push_back(train);
  return cases;
}

class TranscriptTest : public ::testing::TestWithParam<Case> {};

bool Has(const Lines& lines, const std::string& part) {
  return std::any_of(lines.begin(), lines.end(),
                     [&](const std::string& line) { return absl::StrContains(line, part); });
}

int CountStarting(const Lines& lines, const std::string& start) {
  return static_cast<int>(std::count_if(lines.begin(), lines.end(), [&](const std::string& line) {
    return absl::StartsWith(line, start);
  }));
}

// A whole game by the ruleset's heuristic bot (its last kind); seat 1's moves carry a note.
std::vector<TranscriptMove> PlayOut(Game& game, uint64_t seed) {
  const std::string kind = game.BotKinds().back();
  std::vector<TranscriptMove> moves;
  while (!game.IsOver() && moves.size() < 20000) {
    const int seat = game.SeatsToAct()[0];
    const v1::Move move = game.BotMove(seat, kind, seed + moves.size()).value();
    EXPECT_TRUE(game.Apply(seat, move).accepted);
    moves.push_back({.seat = seat, .move = move, .note = seat == 1 ? "bot: away" : ""});
  }
  return moves;
}

Lines TranscriptOf(const Case& test_case, const v1::Deal& deal,
                   const std::vector<TranscriptMove>& moves, int recipient) {
  absl::StatusOr<Lines> lines = Transcript(test_case.settings, deal, moves,
                                           {.recipient = recipient, .seat_names = {"ana", "ben"}});
  EXPECT_TRUE(lines.ok()) << lines.status();
  return lines.ok() ? *lines : Lines{};
}

TEST(TranscriptTest, EveryRulesetHasItsWords) {
  for (const Ruleset& ruleset : Rulesets()) {
    ASSERT_NE(ruleset.text, nullptr) << ruleset.id;
    EXPECT_TRUE(ruleset.text->settings && ruleset.text->move && ruleset.text->event &&
                ruleset.text->view)
        << ruleset.id;
  }
  const std::vector<Case> cases = Cases();
  EXPECT_EQ(cases.size(), Rulesets().size()) << "a case per ruleset";
}

TEST_P(TranscriptTest, ASeatSeesItsOwnStateAndASpectatorOnlyThePublic) {
  const Case& test_case = GetParam();
  Rng rng(11);
  v1::Deal deal, unused;
  test_case.deals(rng, deal, unused);
  deal.set_seed(5);
  std::unique_ptr<Game> game = std::move(NewGame(test_case.settings, deal)).value();
  const v1::View first_view = game->View(0);
  const std::vector<TranscriptMove> moves = PlayOut(*game, 3);
  ASSERT_TRUE(game->IsOver());

  const Lines seat = TranscriptOf(test_case, deal, moves, 0);
  EXPECT_EQ(seat[0].rfind(absl::StrCat("ruleset ", test_case.ruleset, ": "), 0), 0u) << seat[0];
  EXPECT_EQ(seat[1], "seen by seat 0 (ana)");
  EXPECT_TRUE(Has(seat, absl::StrCat("  | ", test_case.own_state)));
  EXPECT_TRUE(Has(seat, test_case.table_word));
  // Seat 0's state at the deal, as its own view words it, opens the transcript.
  for (const std::string& line : RulesetOf(test_case.settings).value()->text->view(first_view)) {
    EXPECT_TRUE(Has(seat, absl::StrCat("  | ", line))) << line;
  }
  EXPECT_EQ(CountStarting(seat, "move "), static_cast<int>(moves.size()));
  EXPECT_TRUE(Has(seat, "move 1, seat ")) << seat[3];
  EXPECT_TRUE(Has(seat, ", seat 1 (ben) [bot: away]: "));
  EXPECT_TRUE(Has(seat, "result: "));
  EXPECT_TRUE(Has(seat, "  rank 1: seat "));

  const Lines spectator = TranscriptOf(test_case, deal, moves, kSpectator);
  EXPECT_EQ(spectator[1], "seen by a spectator (public information only)");
  EXPECT_FALSE(Has(spectator, "your ")) << "a spectator holds no hand";
  // Private events (a deal, a roll, a draw) never reach a spectator.
  for (const char* private_words : {" is dealt ", " rolled [", " drew ", " holds "}) {
    EXPECT_FALSE(Has(spectator, private_words)) << private_words;
  }
  EXPECT_TRUE(Has(spectator, test_case.table_word));
  EXPECT_EQ(CountStarting(spectator, "move "), static_cast<int>(moves.size()));
  EXPECT_EQ(spectator.back(), seat.back()) << "the same result";
}

// Plays the two games in step, each move one that both accept and that shows a spectator the same
// in both (so no reveal yet); stops where none is left or at `limit`.
std::vector<TranscriptMove> PlayUntilReveal(Game& a, Game& b, Rng& rng, size_t limit) {
  std::vector<TranscriptMove> moves;
  while (!a.IsOver() && moves.size() < limit) {
    const int seat = a.SeatsToAct()[0];
    // From one of the first few legal moves on, in the engine's order: small raises and early
    // plays, so that a game goes on long enough before a reveal.
    std::vector<v1::Move> legal = a.LegalMoves(seat);
    const size_t start = rng.Below(static_cast<uint32_t>(std::min<size_t>(4, legal.size())));
    std::rotate(legal.begin(), legal.begin() + start, legal.end());
    bool played = false;
    for (const v1::Move& move : legal) {
      std::unique_ptr<Game> next_a = a.Clone();
      std::unique_ptr<Game> next_b = b.Clone();
      const MoveOutcome out_a = next_a->Apply(seat, move);
      const MoveOutcome out_b = next_b->Apply(seat, move);
      if (!out_a.accepted || !out_b.accepted) continue;
      const std::vector<v1::Event> public_a = VisibleTo(out_a.events, kSpectator);
      const std::vector<v1::Event> public_b = VisibleTo(out_b.events, kSpectator);
      bool same = public_a.size() == public_b.size();
      for (size_t i = 0; same && i < public_a.size(); ++i) {
        same = public_a[i].SerializeAsString() == public_b[i].SerializeAsString();
      }
      if (!same) continue;
      a.Apply(seat, move);
      b.Apply(seat, move);
      moves.push_back({.seat = seat, .move = move});
      played = true;
      break;
    }
    if (!played) break;
  }
  return moves;
}

TEST_P(TranscriptTest, ASeatsTranscriptHoldsNothingItCouldNotSee) {
  const Case& test_case = GetParam();
  for (uint64_t trial = 1; trial <= 4; ++trial) {
    SCOPED_TRACE(::testing::Message() << "trial " << trial);
    Rng rng(trial * 7919);
    v1::Deal deal_a, deal_b;
    test_case.deals(rng, deal_a, deal_b);
    deal_a.set_seed(trial);
    deal_b.set_seed(trial);
    std::unique_ptr<Game> a = std::move(NewGame(test_case.settings, deal_a)).value();
    std::unique_ptr<Game> b = std::move(NewGame(test_case.settings, deal_b)).value();
    // The control: the deals do differ, where seat 1 can see.
    ASSERT_NE(a->View(1).SerializeAsString(), b->View(1).SerializeAsString());
    const std::vector<TranscriptMove> moves = PlayUntilReveal(*a, *b, rng, /*limit=*/80);
    ASSERT_GE(moves.size(), 8u) << "too short to prove anything";

    EXPECT_EQ(absl::StrJoin(TranscriptOf(test_case, deal_a, moves, 0), "\n"),
              absl::StrJoin(TranscriptOf(test_case, deal_b, moves, 0), "\n"));
    EXPECT_EQ(absl::StrJoin(TranscriptOf(test_case, deal_a, moves, kSpectator), "\n"),
              absl::StrJoin(TranscriptOf(test_case, deal_b, moves, kSpectator), "\n"));
    // The check can fail: seat 1, whose hand or dice differ, reads two different transcripts.
    EXPECT_NE(absl::StrJoin(TranscriptOf(test_case, deal_a, moves, 1), "\n"),
              absl::StrJoin(TranscriptOf(test_case, deal_b, moves, 1), "\n"));
  }
}

TEST(TranscriptTest, RefusesASeatOutOfRangeAndAMoveTheEngineRejects) {
  v1::GameSettings settings;
  settings.mutable_liars_dice()->set_players(2);
  v1::Deal deal;
  deal.set_seed(1);
  const absl::StatusOr<Lines> out_of_range = Transcript(settings, deal, {}, {.recipient = 2});
  ASSERT_FALSE(out_of_range.ok());
  EXPECT_EQ(out_of_range.status().message(),
            "seat 2 is not a seat of this game: it has seats 0..1 (-1 for a spectator)");
  TranscriptMove challenge{.seat = 0};
  challenge.move.mutable_liars_dice()->mutable_challenge();
  const absl::StatusOr<Lines> refused = Transcript(settings, deal, {challenge}, {});
  ASSERT_FALSE(refused.ok());
  EXPECT_TRUE(absl::StartsWith(refused.status().message(), "move 1 (seat 0): the engine refuses"))
      << refused.status();
}

// A fixed Liar's dice round, line by line: what seat 0 reads.
TEST(TranscriptTest, LiarsDiceLinesForASeat) {
  v1::GameSettings settings;
  settings.mutable_liars_dice()->set_players(2);
  settings.mutable_liars_dice()->set_dice_per_player(2);
  v1::Deal deal;
  deal.set_seed(1);
  v1::LiarsDicePreset* preset = deal.mutable_liars_dice();
  preset->set_first_bidder(1);
  for (int round = 0; round < 4; ++round) {
    v1::LiarsDiceRoll* roll = preset->add_rolls();
    v1::LiarsDiceRoll::SeatDice* seat_zero = roll->add_seats();
    v1::LiarsDiceRoll::SeatDice* seat_one = roll->add_seats();
    for (const int die : {2, 5}) seat_zero->add_dice(die);
    for (const int die : {3, 3}) seat_one->add_dice(die);
  }
  TranscriptMove bid{.seat = 1, .note = "bot: timeout"};
  bid.move.mutable_liars_dice()->mutable_bid()->set_quantity(2);
  bid.move.mutable_liars_dice()->mutable_bid()->set_face(3);
  TranscriptMove challenge{.seat = 0};
  challenge.move.mutable_liars_dice()->mutable_challenge();
  const Lines lines = Transcript(settings, deal, {bid, challenge}, {.recipient = 0}).value();
  const std::string text = absl::StrJoin(lines, "\n");
  EXPECT_EQ(lines[0], "ruleset liars_dice: 2 players, 2 dice each");
  for (const char* expected : {
           "  - round 1 starts, seat 1 bids first; dice per seat 0:2 1:2",
           "  - seat 0 rolled [2 5]",
           "  | your dice [2 5]",
           "  | no bid yet this round",
           "move 1, seat 1 [bot: timeout]: bids 2 x 3",
           "  - seat 1 bids 2 x 3",
           "  | current bid 2 x 3 by seat 1",
           "move 2, seat 0: challenges the last bid",
           "  - dice shown: 0:[2 5] 1:[3 3]; 2 count for the bid, which stood",
           "  - seat 0 loses a die, 1 left",
       }) {
    EXPECT_TRUE(Has(lines, expected)) << expected << "\n" << text;
  }
  // Seat 1's dice are named only once the challenge shows them.
  const size_t shown = text.find("dice shown");
  EXPECT_EQ(text.substr(0, shown).find("[3 3]"), std::string::npos) << text;
  EXPECT_TRUE(absl::StrContains(text, "not over after 2 moves")) << text;
}

INSTANTIATE_TEST_SUITE_P(Rulesets, TranscriptTest, ::testing::ValuesIn(Cases()),
                         [](const auto& info) { return info.param.ruleset; });

}  // namespace
}  // namespace kahve::engine

// `kahve verify`'s checks on games a table session played (bots at every seat): each ruleset's
// replay and every recipient's stream verify, and each kind of tampering is named.

#include "tools/kahve/deal_verifier.h"

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/escaping.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "services/table/deal_commitment.h"
#include "services/table/table_session.h"
#include "tests/services/table/table_session_testing.h"

namespace kahve::tools {
namespace {

using ::kahve::table::testing::Bot;
using ::kahve::table::testing::CreatedEntry;
using ::kahve::table::testing::DriveClock;
using ::kahve::table::testing::kStart;
using ::testing::HasSubstr;

// A finished game: its replay and what each recipient (seat, or -1) was streamed from the start.
struct PlayedGame {
  v1::Replay replay;
  std::map<int, std::vector<v1::TableUpdate>> streams;
};

PlayedGame Play(const v1::GameSettings& settings, int seats, const v1::Deal& deal,
                v1::DealSource source) {
  v1::TableLogEntry entry = CreatedEntry(std::vector<v1::SeatSpec>(seats, Bot("heuristic")), 0);
  *entry.mutable_created()->mutable_settings() = settings;
  *entry.mutable_created()->mutable_deal() = deal;
  const std::string salt = *table::NewSalt();
  *entry.mutable_created()->mutable_commitment() = table::Commit(source, salt, deal);
  entry.mutable_created()->set_deal_salt(absl::BytesToHexString(salt));
  std::unique_ptr<table::TableSession> session = table::testing::MustCreate(entry);
  PlayedGame game;
  for (int recipient = -1; recipient < seats; ++recipient) {
    game.streams[recipient].push_back(session->SnapshotFor(recipient));
  }
  absl::Time now = kStart;
  for (const table::AppliedEntry& applied : DriveClock(session.get(), &now)) {
    for (auto& [recipient, stream] : game.streams) {
      stream.push_back(table::UpdateFor(applied, recipient));
    }
  }
  EXPECT_TRUE(session->over());
  game.replay = session->ReplayRecord();
  return game;
}

v1::Deal Seeded(uint64_t seed) {
  v1::Deal deal;
  deal.set_seed(seed);
  return deal;
}

PlayedGame LiarsDice() {
  v1::GameSettings settings;
  settings.mutable_liars_dice()->set_players(3);
  settings.mutable_liars_dice()->set_dice_per_player(2);
  return Play(settings, 3, Seeded(0x5eed5eed5eed5eedULL), v1::DEAL_SOURCE_SERVER_RANDOM);
}

std::string Refusal(const v1::Replay& replay) {
  const absl::StatusOr<VerifiedReplay> verified = VerifyReplay(replay);
  EXPECT_FALSE(verified.ok());
  return std::string(verified.status().message());
}

std::string StreamRefusal(const v1::Replay& replay, const std::vector<v1::TableUpdate>& stream) {
  const absl::StatusOr<VerifiedStream> verified = VerifyStream(replay, stream);
  EXPECT_FALSE(verified.ok());
  return std::string(verified.status().message());
}

TEST(DealVerifierTest, EveryRulesetsGameVerifiesWithEveryRecipientsStream) {
  std::vector<std::pair<v1::GameSettings, int>> games(5);
  games[0].first.mutable_liars_dice()->set_players(4);
  games[0].second = 4;
  games[1].first.mutable_okey()->set_max_deals(2);
  games[1].second = 4;
  games[2].first.mutable_okey51()->set_deals(1);
  games[2].second = 4;
  games[3].first.mutable_okey101()->set_deals(3);
  games[3].second = 4;
  games[4].first.mutable_mexican_train()->set_players(3);
  games[4].second = 3;
  for (const auto& [settings, seats] : games) {
    SCOPED_TRACE(settings.DebugString());
    const PlayedGame game =
        Play(settings, seats, Seeded(*table::NewSeed()), v1::DEAL_SOURCE_SERVER_RANDOM);
    const absl::StatusOr<VerifiedReplay> verified = VerifyReplay(game.replay);
    ASSERT_TRUE(verified.ok()) << verified.status();
    EXPECT_EQ(verified->seats, seats);
    EXPECT_EQ(verified->moves, game.replay.moves_size());
    EXPECT_GT(game.replay.deal_events_size(), 0);
    for (const auto& [recipient, stream] : game.streams) {
      const absl::StatusOr<VerifiedStream> checked = VerifyStream(game.replay, stream);
      ASSERT_TRUE(checked.ok()) << "recipient " << recipient << ": " << checked.status();
      EXPECT_EQ(checked->recipient, recipient);
      EXPECT_EQ(checked->moves_checked, game.replay.moves_size());
      EXPECT_TRUE(checked->reached_end);
      // The replay's events, filtered for a recipient, are exactly what its stream carried.
      int move = 0;
      for (const v1::TableUpdate& update : stream) {
        if (!update.has_move()) continue;
        ASSERT_LT(move, game.replay.moves_size());
        const auto& listed = game.replay.moves(move++).events();
        const std::vector<v1::Event> visible =
            engine::VisibleTo({listed.begin(), listed.end()}, recipient);
        ASSERT_EQ(update.move().events_size(), static_cast<int>(visible.size()));
        for (size_t index = 0; index < visible.size(); ++index) {
          EXPECT_EQ(update.move().events(static_cast<int>(index)).SerializeAsString(),
                    visible[index].SerializeAsString());
        }
      }
    }
  }
}

TEST(DealVerifierTest, ATamperedReplayIsNamed) {
  const PlayedGame game = LiarsDice();
  ASSERT_TRUE(VerifyReplay(game.replay).ok());

  v1::Replay seed = game.replay;
  seed.mutable_deal()->set_seed(seed.deal().seed() + 1);
  EXPECT_THAT(Refusal(seed), HasSubstr("reveal.seed: "));
  seed.mutable_reveal()->set_seed(seed.deal().seed());
  seed.mutable_reveal()->clear_material();
  EXPECT_THAT(Refusal(seed),
              HasSubstr("commitment.sha256: published " + game.replay.commitment().sha256()));

  v1::Replay salt = game.replay;
  std::string hex = salt.reveal().salt();
  hex[0] = hex[0] == '0' ? '1' : '0';
  salt.mutable_reveal()->set_salt(hex);
  salt.mutable_reveal()->clear_material();
  EXPECT_THAT(Refusal(salt), HasSubstr("commitment.sha256: published"));

  // The second move credited to the next seat, which is not to act.
  v1::Replay move = game.replay;
  move.mutable_moves(1)->set_seat((move.moves(1).seat() + 1) % 3);
  EXPECT_THAT(Refusal(move), HasSubstr("moves[1] (move 2, seat "));
  EXPECT_THAT(Refusal(move), HasSubstr("the replayed game refuses it: NOT_YOUR_TURN"));
  // Another legal move in its place: replaying goes on, and the first disagreement is named.
  v1::Replay other = game.replay;
  const bool bid_one_six = other.moves(0).move().liars_dice().bid().quantity() == 1 &&
                           other.moves(0).move().liars_dice().bid().face() == 6;
  *other.mutable_moves(0)->mutable_move() = table::testing::Bid(1, bid_one_six ? 5 : 6);
  EXPECT_THAT(Refusal(other), ::testing::AnyOf(HasSubstr("moves["), HasSubstr("result:")));

  // The listed events must be the game's: another die, or an event left out, is named.
  v1::Replay event = game.replay;
  ASSERT_GT(event.moves(0).events_size(), 0);
  event.mutable_moves(0)->mutable_events(0)->set_seat(7);
  EXPECT_THAT(Refusal(event), HasSubstr("moves[0] (move 1, seat "));
  EXPECT_THAT(Refusal(event), HasSubstr(".events: event 0 differs: the replay has"));
  v1::Replay dealt = game.replay;
  dealt.mutable_deal_events()->RemoveLast();
  EXPECT_THAT(Refusal(dealt), HasSubstr("deal_events: event "));
  // A replay of a server before 0.2.0 lists no events at all, and still verifies.
  v1::Replay earlier = game.replay;
  earlier.clear_deal_events();
  for (v1::ReplayMove& move : *earlier.mutable_moves()) move.clear_events();
  EXPECT_TRUE(VerifyReplay(earlier).ok());

  v1::Replay result = game.replay;
  result.mutable_result()->mutable_seats(0)->set_rank(result.result().seats(0).rank() + 1);
  EXPECT_THAT(Refusal(result), HasSubstr("result: the replay's differs"));

  v1::Replay short_game = game.replay;
  short_game.mutable_moves()->RemoveLast();
  EXPECT_THAT(Refusal(short_game), HasSubstr("moves: the game is not over after"));

  v1::Replay running = game.replay;
  running.clear_reveal();
  EXPECT_THAT(Refusal(running), HasSubstr("reveal: absent"));
  v1::Replay legacy = game.replay;
  legacy.clear_commitment();
  EXPECT_THAT(Refusal(legacy), HasSubstr("commitment: the replay has none"));
}

TEST(DealVerifierTest, ATamperedPresetIsNamed) {
  v1::Deal deal = Seeded(99);
  deal.mutable_liars_dice()->set_first_bidder(2);
  v1::GameSettings settings;
  settings.mutable_liars_dice()->set_players(3);
  settings.mutable_liars_dice()->set_dice_per_player(2);
  const PlayedGame game = Play(settings, 3, deal, v1::DEAL_SOURCE_ADMIN_PRESET);
  ASSERT_TRUE(VerifyReplay(game.replay).ok());
  EXPECT_FALSE(game.replay.reveal().preset_sha256().empty());

  v1::Replay preset = game.replay;
  preset.mutable_deal()->mutable_liars_dice()->set_first_bidder(1);
  EXPECT_THAT(Refusal(preset), HasSubstr("reveal.preset_sha256"));
  v1::Replay unmarked = game.replay;
  unmarked.mutable_commitment()->set_source(v1::DEAL_SOURCE_ADMIN_SEED);
  EXPECT_THAT(Refusal(unmarked), HasSubstr("deal: a preset deal, but the commitment's source"));
}

TEST(DealVerifierTest, ATamperedStreamIsNamed) {
  const PlayedGame game = LiarsDice();
  const std::vector<v1::TableUpdate>& seat0 = game.streams.at(0);
  ASSERT_TRUE(VerifyStream(game.replay, seat0).ok());
  // The first update after the snapshot that carries an event.
  size_t with_event = 1;
  while (with_event < seat0.size() && seat0[with_event].move().events_size() == 0) ++with_event;
  ASSERT_LT(with_event, seat0.size());

  std::vector<v1::TableUpdate> event = seat0;
  event[with_event].mutable_move()->mutable_events(0)->set_seat(7);
  EXPECT_THAT(StreamRefusal(game.replay, event),
              HasSubstr("line " + std::to_string(with_event + 1) + " (seq "));
  EXPECT_THAT(StreamRefusal(game.replay, event), HasSubstr(": event 0 differs: the stream has"));

  std::vector<v1::TableUpdate> commitment = seat0;
  commitment[0].mutable_snapshot()->mutable_commitment()->set_sha256(std::string(64, 'f'));
  EXPECT_THAT(StreamRefusal(game.replay, commitment),
              HasSubstr("line 1 (seq 0): the snapshot's commitment"));

  std::vector<v1::TableUpdate> early = seat0;
  *early[1].mutable_move()->mutable_reveal() = game.replay.reveal();
  EXPECT_THAT(StreamRefusal(game.replay, early), HasSubstr("line 2 (seq 1), move 1: a reveal"));

  std::vector<v1::TableUpdate> gap = seat0;
  gap.erase(gap.begin() + 2);
  EXPECT_THAT(StreamRefusal(game.replay, gap), HasSubstr("line 3: seq 3 where 2 was due"));

  std::vector<v1::TableUpdate> mover = seat0;
  mover[1].mutable_move()->set_seat((mover[1].move().seat() + 1) % 3);
  EXPECT_THAT(StreamRefusal(game.replay, mover), HasSubstr("line 2 (seq 1), move 1: seat "));

  std::vector<v1::TableUpdate> resumed(seat0.begin() + 1, seat0.end());
  EXPECT_THAT(StreamRefusal(game.replay, resumed), HasSubstr("starts with a snapshot"));
}

}  // namespace
}  // namespace kahve::tools

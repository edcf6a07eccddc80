// The deal commitment at the session (docs/fairness.md): published from the creation on, the seed
// material revealed with the result and never before, for every ruleset; and a log whose deal or
// salt no longer opens its commitment is refused.

#include <memory>
#include <string>
#include <vector>

#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "engine/core/registry.h"
#include "gmock/gmock.h"
#include "google/protobuf/util/message_differencer.h"
#include "gtest/gtest.h"
#include "services/table/deal_commitment.h"
#include "services/table/table_session.h"
#include "tests/services/table/fairness_testing.h"
#include "tests/services/table/table_session_testing.h"

namespace kahve::table {
namespace {

using ::google::protobuf::util::MessageDifferencer;
using ::kahve::table::testing::Bot;
using ::kahve::table::testing::CreatedEntry;
using ::kahve::table::testing::DriveClock;
using ::kahve::table::testing::FindSecretIn;
using ::kahve::table::testing::kStart;
using ::kahve::table::testing::MustCreate;
using ::kahve::table::testing::Player;
using ::testing::HasSubstr;

// Seals `entry`'s deal as the table host does: a fresh salt and the commitment to it.
std::string Seal(v1::TableLogEntry* entry, v1::DealSource source) {
  const absl::StatusOr<std::string> salt = NewSalt();
  EXPECT_TRUE(salt.ok());
  v1::TableCreated* created = entry->mutable_created();
  *created->mutable_commitment() = Commit(source, *salt, created->deal());
  created->set_deal_salt(absl::BytesToHexString(*salt));
  return *salt;
}

// A table of bots only (so the clock plays it to the end) of each ruleset, short settings.
std::vector<v1::GameSettings> ShortGames() {
  std::vector<v1::GameSettings> games(5);
  games[0].mutable_liars_dice()->set_players(3);
  games[1].mutable_okey()->set_max_deals(1);
  games[2].mutable_okey51()->set_deals(1);
  games[3].mutable_okey101()->set_deals(3);
  games[4].mutable_mexican_train()->set_players(3);
  return games;
}

v1::TableLogEntry BotTable(const v1::GameSettings& settings, int seats, uint64_t seed) {
  v1::TableLogEntry entry = CreatedEntry(std::vector<v1::SeatSpec>(seats, Bot("heuristic")), seed);
  *entry.mutable_created()->mutable_settings() = settings;
  return entry;
}

int SeatsOf(const v1::GameSettings& settings) {
  v1::Deal deal;
  auto game = engine::NewGame(settings, deal);
  EXPECT_TRUE(game.ok()) << game.status();
  return game.ok() ? (*game)->num_seats() : 0;
}

TEST(TableSessionFairnessTest, EveryRulesetRevealsTheSeedWithTheResultAndNeverBefore) {
  for (const v1::GameSettings& settings : ShortGames()) {
    const absl::StatusOr<uint64_t> seed = NewSeed();
    ASSERT_TRUE(seed.ok());
    v1::TableLogEntry entry = BotTable(settings, SeatsOf(settings), *seed);
    const std::string salt = Seal(&entry, v1::DEAL_SOURCE_SERVER_RANDOM);
    const v1::DealCommitment commitment = entry.created().commitment();
    std::unique_ptr<TableSession> session = MustCreate(entry);
    ASSERT_NE(session, nullptr);
    const int seats = session->num_seats();
    SCOPED_TRACE(settings.DebugString());

    // Before the end: the commitment everywhere a table is shown, and no trace of the secrets.
    auto check_secret_kept = [&](const google::protobuf::Message& message,
                                 const std::string& what) {
      EXPECT_EQ(FindSecretIn(message, *seed, salt), "") << what << ": " << message.DebugString();
    };
    for (int recipient = -1; recipient < seats; ++recipient) {
      const v1::TableUpdate snapshot = session->SnapshotFor(recipient);
      EXPECT_TRUE(MessageDifferencer::Equals(snapshot.snapshot().commitment(), commitment));
      EXPECT_FALSE(snapshot.snapshot().has_reveal());
      check_secret_kept(snapshot, absl::StrCat("the first snapshot of ", recipient));
    }
    EXPECT_TRUE(MessageDifferencer::Equals(session->Summary().commitment(), commitment));
    EXPECT_FALSE(session->reveal().has_value());

    absl::Time now = kStart;
    const std::vector<AppliedEntry> entries = DriveClock(session.get(), &now);
    ASSERT_TRUE(session->over());
    ASSERT_FALSE(entries.empty());
    for (size_t index = 0; index + 1 < entries.size(); ++index) {
      EXPECT_FALSE(entries[index].reveal.has_value());
      for (int recipient = -1; recipient < seats; ++recipient) {
        check_secret_kept(UpdateFor(entries[index], recipient),
                          absl::StrCat("update ", index + 1, " to ", recipient));
      }
    }
    check_secret_kept(session->Summary(), "the summary at the end");

    // The end: the reveal opens the commitment, and every recipient gets it with the result.
    const std::optional<v1::DealReveal> reveal = session->reveal();
    ASSERT_TRUE(reveal.has_value());
    EXPECT_EQ(reveal->seed(), *seed);
    EXPECT_EQ(reveal->salt(), absl::BytesToHexString(salt));
    EXPECT_TRUE(CheckReveal(commitment, *reveal, session->game().deal()).ok());
    for (int recipient = -1; recipient < seats; ++recipient) {
      const v1::TableUpdate last = UpdateFor(entries.back(), recipient);
      ASSERT_TRUE(last.move().has_result());
      EXPECT_TRUE(MessageDifferencer::Equals(last.move().reveal(), *reveal));
      EXPECT_TRUE(
          MessageDifferencer::Equals(session->SnapshotFor(recipient).snapshot().reveal(), *reveal));
    }
    const v1::Replay replay = session->ReplayRecord();
    EXPECT_TRUE(MessageDifferencer::Equals(replay.commitment(), commitment));
    EXPECT_TRUE(MessageDifferencer::Equals(replay.reveal(), *reveal));
  }
}

TEST(TableSessionFairnessTest, ALogWhoseDealNoLongerOpensItsCommitmentIsRefused) {
  v1::TableLogEntry entry = CreatedEntry({Player("ana"), Player("ben")}, /*seed=*/7);
  Seal(&entry, v1::DEAL_SOURCE_ADMIN_SEED);
  ASSERT_NE(MustCreate(entry), nullptr);

  auto refusal = [](const v1::TableLogEntry& spoilt) {
    const absl::StatusOr<std::unique_ptr<TableSession>> session = TableSession::Create(spoilt);
    EXPECT_EQ(session.status().code(), absl::StatusCode::kInvalidArgument);
    return std::string(session.status().message());
  };
  v1::TableLogEntry seed = entry;
  seed.mutable_created()->mutable_deal()->set_seed(8);
  EXPECT_THAT(refusal(seed), HasSubstr("created.commitment: commitment.sha256: published"));
  v1::TableLogEntry salt = entry;
  salt.mutable_created()->set_deal_salt(std::string(64, '0'));
  EXPECT_THAT(refusal(salt), HasSubstr("created.commitment: commitment.sha256: published"));
  v1::TableLogEntry source = entry;
  source.mutable_created()->mutable_commitment()->set_source(v1::DEAL_SOURCE_SERVER_RANDOM);
  EXPECT_THAT(refusal(source), HasSubstr("created.commitment: commitment.sha256: published"));
  v1::TableLogEntry short_salt = entry;
  short_salt.mutable_created()->set_deal_salt("abcd");
  EXPECT_THAT(refusal(short_salt), HasSubstr("created.deal_salt: must be 64 lowercase hex"));
  v1::TableLogEntry orphan_salt = entry;
  orphan_salt.mutable_created()->clear_commitment();
  EXPECT_THAT(refusal(orphan_salt), HasSubstr("created.deal_salt: set without a commitment"));

  // A log from before commitments: no commitment, no salt, nothing revealed.
  v1::TableLogEntry legacy = entry;
  legacy.mutable_created()->clear_commitment();
  legacy.mutable_created()->clear_deal_salt();
  std::unique_ptr<TableSession> session = MustCreate(legacy);
  ASSERT_NE(session, nullptr);
  EXPECT_EQ(session->commitment(), nullptr);
  EXPECT_FALSE(session->SnapshotFor(0).snapshot().has_commitment());
}

}  // namespace
}  // namespace kahve::table

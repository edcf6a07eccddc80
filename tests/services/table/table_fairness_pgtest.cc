// Provably fair deals through the real table service (gRPC and PostgreSQL; docs/fairness.md): the
// commitment from the first record on, the seed material only with the result, `kahve verify`'s
// checks on a game's real replay and streams, who chose the deal, and a restart in between.

#include <memory>
#include <string>
#include <vector>

#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "google/protobuf/util/message_differencer.h"
#include "gtest/gtest.h"
#include "pqxx/pqxx"
#include "tests/services/service_testing.h"
#include "tests/services/table/fairness_testing.h"
#include "tests/services/table/table_fixture.h"
#include "tools/kahve/deal_verifier.h"

namespace kahve::table {
namespace {

using ::google::protobuf::util::MessageDifferencer;
using ::kahve::table::testing::FindSecret;
using ::kahve::table::testing::FindSecretIn;
using ::testing::HasSubstr;

const std::vector<std::string> kFour = {"ana", "ben", "cem", "dua"};

v1::TableOptions Relaxed() {
  v1::TableOptions options;
  options.set_away_grace_seconds(60);
  return options;
}

class TableFairnessTest : public TableServiceTest {
 protected:
  absl::StatusOr<v1::Replay> Replay(const std::string& table_id, const std::string& caller,
                                    const std::string& role = "") {
    auto context = kahve::testing::ContextFor(caller, role);
    v1::GetReplayRequest request;
    request.set_table_id(table_id);
    v1::Replay replay;
    const grpc::Status status = stub().GetReplay(context.get(), request, &replay);
    if (!status.ok()) {
      return absl::Status(static_cast<absl::StatusCode>(status.error_code()),
                          status.error_message());
    }
    return replay;
  }
  v1::TableSummary Summary(const std::string& table_id) {
    auto context = kahve::testing::ContextFor(kAdmin, common::kRoleAdmin);
    v1::ListTablesResponse tables;
    EXPECT_TRUE(stub().ListTables(context.get(), v1::ListTablesRequest(), &tables).ok());
    for (const v1::TableSummary& summary : tables.tables()) {
      if (summary.table_id() == table_id) return summary;
    }
    ADD_FAILURE() << "no summary of " << table_id;
    return {};
  }
  // The creation entry as the log stores it.
  v1::TableCreated StoredCreation(const std::string& table_id) {
    pqxx::connection connection(url());
    pqxx::nontransaction tx(connection);
    const pqxx::row row =
        tx.exec_params1("SELECT entry FROM table_log WHERE table_id = $1 AND seq = 0", table_id);
    const pqxx::binarystring bytes(row[0]);
    v1::TableLogEntry entry;
    EXPECT_TRUE(entry.ParseFromString(bytes.str()));
    return entry.created();
  }
};

TEST_F(TableFairnessTest, AGameCommitsFirstRevealsLastAndItsReplayAndStreamsVerify) {
  std::string table_id;
  // No seed: the matchmaker's way, so the server draws it.
  const std::vector<Player> players = CreateTable(kFour, Relaxed(), &table_id, std::nullopt);
  ASSERT_EQ(players.size(), 4u);
  std::vector<std::unique_ptr<UpdateReader>> readers;
  for (const Player& player : players)
    readers.push_back(Connect(table_id, player.id, player.token));
  readers.push_back(Connect(table_id, "watcher", ""));

  // Everything shown before the end, to search for the secrets once they are known.
  std::vector<std::unique_ptr<google::protobuf::Message>> shown;
  std::vector<std::string> refusals;
  const v1::DealCommitment commitment = View(table_id, "watcher", "")->commitment();
  EXPECT_EQ(commitment.version(), 1);
  EXPECT_EQ(commitment.source(), v1::DEAL_SOURCE_SERVER_RANDOM);
  EXPECT_EQ(commitment.sha256().size(), 64u);
  const v1::TableSummary summary = Summary(table_id);
  EXPECT_TRUE(MessageDifferencer::Equals(summary.commitment(), commitment));
  shown.push_back(std::make_unique<v1::TableSummary>(summary));
  const absl::StatusOr<v1::Replay> early = Replay(table_id, "ana");
  EXPECT_EQ(early.status().code(), absl::StatusCode::kFailedPrecondition);
  refusals.emplace_back(early.status().message());

  ::testing::internal::CaptureStdout();  // the host's log lines
  while (true) {
    const absl::StatusOr<v1::GetViewResponse> spectator = View(table_id, "watcher", "");
    ASSERT_TRUE(spectator.ok()) << spectator.status();
    if (spectator->view().over()) break;
    EXPECT_FALSE(spectator->has_reveal());
    EXPECT_TRUE(MessageDifferencer::Equals(spectator->commitment(), commitment));
    shown.push_back(std::make_unique<v1::GetViewResponse>(*spectator));
    for (const Player& player : players) {
      shown.push_back(
          std::make_unique<v1::GetViewResponse>(*View(table_id, player.id, player.token)));
    }
    const Player& mover = players[spectator->view().to_act(0)];
    v1::PlayResponse response;
    refusals.push_back(Play(table_id, mover, BidMove(99, 6), &response).error_message());
    ASSERT_EQ(PlayToTheEnd(table_id, players, 1), 1);
  }
  const std::string logged = ::testing::internal::GetCapturedStdout();

  const absl::StatusOr<v1::Replay> replay = Replay(table_id, "someone-else");
  ASSERT_TRUE(replay.ok()) << replay.status();
  ASSERT_TRUE(replay->has_reveal());
  const uint64_t seed = replay->reveal().seed();
  const std::string salt = absl::HexStringToBytes(replay->reveal().salt());
  EXPECT_TRUE(MessageDifferencer::Equals(replay->commitment(), commitment));
  for (const auto& message : shown) {
    EXPECT_EQ(FindSecretIn(*message, seed, salt), "") << message->DebugString();
  }
  for (const std::string& refusal : refusals) EXPECT_EQ(FindSecret(refusal, seed, salt), "");
  EXPECT_EQ(FindSecret(logged, seed, salt), "") << logged;

  for (size_t index = 0; index < readers.size(); ++index) {
    const int seat = index < players.size() ? players[index].seat : -1;
    SCOPED_TRACE(absl::StrCat("recipient ", seat));
    ASSERT_TRUE(readers[index]->WaitUntil(EndsWithResult));
    const std::vector<v1::TableUpdate> updates = readers[index]->updates();
    EXPECT_TRUE(MessageDifferencer::Equals(updates[0].snapshot().commitment(), commitment));
    for (size_t at = 0; at + 1 < updates.size(); ++at) {
      EXPECT_EQ(FindSecretIn(updates[at], seed, salt), "") << updates[at].DebugString();
    }
    EXPECT_TRUE(MessageDifferencer::Equals(updates.back().move().reveal(), replay->reveal()));
    const absl::StatusOr<tools::VerifiedStream> verified = tools::VerifyStream(*replay, updates);
    ASSERT_TRUE(verified.ok()) << verified.status();
    EXPECT_EQ(verified->moves_checked, replay->moves_size());
    EXPECT_TRUE(verified->reached_end);
  }
  const absl::StatusOr<v1::GetViewResponse> final_view = View(table_id, "ana", players[0].token);
  EXPECT_TRUE(MessageDifferencer::Equals(final_view->reveal(), replay->reveal()));
  // A summary shows the commitment only, before the end and after it.
  EXPECT_EQ(FindSecretIn(Summary(table_id), seed, salt), "");
  const absl::StatusOr<tools::VerifiedReplay> verified = tools::VerifyReplay(*replay);
  ASSERT_TRUE(verified.ok()) << verified.status();
  EXPECT_EQ(verified->ruleset, "liars_dice");

  // Tampered, each is named.
  auto refused = [](const v1::Replay& tampered) {
    const absl::StatusOr<tools::VerifiedReplay> checked = tools::VerifyReplay(tampered);
    EXPECT_FALSE(checked.ok());
    return std::string(checked.status().message());
  };
  v1::Replay reseeded = *replay;
  reseeded.mutable_deal()->set_seed(seed ^ 1);
  reseeded.mutable_reveal()->set_seed(seed ^ 1);
  reseeded.mutable_reveal()->clear_material();
  EXPECT_THAT(refused(reseeded), HasSubstr("commitment.sha256: published " + commitment.sha256()));
  v1::Replay deal = *replay;
  deal.mutable_deal()->set_seed(seed ^ 1);
  EXPECT_THAT(refused(deal), HasSubstr(absl::StrCat("reveal.seed: ", seed, ", but deal.seed is ")));
  v1::Replay salted = *replay;
  salted.mutable_reveal()->set_salt(std::string(64, 'e'));
  EXPECT_THAT(refused(salted), HasSubstr("reveal.material: "));
  salted.mutable_reveal()->clear_material();
  EXPECT_THAT(refused(salted), HasSubstr("commitment.sha256: published"));
  v1::Replay moved = *replay;
  moved.mutable_moves(2)->set_seat((moved.moves(2).seat() + 1) % 4);
  EXPECT_THAT(refused(moved), HasSubstr("moves[2] (move 3, seat "));
  std::vector<v1::TableUpdate> stream = readers[1]->updates();
  v1::Event* event = stream.back().mutable_move()->mutable_events(0);
  event->set_seat((event->seat() + 1) % 4);
  const absl::StatusOr<tools::VerifiedStream> tampered = tools::VerifyStream(*replay, stream);
  ASSERT_FALSE(tampered.ok());
  EXPECT_THAT(std::string(tampered.status().message()),
              HasSubstr(absl::StrCat("(seq ", stream.back().seq(), "), move ", replay->moves_size(),
                                     ": event 0 differs")));
}

TEST_F(TableFairnessTest, TheCommitmentNamesWhoChoseTheDeal) {
  std::string seeded;
  CreateTable({"ana", "ben"}, Relaxed(), &seeded, /*seed=*/42);
  EXPECT_EQ(View(seeded, "ana", "")->commitment().source(), v1::DEAL_SOURCE_ADMIN_SEED);

  v1::CreateTableRequest request;
  request.set_match_id("match-preset");
  request.mutable_settings()->mutable_liars_dice()->set_players(2);
  request.mutable_settings()->mutable_liars_dice()->set_dice_per_player(1);
  request.add_seats()->set_player_id("eda");
  request.add_seats()->set_player_id("fil");
  request.mutable_deal()->set_seed(9);
  request.mutable_deal()->mutable_liars_dice()->set_first_bidder(1);
  v1::CreateTableResponse created;
  ASSERT_TRUE(Create(request, &created, common::kRoleAdmin).ok());
  const std::string& preset = created.table_id();
  EXPECT_EQ(View(preset, "eda", "")->commitment().source(), v1::DEAL_SOURCE_ADMIN_PRESET);
  std::vector<Player> players;
  for (const auto& grant : created.seats()) {
    players.push_back(Player{grant.player_id(), grant.seat(), grant.seat_token()});
  }
  PlayToTheEnd(preset, players);
  const absl::StatusOr<v1::Replay> replay = Replay(preset, "eda");
  ASSERT_TRUE(replay.ok()) << replay.status();
  EXPECT_EQ(replay->reveal().preset_sha256().size(), 64u);
  EXPECT_TRUE(tools::VerifyReplay(*replay).ok());
  v1::Replay other = *replay;
  other.mutable_deal()->mutable_liars_dice()->set_first_bidder(0);
  EXPECT_THAT(std::string(tools::VerifyReplay(other).status().message()),
              HasSubstr("reveal.preset_sha256"));

  auto practice = [&](std::optional<uint64_t> seed) {
    v1::CreatePracticeTableRequest open;
    open.mutable_settings()->mutable_liars_dice()->set_players(2);
    open.set_seat(0);
    if (seed.has_value()) open.set_seed(*seed);
    v1::CreatePracticeTableResponse response;
    auto context = kahve::testing::ContextFor("pia");
    EXPECT_TRUE(stub().CreatePracticeTable(context.get(), open, &response).ok());
    return View(response.table_id(), "pia", "")->commitment().source();
  };
  EXPECT_EQ(practice(5), v1::DEAL_SOURCE_PLAYER_SEED);
  EXPECT_EQ(practice(std::nullopt), v1::DEAL_SOURCE_SERVER_RANDOM);
}

TEST_F(TableFairnessTest, TheCommitmentSurvivesARestartAndTheRevealStillOpensIt) {
  std::string table_id;
  const std::vector<Player> players = CreateTable(kFour, Relaxed(), &table_id, std::nullopt);
  auto reader = Connect(table_id, "ana", players[0].token);
  ASSERT_TRUE(reader->WaitForSeq(0));
  const v1::DealCommitment before = reader->updates()[0].snapshot().commitment();
  ASSERT_EQ(before.sha256().size(), 64u);
  // The salt is in the durable creation entry, beside the commitment it opens.
  const v1::TableCreated stored = StoredCreation(table_id);
  EXPECT_TRUE(MessageDifferencer::Equals(stored.commitment(), before));
  EXPECT_EQ(stored.deal_salt().size(), 64u);
  ASSERT_EQ(PlayToTheEnd(table_id, players, 3), 3);

  reader.reset();
  server_.reset();
  server_ = std::make_unique<TableServer>(url(), kHostId);
  EXPECT_TRUE(MessageDifferencer::Equals(View(table_id, "ana", "")->commitment(), before));
  auto resumed = Connect(table_id, "ben", players[1].token);
  ASSERT_TRUE(resumed->WaitForSeq(3));
  EXPECT_TRUE(MessageDifferencer::Equals(resumed->updates()[0].snapshot().commitment(), before));
  PlayToTheEnd(table_id, players);

  const absl::StatusOr<v1::Replay> replay = Replay(table_id, "ana");
  ASSERT_TRUE(replay.ok()) << replay.status();
  EXPECT_TRUE(MessageDifferencer::Equals(replay->commitment(), before));
  EXPECT_EQ(replay->reveal().salt(), stored.deal_salt());
  const absl::StatusOr<tools::VerifiedReplay> verified = tools::VerifyReplay(*replay);
  EXPECT_TRUE(verified.ok()) << verified.status();
  ASSERT_TRUE(resumed->WaitUntil(EndsWithResult));
  EXPECT_TRUE(tools::VerifyStream(*replay, resumed->updates()).ok());
}

}  // namespace
}  // namespace kahve::table

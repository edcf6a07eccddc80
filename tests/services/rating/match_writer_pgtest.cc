// MatchWriter's group commit against a real PostgreSQL: batches really form, matches of one player
// in a batch are rated in queue order, a repeated id in one batch is answered as a repeat, a match
// that fails to rate leaves no trace, and two replicas writing the same players at once neither
// deadlock nor lose an update.

#include <algorithm>
#include <memory>
#include <set>
#include <thread>

#include "absl/strings/str_cat.h"
#include "absl/synchronization/blocking_counter.h"
#include "gtest/gtest.h"
#include "prometheus/registry.h"
#include "services/common/sha256.h"
#include "services/rating/match_writer.h"
#include "tests/services/rating/rating_fixture.h"

namespace kahve::rating {
namespace {

class MatchWriterTest : public testing::PgTest {
 protected:
  void SetUp() override {
    PgTest::SetUp();
    common::PgPoolSettings settings;
    settings.url = url();
    settings.size = 2;
    settings.prepared = MatchWriter::PreparedStatements();
    pool_ = std::make_unique<common::PgPool>(settings, nullptr);
    batch_sizes_ = &prometheus::BuildHistogram()
                        .Name("batch_sizes")
                        .Register(registry_)
                        .Add({}, prometheus::Histogram::BucketBoundaries{1, 2, 4});
  }

  // A writer whose rate function refuses the match ids in `refuse`.
  std::unique_ptr<MatchWriter> Writer(int writers, std::set<std::string> refuse = {}) {
    return std::make_unique<MatchWriter>(
        pool_.get(),
        [refuse](const v1::RecordMatchRequest& match,
                 const absl::flat_hash_map<std::string, StoredRating>& current)
            -> absl::StatusOr<std::vector<v1::RatingChange>> {
          if (refuse.contains(match.match_id())) return absl::InvalidArgumentError("refused");
          return RateMatch(match, current, kProvisionalGames);
        },
        MatchWriterSettings{.writers = writers, .max_batch = 256}, batch_sizes_);
  }

  // The match as RecordMatch queues it: validated and canonical.
  static PendingMatch Pending(const v1::RecordMatchRequest& request) {
    absl::StatusOr<v1::RecordMatchRequest> canonical = CanonicalRequest(request);
    EXPECT_TRUE(canonical.ok()) << canonical.status();
    return PendingMatch{.canonical = *canonical,
                        .request_sha256 = common::Sha256(canonical->SerializeAsString()),
                        .rated = true};
  }

  // Submits every match at once and waits for all answers.
  static std::vector<absl::StatusOr<RecordedMatch>> RecordAll(
      MatchWriter& writer, const std::vector<v1::RecordMatchRequest>& matches) {
    std::vector<absl::StatusOr<RecordedMatch>> answers(matches.size(),
                                                       absl::UnknownError("no answer"));
    absl::BlockingCounter pending(static_cast<int>(matches.size()));
    for (size_t i = 0; i < matches.size(); ++i) {
      writer.Submit(Pending(matches[i]), [&answers, &pending, i](auto answer) {
        answers[i] = std::move(answer);
        pending.DecrementCount();
      });
    }
    pending.Wait();
    return answers;
  }

  int64_t Count(const std::string& sql) {
    pqxx::connection connection(url());
    pqxx::nontransaction tx(connection);
    return tx.exec(sql)[0][0].as<int64_t>();
  }

  prometheus::Registry registry_;
  prometheus::Histogram* batch_sizes_ = nullptr;
  std::unique_ptr<common::PgPool> pool_;
};

TEST_F(MatchWriterTest, BatchesRateOnePlayersMatchesInQueueOrder) {
  constexpr int kMatches = 200;
  std::vector<v1::RecordMatchRequest> matches;
  for (int i = 0; i < kMatches; ++i) {
    matches.push_back(SoloMatch(absl::StrCat("m", i),
                                {"hot", absl::StrCat("a", i), absl::StrCat("b", i)}, {1, 2, 3},
                                1'000'000 + i));
  }
  auto writer = Writer(/*writers=*/1);
  const auto answers = RecordAll(*writer, matches);
  double previous_mu = 0;
  for (int i = 0; i < kMatches; ++i) {
    ASSERT_TRUE(answers[i].ok()) << answers[i].status();
    EXPECT_TRUE(answers[i]->inserted);
    const v1::RatingChange& hot = answers[i]->response.changes(0);
    ASSERT_EQ(hot.player_id(), "hot");
    // Each match starts from exactly the one queued before it.
    EXPECT_EQ(hot.before().games(), i);
    EXPECT_EQ(hot.after().games(), i + 1);
    EXPECT_GT(hot.after().mu(), previous_mu);
    if (i > 0) {
      EXPECT_DOUBLE_EQ(hot.before().mu(), previous_mu);
    }
    previous_mu = hot.after().mu();
  }
  writer.reset();
  const prometheus::ClientMetric batches = batch_sizes_->Collect();
  EXPECT_DOUBLE_EQ(batches.histogram.sample_sum, kMatches);
  EXPECT_LT(batches.histogram.sample_count, kMatches) << "no batch held more than one match";
  EXPECT_EQ(Count("SELECT games FROM ratings WHERE player_id = 'hot'"), kMatches);
  EXPECT_EQ(
      Count("SELECT count(*) FROM rating_match_players WHERE player_id = 'hot' AND mu IS NOT NULL"),
      kMatches);
  EXPECT_EQ(Count("SELECT count(*) FROM rating_match_players"), 3 * kMatches);
}

TEST_F(MatchWriterTest, RepeatedIdInOneBatchIsAnsweredAsARepeat) {
  const v1::RecordMatchRequest first = SoloMatch("twin", {"ana", "ben"}, {1, 2});
  const v1::RecordMatchRequest other = SoloMatch("twin", {"ana", "ben"}, {2, 1});
  auto writer = Writer(1);
  const auto answers = RecordAll(*writer, {first, other, first});
  ASSERT_TRUE(answers[0].ok()) << answers[0].status();
  EXPECT_TRUE(answers[0]->inserted);
  EXPECT_TRUE(absl::IsAlreadyExists(answers[1].status())) << answers[1].status();
  ASSERT_TRUE(answers[2].ok()) << answers[2].status();
  EXPECT_FALSE(answers[2]->inserted);
  EXPECT_EQ(answers[2]->response.SerializeAsString(), answers[0]->response.SerializeAsString());
  EXPECT_EQ(Count("SELECT games FROM ratings WHERE player_id = 'ana'"), 1);
}

// The id recorded earlier, then a copy with other content and an identical copy queued together:
// each copy is compared with the stored record, whatever order the batch holds them in.
TEST_F(MatchWriterTest, CopiesOfAStoredMatchAreEachComparedWithIt) {
  const v1::RecordMatchRequest first = SoloMatch("twin", {"ana", "ben"}, {1, 2});
  const v1::RecordMatchRequest other = SoloMatch("twin", {"ana", "ben"}, {2, 1});
  auto writer = Writer(1);
  const auto recorded = RecordAll(*writer, {first});
  ASSERT_TRUE(recorded[0].ok()) << recorded[0].status();
  const auto answers = RecordAll(*writer, {other, first});
  EXPECT_TRUE(absl::IsAlreadyExists(answers[0].status())) << answers[0].status();
  ASSERT_TRUE(answers[1].ok()) << answers[1].status();
  EXPECT_FALSE(answers[1]->inserted);
  EXPECT_EQ(answers[1]->response.SerializeAsString(), recorded[0]->response.SerializeAsString());
  EXPECT_EQ(Count("SELECT games FROM ratings WHERE player_id = 'ana'"), 1);
}

TEST_F(MatchWriterTest, MatchThatFailsToRateLeavesNoTraceAndSparesItsBatch) {
  auto writer = Writer(1, {"bad"});
  const auto answers =
      RecordAll(*writer, {SoloMatch("good", {"ana", "ben"}, {1, 2}),
                          SoloMatch("bad", {"ana", "newcomer"}, {1, 2}),
                          SoloMatch("good2", {"ana", "cem"}, {1, 2}, 1'700'000'100)});
  ASSERT_TRUE(answers[0].ok()) << answers[0].status();
  EXPECT_TRUE(absl::IsInvalidArgument(answers[1].status())) << answers[1].status();
  ASSERT_TRUE(answers[2].ok()) << answers[2].status();
  EXPECT_EQ(answers[2]->response.changes(0).before().games(), 1);
  EXPECT_EQ(Count("SELECT count(*) FROM rating_matches WHERE match_id = 'bad'"), 0);
  EXPECT_EQ(Count("SELECT count(*) FROM ratings WHERE player_id = 'newcomer'"), 0);
  EXPECT_EQ(Count("SELECT count(*) FROM ratings WHERE games = 0"), 0);
  EXPECT_EQ(Count("SELECT games FROM ratings WHERE player_id = 'ana'"), 2);
}

// Two replicas, each with several writers, record matches over the same six players in every
// order at once: all succeed and every player's games count is exact.
TEST_F(MatchWriterTest, TwoReplicasSharingPlayersNeitherDeadlockNorLoseUpdates) {
  RatingServer first(url(), kProvisionalGames);
  RatingServer second(url(), kProvisionalGames);
  const std::vector<std::string> players = {"p0", "p1", "p2", "p3", "p4", "p5"};
  constexpr int kThreads = 8;
  constexpr int kPerThread = 15;
  std::vector<int> games(players.size(), 0);
  std::vector<std::vector<v1::RecordMatchRequest>> work(kThreads);
  for (int t = 0; t < kThreads; ++t) {
    for (int k = 0; k < kPerThread; ++k) {
      // Four of the six, rotated, so transactions touch overlapping sets in different orders.
      std::vector<std::string> seated;
      for (int s = 0; s < 4; ++s) {
        const int p = (t + k * 5 + s * (1 + t % 2)) % 6;
        if (std::find(seated.begin(), seated.end(), players[p]) == seated.end()) {
          seated.push_back(players[p]);
        }
      }
      for (const std::string& player : seated) ++games[player[1] - '0'];
      std::vector<int> ranks;
      for (size_t r = 0; r < seated.size(); ++r) ranks.push_back(static_cast<int>(r) + 1);
      work[t].push_back(SoloMatch(absl::StrCat("r", t, "-", k), seated, ranks, 1'000 + k));
    }
  }
  std::vector<std::thread> threads;
  std::vector<int> failures(kThreads, 0);
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      RatingServer& server = t % 2 == 0 ? first : second;
      for (const v1::RecordMatchRequest& match : work[t]) {
        auto context = testing::ContextFor("table-service", common::kRoleService);
        v1::RecordMatchResponse response;
        if (!server.stub().RecordMatch(context.get(), match, &response).ok()) ++failures[t];
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  for (int t = 0; t < kThreads; ++t) EXPECT_EQ(failures[t], 0) << "thread " << t;
  for (size_t p = 0; p < players.size(); ++p) {
    EXPECT_EQ(Count(absl::StrCat("SELECT games FROM ratings WHERE player_id = '", players[p], "'")),
              games[p])
        << players[p];
  }
}

}  // namespace
}  // namespace kahve::rating

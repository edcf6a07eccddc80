#include "services/rating/openskill.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "google/protobuf/struct.pb.h"
#include "google/protobuf/util/json_util.h"
#include "gtest/gtest.h"

namespace kahve::rating {
namespace {

using ::google::protobuf::Struct;
using ::google::protobuf::Value;
using ::testing::HasSubstr;

// The bound on |ours - openskill| for every mu and sigma.
constexpr double kReferenceTolerance = 1e-9;

constexpr Rating kNew{25.0, 25.0 / 3.0};

std::vector<double> NumbersFromJson(const Value& value) {
  std::vector<double> numbers;
  for (const Value& number : value.list_value().values()) numbers.push_back(number.number_value());
  return numbers;
}

std::vector<std::vector<Rating>> TeamsFromJson(const Value& value) {
  std::vector<std::vector<Rating>> teams;
  for (const Value& team : value.list_value().values()) {
    std::vector<Rating>& players = teams.emplace_back();
    for (const Value& player : team.list_value().values()) {
      const auto& fields = player.struct_value().fields();
      players.push_back(Rating{fields.at("mu").number_value(), fields.at("sigma").number_value()});
    }
  }
  return teams;
}

// tests/services/rating/openskill_vectors.json, written by tools/openskill_vectors/generate.js.
Struct LoadVectors() {
  const std::string path =
      std::string(KAHVE_SOURCE_DIR) + "/tests/services/rating/openskill_vectors.json";
  std::ifstream file(path);
  EXPECT_TRUE(file.good()) << "cannot read " << path;
  std::stringstream text;
  text << file.rdbuf();
  Struct vectors;
  const auto status = google::protobuf::util::JsonStringToMessage(text.str(), &vectors);
  EXPECT_TRUE(status.ok()) << path << ": " << status.ToString();
  return vectors;
}

ModelParams ParamsFromJson(const Struct& case_fields) {
  ModelParams params;
  if (case_fields.fields().count("params") == 0) return params;
  const auto& fields = case_fields.fields().at("params").struct_value().fields();
  if (fields.count("beta") != 0) params.beta = fields.at("beta").number_value();
  if (fields.count("tau") != 0) params.tau = fields.at("tau").number_value();
  if (fields.count("kappa") != 0) params.kappa = fields.at("kappa").number_value();
  return params;
}

TEST(OpenskillReferenceTest, AgreesWithOpenskillJs) {
  const Struct vectors = LoadVectors();
  ASSERT_EQ(vectors.fields().count("cases"), 1u);
  const auto& cases = vectors.fields().at("cases").list_value().values();
  // Guards against a truncated file passing vacuously.
  ASSERT_GE(cases.size(), 300);
  double max_diff = 0;
  int compared = 0;
  for (const Value& test_case : cases) {
    const Struct& fields = test_case.struct_value();
    SCOPED_TRACE(fields.fields().at("name").string_value());
    const std::vector<std::vector<Rating>> teams = TeamsFromJson(fields.fields().at("teams"));
    std::vector<double> ranks;
    if (fields.fields().count("ranks") != 0) {
      ranks = NumbersFromJson(fields.fields().at("ranks"));
    } else if (fields.fields().count("scores") != 0) {
      // openskill ranks by -score; our competition ranks have the same order and ties.
      auto from_scores = RanksFromScores(NumbersFromJson(fields.fields().at("scores")));
      ASSERT_TRUE(from_scores.ok()) << from_scores.status();
      ranks = *from_scores;
    }
    const auto rated = RateTeams(teams, ranks, ParamsFromJson(fields));
    ASSERT_TRUE(rated.ok()) << rated.status();
    const std::vector<std::vector<Rating>> expected = TeamsFromJson(fields.fields().at("expected"));
    ASSERT_EQ(rated->size(), expected.size());
    for (size_t t = 0; t < expected.size(); ++t) {
      ASSERT_EQ((*rated)[t].size(), expected[t].size());
      for (size_t k = 0; k < expected[t].size(); ++k) {
        EXPECT_NEAR((*rated)[t][k].mu, expected[t][k].mu, kReferenceTolerance) << t << "/" << k;
        EXPECT_NEAR((*rated)[t][k].sigma, expected[t][k].sigma, kReferenceTolerance)
            << t << "/" << k;
        max_diff = std::max({max_diff, std::abs((*rated)[t][k].mu - expected[t][k].mu),
                             std::abs((*rated)[t][k].sigma - expected[t][k].sigma)});
        compared += 2;
      }
    }
  }
  std::printf("%d values from %d cases, max |ours - openskill| = %.3g\n", compared,
              static_cast<int>(cases.size()), max_diff);
  RecordProperty("max_abs_diff", std::to_string(max_diff));
}

TEST(RateTeamsTest, OneVsOneOfEqualsIsSymmetric) {
  const auto rated = RateTeams({{kNew}, {kNew}}, std::vector<double>{1, 2});
  ASSERT_TRUE(rated.ok()) << rated.status();
  const Rating winner = (*rated)[0][0];
  const Rating loser = (*rated)[1][0];
  EXPECT_GT(winner.mu, kNew.mu);
  EXPECT_NEAR(winner.mu - kNew.mu, kNew.mu - loser.mu, 1e-12);
  EXPECT_DOUBLE_EQ(winner.sigma, loser.sigma);
  EXPECT_LT(winner.sigma, kNew.sigma);

  // Swapping the result swaps the numbers.
  const auto swapped = RateTeams({{kNew}, {kNew}}, std::vector<double>{2, 1});
  ASSERT_TRUE(swapped.ok()) << swapped.status();
  EXPECT_DOUBLE_EQ((*swapped)[0][0].mu, loser.mu);
  EXPECT_DOUBLE_EQ((*swapped)[1][0].mu, winner.mu);
}

TEST(RateTeamsTest, TiesLeaveEqualPlayersEqual) {
  const auto drawn = RateTeams({{kNew}, {kNew}}, std::vector<double>{1, 1});
  ASSERT_TRUE(drawn.ok()) << drawn.status();
  EXPECT_DOUBLE_EQ((*drawn)[0][0].mu, kNew.mu);
  EXPECT_DOUBLE_EQ((*drawn)[1][0].mu, kNew.mu);
  EXPECT_DOUBLE_EQ((*drawn)[0][0].sigma, (*drawn)[1][0].sigma);

  // Seats 1 and 2 share second place with equal ratings; whoever is around them, they stay equal.
  const Rating same{27.5, 4.0};
  const auto shared =
      RateTeams({{{31.0, 2.0}}, {same}, {same}, {{19.0, 7.5}}}, std::vector<double>{1, 2, 2, 3});
  ASSERT_TRUE(shared.ok()) << shared.status();
  EXPECT_DOUBLE_EQ((*shared)[1][0].mu, (*shared)[2][0].mu);
  EXPECT_DOUBLE_EQ((*shared)[1][0].sigma, (*shared)[2][0].sigma);

  // A draw moves the favourite down and the underdog up.
  const auto upset = RateTeams({{{30.0, 3.0}}, {{20.0, 3.0}}}, std::vector<double>{1, 1});
  ASSERT_TRUE(upset.ok()) << upset.status();
  EXPECT_LT((*upset)[0][0].mu, 30.0);
  EXPECT_GT((*upset)[1][0].mu, 20.0);
}

TEST(RateTeamsTest, OnlyTheOrderOfRanksCounts) {
  const std::vector<std::vector<Rating>> teams = {
      {{24.0, 6.0}, {29.0, 3.0}}, {{21.0, 8.0}}, {{26.0, 2.5}}, {{22.0, 5.0}, {25.0, 1.0}}};
  const auto small = RateTeams(teams, std::vector<double>{1, 2, 2, 3});
  const auto odd = RateTeams(teams, std::vector<double>{-5, 0.5, 0.5, 100});
  ASSERT_TRUE(small.ok() && odd.ok());
  for (size_t t = 0; t < teams.size(); ++t) {
    for (size_t k = 0; k < teams[t].size(); ++k) {
      EXPECT_EQ((*small)[t][k].mu, (*odd)[t][k].mu);
      EXPECT_EQ((*small)[t][k].sigma, (*odd)[t][k].sigma);
    }
  }
}

TEST(RateTeamsTest, NoRanksMeansListedInFinishingOrder) {
  const std::vector<std::vector<Rating>> teams = {{{20.0, 5.0}}, {{30.0, 4.0}}, {{25.0, 6.0}}};
  const auto implicit = RateTeams(teams, {});
  const auto explicit_ranks = RateTeams(teams, std::vector<double>{1, 2, 3});
  ASSERT_TRUE(implicit.ok() && explicit_ranks.ok());
  for (size_t t = 0; t < teams.size(); ++t) {
    EXPECT_EQ((*implicit)[t][0].mu, (*explicit_ranks)[t][0].mu);
    EXPECT_EQ((*implicit)[t][0].sigma, (*explicit_ranks)[t][0].sigma);
  }
}

TEST(RateTeamsTest, PermutingTeamsWithTheirRanksPermutesResults) {
  const std::vector<std::vector<Rating>> teams = {
      {{20.0, 5.0}}, {{30.0, 4.0}, {18.0, 2.0}}, {{25.0, 6.0}}, {{27.0, 1.5}}};
  const auto rated = RateTeams(teams, std::vector<double>{3, 1, 2, 2});
  const auto reversed =
      RateTeams({teams[3], teams[2], teams[1], teams[0]}, std::vector<double>{2, 2, 1, 3});
  ASSERT_TRUE(rated.ok() && reversed.ok());
  for (size_t t = 0; t < teams.size(); ++t) {
    for (size_t k = 0; k < teams[t].size(); ++k) {
      EXPECT_NEAR((*rated)[t][k].mu, (*reversed)[3 - t][k].mu, 1e-12);
      EXPECT_NEAR((*rated)[t][k].sigma, (*reversed)[3 - t][k].sigma, 1e-12);
    }
  }
}

TEST(RateTeamsTest, KappaFloorsTheShrinkOfSigma) {
  ModelParams params;
  params.kappa = 0.99;
  const auto rated = RateTeams({{kNew}, {kNew}}, std::vector<double>{1, 2}, params);
  ASSERT_TRUE(rated.ok()) << rated.status();
  const double before_match = std::sqrt(kNew.sigma * kNew.sigma + params.tau * params.tau);
  EXPECT_NEAR((*rated)[0][0].sigma, before_match * std::sqrt(0.99), 1e-12);
  EXPECT_NEAR((*rated)[1][0].sigma, before_match * std::sqrt(0.99), 1e-12);
}

TEST(RateInPlaceTest, TeamsNeedNotBeAdjacent) {
  const Rating a0{24.0, 6.0}, a1{29.0, 3.0}, b0{21.0, 8.0}, b1{26.0, 2.5};
  Rating interleaved[] = {a0, b0, a1, b1};
  const int team_of[] = {0, 1, 0, 1};
  const double ranks[] = {2, 1};
  ASSERT_TRUE(RateInPlace(interleaved, team_of, ranks).ok());
  const auto grouped = RateTeams({{a0, a1}, {b0, b1}}, ranks);
  ASSERT_TRUE(grouped.ok()) << grouped.status();
  EXPECT_EQ(interleaved[0].mu, (*grouped)[0][0].mu);
  EXPECT_EQ(interleaved[1].mu, (*grouped)[1][0].mu);
  EXPECT_EQ(interleaved[2].mu, (*grouped)[0][1].mu);
  EXPECT_EQ(interleaved[3].sigma, (*grouped)[1][1].sigma);
}

TEST(RateInPlaceTest, ErrorsLeaveRatingsUnchanged) {
  Rating ratings[] = {{25.0, 8.0}, {25.0, 8.0}, {25.0, -1.0}};
  const int team_of[] = {0, 1, 2};
  const double ranks[] = {1, 2, 3};
  const absl::Status status = RateInPlace(ratings, team_of, ranks);
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(status.message(), HasSubstr("teams[2][0].sigma"));
  EXPECT_EQ(ratings[0].mu, 25.0);
  EXPECT_EQ(ratings[0].sigma, 8.0);
  EXPECT_EQ(ratings[1].mu, 25.0);

  const int out_of_range[] = {0, 1, 3};
  EXPECT_EQ(RateInPlace(ratings, out_of_range, ranks).code(), absl::StatusCode::kInvalidArgument);
  const int too_few[] = {0, 1};
  EXPECT_EQ(RateInPlace(ratings, too_few, ranks).code(), absl::StatusCode::kInvalidArgument);
}

absl::StatusCode CodeOf(const std::vector<std::vector<Rating>>& teams,
                        const std::vector<double>& ranks, const ModelParams& params = {}) {
  return RateTeams(teams, ranks, params).status().code();
}

TEST(RateTeamsTest, RejectsBadInput) {
  constexpr auto kInvalid = absl::StatusCode::kInvalidArgument;
  const double inf = INFINITY;
  const double nan = NAN;
  EXPECT_EQ(CodeOf({}, {}), kInvalid);
  EXPECT_EQ(CodeOf({{kNew}}, {}), kInvalid);
  EXPECT_EQ(CodeOf({{kNew}, {}}, {}), kInvalid);
  EXPECT_EQ(CodeOf({{kNew}, {kNew}}, {1}), kInvalid);
  EXPECT_EQ(CodeOf({{kNew}, {kNew}}, {1, 2, 3}), kInvalid);
  EXPECT_EQ(CodeOf({{kNew}, {kNew}}, {1, nan}), kInvalid);
  EXPECT_EQ(CodeOf({{kNew}, {{nan, 8.0}}}, {}), kInvalid);
  EXPECT_EQ(CodeOf({{kNew}, {{inf, 8.0}}}, {}), kInvalid);
  EXPECT_EQ(CodeOf({{kNew}, {{25.0, 0.0}}}, {}), kInvalid);
  EXPECT_EQ(CodeOf({{kNew}, {{25.0, -3.0}}}, {}), kInvalid);
  EXPECT_EQ(CodeOf({{kNew}, {{25.0, inf}}}, {}), kInvalid);
  EXPECT_EQ(CodeOf({{kNew}, {kNew}}, {}, {.beta = 0}), kInvalid);
  EXPECT_EQ(CodeOf({{kNew}, {kNew}}, {}, {.tau = -1}), kInvalid);
  EXPECT_EQ(CodeOf({{kNew}, {kNew}}, {}, {.kappa = 0}), kInvalid);

  EXPECT_THAT(RateTeams({{kNew}, {}}, {}).status().message(), HasSubstr("teams[1] is empty"));
  EXPECT_THAT(RateTeams({{kNew}, {kNew}}, std::vector<double>{1}).status().message(),
              HasSubstr("ranks must have one entry per team (2), got 1"));
}

TEST(RateTeamsTest, RejectsMatchesBeyondTheScratch) {
  EXPECT_TRUE(RateTeams(std::vector<std::vector<Rating>>(kMaxTeams, {kNew}), {}).ok());
  EXPECT_EQ(RateTeams(std::vector<std::vector<Rating>>(kMaxTeams + 1, {kNew}), {}).status().code(),
            absl::StatusCode::kInvalidArgument);
  const std::vector<Rating> quarter(kMaxPlayers / 4, kNew);
  EXPECT_TRUE(RateTeams({quarter, quarter, quarter, quarter}, {}).ok());
  std::vector<Rating> one_more = quarter;
  one_more.push_back(kNew);
  EXPECT_EQ(RateTeams({quarter, quarter, quarter, one_more}, {}).status().code(),
            absl::StatusCode::kInvalidArgument);
}

TEST(RanksFromScoresTest, HigherScoreIsBetterAndEqualScoresTie) {
  const auto ranks = RanksFromScores(std::vector<double>{10, 30, 10, -5});
  ASSERT_TRUE(ranks.ok()) << ranks.status();
  EXPECT_EQ(*ranks, (std::vector<double>{2, 1, 2, 4}));
  EXPECT_TRUE(RanksFromScores({})->empty());
  EXPECT_EQ(RanksFromScores(std::vector<double>{1, NAN}).status().code(),
            absl::StatusCode::kInvalidArgument);
}

TEST(OrdinalTest, IsMuMinusThreeSigma) {
  EXPECT_NEAR(Ordinal(kNew), 0.0, 1e-12);
  EXPECT_DOUBLE_EQ(Ordinal({30.0, 2.0}), 24.0);
  EXPECT_DOUBLE_EQ(Ordinal(InitialRating()), Ordinal(kNew));
  EXPECT_EQ(InitialRating({.mu = 1500, .sigma = 350}).mu, 1500);
}

}  // namespace
}  // namespace kahve::rating

#include "services/rating/openskill.h"

#include <algorithm>
#include <cmath>
#include <cstddef>

#include "absl/strings/str_cat.h"

namespace kahve::rating {
namespace {

absl::Status ValidateParams(const ModelParams& params) {
  if (!std::isfinite(params.beta) || params.beta <= 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("beta must be finite and > 0, got ", params.beta));
  }
  if (!std::isfinite(params.tau) || params.tau < 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("tau must be finite and >= 0, got ", params.tau));
  }
  if (!(params.kappa > 0 && params.kappa <= 1)) {
    return absl::InvalidArgumentError(absl::StrCat("kappa must be in (0, 1], got ", params.kappa));
  }
  return absl::OkStatus();
}

// Checks the shape of the match and every number in it; counts each team's players on the way.
absl::Status ValidateMatch(std::span<const Rating> ratings, std::span<const int> team_of,
                           std::span<const double> team_ranks, int* team_size) {
  const size_t num_teams = team_ranks.size();
  if (num_teams == 0) return absl::InvalidArgumentError("no teams");
  if (num_teams < 2) return absl::InvalidArgumentError("a match needs at least 2 teams, got 1");
  if (num_teams > kMaxTeams) {
    return absl::InvalidArgumentError(
        absl::StrCat("at most ", kMaxTeams, " teams can be rated together, got ", num_teams));
  }
  if (ratings.size() > kMaxPlayers) {
    return absl::InvalidArgumentError(absl::StrCat(
        "at most ", kMaxPlayers, " players can be rated together, got ", ratings.size()));
  }
  if (team_of.size() != ratings.size()) {
    return absl::InvalidArgumentError(
        absl::StrCat("team_of has ", team_of.size(), " entries for ", ratings.size(), " players"));
  }
  for (size_t t = 0; t < num_teams; ++t) {
    if (!std::isfinite(team_ranks[t])) {
      return absl::InvalidArgumentError(
          absl::StrCat("ranks[", t, "] must be finite, got ", team_ranks[t]));
    }
  }
  std::fill(team_size, team_size + num_teams, 0);
  for (size_t p = 0; p < ratings.size(); ++p) {
    const int t = team_of[p];
    if (t < 0 || static_cast<size_t>(t) >= num_teams) {
      return absl::InvalidArgumentError(
          absl::StrCat("player ", p, " is in team ", t, ", not in 0..", num_teams - 1));
    }
    // Players are named by their place within the team, as in RateTeams' teams[t][k].
    const int k = team_size[t]++;
    if (!std::isfinite(ratings[p].mu)) {
      return absl::InvalidArgumentError(
          absl::StrCat("teams[", t, "][", k, "].mu must be finite, got ", ratings[p].mu));
    }
    if (!std::isfinite(ratings[p].sigma) || ratings[p].sigma <= 0) {
      return absl::InvalidArgumentError(absl::StrCat(
          "teams[", t, "][", k, "].sigma must be finite and > 0, got ", ratings[p].sigma));
    }
  }
  for (size_t t = 0; t < num_teams; ++t) {
    if (team_size[t] == 0) {
      return absl::InvalidArgumentError(absl::StrCat("teams[", t, "] is empty"));
    }
  }
  return absl::OkStatus();
}

// One match's intermediate values; fixed arrays, so rating allocates nothing. "Position" k is the
// k-th team in rank order.
struct MatchWork {
  int num_teams;
  double variance[kMaxPlayers];  // sigma'^2 = sigma^2 + tau^2
  double team_mu[kMaxTeams];
  double team_variance[kMaxTeams];
  int order[kMaxTeams];  // team at each position
  double c;
  double c_sq;
  // Tie groups: positions group_start[g] .. group_start[g + 1] - 1 share a rank.
  int group_start[kMaxTeams + 1];
  int num_groups;
  // Per team: mu moves by variance * mu_step, sigma'^2 is scaled by 1 - variance * shrink.
  double mu_step[kMaxTeams];
  double shrink[kMaxTeams];
};

// Dynamics first: every sigma grows by tau in quadrature, and the match updates that. A team's
// mu and variance are sums over its players.
void SumTeams(std::span<const Rating> ratings, std::span<const int> team_of, double tau,
              MatchWork& work) {
  std::fill(work.team_mu, work.team_mu + work.num_teams, 0.0);
  std::fill(work.team_variance, work.team_variance + work.num_teams, 0.0);
  for (size_t p = 0; p < ratings.size(); ++p) {
    work.variance[p] = ratings[p].sigma * ratings[p].sigma + tau * tau;
    work.team_mu[team_of[p]] += ratings[p].mu;
    work.team_variance[team_of[p]] += work.variance[p];
  }
}

// Teams by rank, ties in input order, then the tie groups. openskill sorts the same way (a stable
// sort), and summing in that order keeps our rounding close to theirs.
void GroupByRank(std::span<const double> team_ranks, MatchWork& work) {
  int* order = work.order;
  for (int i = 0; i < work.num_teams; ++i) {
    int j = i;
    while (j > 0 && team_ranks[order[j - 1]] > team_ranks[i]) {
      order[j] = order[j - 1];
      --j;
    }
    order[j] = i;
  }
  work.num_groups = 0;
  for (int k = 0; k < work.num_teams; ++k) {
    if (k == 0 || team_ranks[order[k]] != team_ranks[order[k - 1]]) {
      work.group_start[work.num_groups++] = k;
    }
  }
  work.group_start[work.num_groups] = work.num_teams;
}

// c, then each team's omega and delta sums turned into its mu_step and shrink (docs/ratings.md
// section 3). A group of A tied teams has one S and A terms of weight 1 / A each, so the sums over
// q fold into sums over groups: omega = 1 / A_own - sum p, delta = sum p (1 - p), p = e / S.
void ComputeTeamSteps(double beta, MatchWork& work) {
  work.c_sq = 0;
  double max_mu = work.team_mu[work.order[0]];
  for (int k = 0; k < work.num_teams; ++k) {
    work.c_sq += work.team_variance[work.order[k]] + beta * beta;
    max_mu = std::max(max_mu, work.team_mu[work.order[k]]);
  }
  work.c = std::sqrt(work.c_sq);
  // e = exp(mu / c) scaled by exp(-max_mu / c): only ratios of them enter the update, and the
  // scale keeps exp from overflowing on large mu.
  double e[kMaxTeams];
  for (int k = 0; k < work.num_teams; ++k) {
    e[k] = std::exp((work.team_mu[work.order[k]] - max_mu) / work.c);
  }
  // inv_sum[g] = 1 / S for group g: S sums e from the group's first position to the last team.
  double inv_sum[kMaxTeams];
  double suffix = 0;
  for (int g = work.num_groups - 1; g >= 0; --g) {
    for (int k = work.group_start[g + 1] - 1; k >= work.group_start[g]; --k) suffix += e[k];
    inv_sum[g] = 1.0 / suffix;
  }
  for (int g = 0; g < work.num_groups; ++g) {
    const double tied = static_cast<double>(work.group_start[g + 1] - work.group_start[g]);
    for (int k = work.group_start[g]; k < work.group_start[g + 1]; ++k) {
      double omega = 1.0 / tied;
      double delta = 0;
      for (int h = 0; h <= g; ++h) {
        const double p = e[k] * inv_sum[h];
        omega -= p;
        delta += p * (1.0 - p);
      }
      const int t = work.order[k];
      const double gamma = std::sqrt(work.team_variance[t]) / work.c;
      work.mu_step[t] = omega / work.c;
      work.shrink[t] = delta * gamma / work.c_sq;
    }
  }
}

}  // namespace

double Ordinal(Rating rating) { return rating.mu - 3.0 * rating.sigma; }

Rating InitialRating(const ModelParams& params) { return Rating{params.mu, params.sigma}; }

absl::Status RateInPlace(std::span<Rating> ratings, std::span<const int> team_of,
                         std::span<const double> team_ranks, const ModelParams& params) {
  if (absl::Status status = ValidateParams(params); !status.ok()) return status;
  int team_size[kMaxTeams];
  if (absl::Status status = ValidateMatch(ratings, team_of, team_ranks, team_size); !status.ok()) {
    return status;
  }
  MatchWork work;
  work.num_teams = static_cast<int>(team_ranks.size());
  SumTeams(ratings, team_of, params.tau, work);
  GroupByRank(team_ranks, work);
  ComputeTeamSteps(params.beta, work);

  // Written to scratch first, so a failure leaves the caller's ratings as they were.
  Rating updated[kMaxPlayers];
  for (size_t p = 0; p < ratings.size(); ++p) {
    const int t = team_of[p];
    const double variance = work.variance[p];
    const double factor = std::max(1.0 - variance * work.shrink[t], params.kappa);
    updated[p] = Rating{ratings[p].mu + variance * work.mu_step[t], std::sqrt(variance * factor)};
    if (!std::isfinite(updated[p].mu) || !std::isfinite(updated[p].sigma) ||
        !(updated[p].sigma > 0)) {
      return absl::InvalidArgumentError("ratings too far apart to update");
    }
  }
  std::copy(updated, updated + ratings.size(), ratings.begin());
  return absl::OkStatus();
}

absl::StatusOr<std::vector<std::vector<Rating>>> RateTeams(
    const std::vector<std::vector<Rating>>& teams, std::span<const double> ranks,
    const ModelParams& params) {
  if (teams.empty()) return absl::InvalidArgumentError("no teams");
  if (!ranks.empty() && ranks.size() != teams.size()) {
    return absl::InvalidArgumentError(absl::StrCat("ranks must have one entry per team (",
                                                   teams.size(), "), got ", ranks.size()));
  }
  if (teams.size() > kMaxTeams) {
    return absl::InvalidArgumentError(
        absl::StrCat("at most ", kMaxTeams, " teams can be rated together, got ", teams.size()));
  }
  size_t num_players = 0;
  for (const std::vector<Rating>& team : teams) num_players += team.size();
  if (num_players > kMaxPlayers) {
    return absl::InvalidArgumentError(
        absl::StrCat("at most ", kMaxPlayers, " players can be rated together, got ", num_players));
  }

  Rating ratings[kMaxPlayers];
  int team_of[kMaxPlayers];
  double default_ranks[kMaxTeams];
  size_t p = 0;
  for (size_t t = 0; t < teams.size(); ++t) {
    // openskill's default: the teams' positions, 1 .. n.
    default_ranks[t] = static_cast<double>(t + 1);
    for (const Rating& rating : teams[t]) {
      ratings[p] = rating;
      team_of[p] = static_cast<int>(t);
      ++p;
    }
  }
  std::span<const double> team_ranks =
      ranks.empty() ? std::span<const double>(default_ranks, teams.size()) : ranks;
  if (absl::Status status =
          RateInPlace(std::span<Rating>(ratings, num_players),
                      std::span<const int>(team_of, num_players), team_ranks, params);
      !status.ok()) {
    return status;
  }

  std::vector<std::vector<Rating>> rated(teams.size());
  p = 0;
  for (size_t t = 0; t < teams.size(); ++t) {
    rated[t].assign(ratings + p, ratings + p + teams[t].size());
    p += teams[t].size();
  }
  return rated;
}

absl::StatusOr<std::vector<double>> RanksFromScores(std::span<const double> scores) {
  for (size_t i = 0; i < scores.size(); ++i) {
    if (!std::isfinite(scores[i])) {
      return absl::InvalidArgumentError(
          absl::StrCat("scores[", i, "] must be finite, got ", scores[i]));
    }
  }
  std::vector<double> ranks(scores.size(), 1.0);
  for (size_t i = 0; i < scores.size(); ++i) {
    for (const double other : scores) {
      if (other > scores[i]) ranks[i] += 1.0;
    }
  }
  return ranks;
}

}  // namespace kahve::rating

#ifndef KAHVE_SERVICES_RATING_OPENSKILL_H_
#define KAHVE_SERVICES_RATING_OPENSKILL_H_

// The rating model: Weng-Lin Bayesian approximation with the Plackett-Luce model (Weng and Lin,
// JMLR 12, 2011, algorithm 4), with the parameters and semantics of the openskill libraries; it
// agrees with openskill.js 5.0.1 to 1e-9 (tests/services/rating/openskill_test.cc). docs/ratings.md
// derives every formula; briefly, for one match:
//
//   sigma'^2   = sigma^2 + tau^2                     per player, before anything else
//   mu_i       = sum of the team's mu, sigma_i^2 = sum of its sigma'^2
//   c          = sqrt(sum over teams of (sigma_i^2 + beta^2))
//   S_q        = sum of exp(mu_t / c) over teams t ranked r_t >= r_q (q's place and below)
//   A_q        = number of teams tied with q (q included)
//   omega_i    = sigma_i^2 / c   * sum over q with r_q <= r_i of ([i = q] - p_iq) / A_q
//   delta_i    = gamma_i sigma_i^2 / c^2 * sum over q with r_q <= r_i of p_iq (1 - p_iq) / A_q
//   p_iq       = exp(mu_i / c) / S_q,   gamma_i = sigma_i / c
//   mu         += sigma'^2 / sigma_i^2 * omega_i
//   sigma      = sigma' sqrt(max(1 - sigma'^2 / sigma_i^2 * delta_i, kappa))
//
// Ranks: lower is better, equal ranks tie, only their order and equality count. The displayed
// rating is the ordinal mu - 3 sigma.

#include <span>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace kahve::rating {

// Sizes of the fixed scratch of RateInPlace; a larger match is InvalidArgument.
inline constexpr int kMaxTeams = 16;
inline constexpr int kMaxPlayers = 64;

struct Rating {
  double mu;
  double sigma;
};

// openskill's defaults. mu and sigma are a new player's prior; the rest drive every update.
struct ModelParams {
  double mu = 25.0;
  double sigma = 25.0 / 3.0;
  double beta = 25.0 / 6.0;   // performance noise per team
  double kappa = 1e-4;        // floor of the factor that shrinks sigma^2 in one match
  double tau = 25.0 / 300.0;  // skill drift, added to sigma in quadrature before each match
};

// The displayed rating, mu - 3 sigma: at about 99.9% confidence the skill is at least this.
double Ordinal(Rating rating);

// A never-rated player's rating: (params.mu, params.sigma).
Rating InitialRating(const ModelParams& params = ModelParams());

// Rates one match in place, allocating nothing. Player p belongs to team team_of[p] (players of a
// team need not be adjacent); team t finished at team_ranks[t] (lower is better, equal ranks tie);
// the number of teams is team_ranks.size(). InvalidArgument, with `ratings` unchanged, for: fewer
// than 2 or more than kMaxTeams teams, more than kMaxPlayers players, team_of not one entry per
// player or out of range, a team without players, a non-finite rank or mu, a sigma not finite and
// positive, bad params (beta > 0, tau >= 0, 0 < kappa <= 1), or ratings so far apart that the
// update is not finite.
absl::Status RateInPlace(std::span<Rating> ratings, std::span<const int> team_of,
                         std::span<const double> team_ranks,
                         const ModelParams& params = ModelParams());

// Rates one match of teams[t][k] (team t, its player k) and returns the new ratings in the same
// shape. ranks[t] is team t's place as in RateInPlace; empty means the teams are listed in
// finishing order without ties. InvalidArgument as RateInPlace, and for no teams or ranks of
// another size than teams.
absl::StatusOr<std::vector<std::vector<Rating>>> RateTeams(
    const std::vector<std::vector<Rating>>& teams, std::span<const double> ranks,
    const ModelParams& params = ModelParams());

// Ranks from scores (higher is better), competition style: 1 plus the number of strictly higher
// scores, so {10, 30, 10, -5} gives {2, 1, 2, 4}. InvalidArgument for a non-finite score.
absl::StatusOr<std::vector<double>> RanksFromScores(std::span<const double> scores);

}  // namespace kahve::rating

#endif  // KAHVE_SERVICES_RATING_OPENSKILL_H_

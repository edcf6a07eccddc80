// kahve-rating: the rating and match history service. See docs/configuration.md for every flag
// (each also read from KAHVE_<NAME>).

#include "services/rating/rating_process.h"

int main(int argc, char** argv) {
  return kahve::common::RunServiceMain(argc, argv, kahve::rating::kRatingService);
}

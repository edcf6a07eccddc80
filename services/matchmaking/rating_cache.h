#ifndef KAHVE_SERVICES_MATCHMAKING_RATING_CACHE_H_
#define KAHVE_SERVICES_MATCHMAKING_RATING_CACHE_H_

// Players' skill for matching: the rating service's display rating (mu - 3 sigma) and whether it
// is provisional, cached for a while so that a pass over a long queue does not ask for every
// player every second. Ratings move only when a game ends, so a minute-old value is good enough.

#include <map>
#include <memory>
#include <string>
#include <tuple>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"
#include "kahve/v1/rating.grpc.pb.h"

namespace kahve::matchmaking {

struct Skill {
  // A player never rated has the display rating of a fresh rating (25 - 3 * 25/3 = 0).
  double rating = 0;
  // True for players with few (or no) rated games: their window is wider.
  bool provisional = true;
};

class RatingCache {
 public:
  // `bearer`: the service's token for the rating service ("" sends none).
  RatingCache(std::shared_ptr<v1::RatingService::StubInterface> stub, std::string bearer,
              absl::Duration ttl);

  // One skill per player. When the rating service cannot answer, players not cached get the
  // defaults (provisional): matching goes on, only less precisely.
  std::map<std::string, Skill> Lookup(const std::vector<std::string>& players,
                                      const std::string& ruleset, v1::MatchMode mode,
                                      absl::Time now);

 private:
  struct Entry {
    Skill skill;
    absl::Time fetched;
  };
  using Key = std::tuple<std::string, std::string, int>;  // player, ruleset, mode

  std::shared_ptr<v1::RatingService::StubInterface> stub_;
  const std::string bearer_;
  const absl::Duration ttl_;
  absl::Mutex mu_;
  std::map<Key, Entry> cache_ ABSL_GUARDED_BY(mu_);
};

}  // namespace kahve::matchmaking

#endif  // KAHVE_SERVICES_MATCHMAKING_RATING_CACHE_H_

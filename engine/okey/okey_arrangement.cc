#include "engine/okey/okey_arrangement.h"

#include <algorithm>
#include <cstdint>
#include <vector>

namespace kahve::engine::okey {
namespace {

// What is left of a hand, packed: two bits of count per face (bits 2f and 2f+1), the wilds above
// them. The faces below the lowest one left are all empty, so the key alone names a subproblem,
// and laying a meld is one subtraction.
__extension__ typedef unsigned __int128 HandKey;
constexpr int kWildsBit = 2 * kFaces;
constexpr HandKey One(int face) { return HandKey{1} << (2 * face); }
constexpr HandKey Wilds(int wilds) { return static_cast<HandKey>(wilds) << kWildsBit; }
constexpr int CountOf(HandKey key, int face) { return static_cast<int>(key >> (2 * face)) & 3; }
constexpr int WildsOf(HandKey key) { return static_cast<int>(key >> kWildsBit) & 3; }
// The low bit of every face's pair.
constexpr HandKey kLowBits = [] {
  HandKey bits = 0;
  for (int face = 0; face < kFaces; ++face) bits |= One(face);
  return bits;
}();

// Best scores of subproblems, kept per thread and emptied in O(1) by a new generation per search.
// Small enough to stay in the first-level cache for a 15-tile hand; a search that finds a probe run
// full keeps that result uncached (slower, never wrong) and makes the next search's table twice as
// large, up to kMaxEntries (okey101's 22-tile hands reach a few thousand subproblems).
class Memo {
 public:
  void NewSearch() {
    if (overflowed_ && entries_.size() < kMaxEntries) {
      entries_.assign(entries_.size() * 2, Entry{});
      generation_ = 0;
    }
    overflowed_ = false;
    if (++generation_ == 0) {
      std::fill(entries_.begin(), entries_.end(), Entry{});
      generation_ = 1;
    }
  }
  const int* Find(const HandKey& key) const {
    const size_t mask = entries_.size() - 1;
    for (size_t probe = 0, slot = Slot(key); probe < kProbes; ++probe, slot = (slot + 1) & mask) {
      const Entry& entry = entries_[slot];
      if (entry.generation != generation_) return nullptr;
      if (entry.key == key) return &entry.score;
    }
    return nullptr;
  }
  void Store(const HandKey& key, int score) {
    const size_t mask = entries_.size() - 1;
    for (size_t probe = 0, slot = Slot(key); probe < kProbes; ++probe, slot = (slot + 1) & mask) {
      Entry& entry = entries_[slot];
      if (entry.generation != generation_) {
        entry = Entry{key, score, generation_};
        return;
      }
    }
    overflowed_ = true;
  }

 private:
  static constexpr size_t kFirstEntries = 1 << 10;
  static constexpr size_t kMaxEntries = 1 << 16;
  static constexpr size_t kProbes = 8;
  struct Entry {
    HandKey key;
    int score = 0;
    uint32_t generation = 0;
  };
  size_t Slot(const HandKey& key) const {
    const auto low = static_cast<uint64_t>(key);
    const auto high = static_cast<uint64_t>(key >> 64);
    const uint64_t mixed =
        low * 0x9E3779B97F4A7C15ULL ^ (high + 0x632BE59BD9B4E019ULL) * 0xBF58476D1CE4E5B9ULL;
    return static_cast<size_t>(mixed >> 40) & (entries_.size() - 1);
  }
  std::vector<Entry> entries_ = std::vector<Entry>(kFirstEntries);
  uint32_t generation_ = 0;
  bool overflowed_ = false;
};

Memo& ThreadMemo() {
  thread_local Memo memo;
  return memo;
}

// The best arrangement by dynamic programming over the lowest face left: it goes into each set
// and each run it can be the lowest real tile of, or stays loose. A meld scores its value and size
// weighted by the goal, so the best total is the goal's best arrangement.
class Search {
 public:
  Search(const FaceCounts& hand, ArrangementGoal goal) : goal_(goal), hand_(hand) {
    for (int face = 0; face < kFaces; ++face) key_ += One(face) * hand.count[face];
    key_ += Wilds(hand.wilds);
    memo_.NewSearch();
  }

  int BestScore() { return Best(0); }

  // Follows the choices that reach the best score.
  Arrangement Reconstruct() {
    Arrangement arrangement;
    arrangement.loose = hand_;
    for (int face = LowestFrom(0); face < kFaces; face = LowestFrom(face)) {
      const int target = Best(face);
      bool followed = false;
      ForEachOption(face, [&](const Meld* meld, HandKey used) {
        if (followed) return;
        key_ -= used;
        const int score = (meld == nullptr ? 0 : Score(*meld)) + Best(face);
        if (score != target) {
          key_ += used;
          return;
        }
        followed = true;
        if (meld == nullptr) return;
        arrangement.melds[arrangement.meld_count++] = *meld;
        arrangement.value += meld->Value();
        arrangement.tiles_in_melds += meld->Size();
        arrangement.loose.wilds -= meld->wilds;
        for (int f = 0; f < kFaces; ++f) arrangement.loose.count[f] -= CountOf(used, f);
      });
    }
    return arrangement;
  }

 private:
  int Score(const Meld& meld) const {
    // Sizes stay under 32 and values under 512, so neither part spills into the other.
    return goal_ == ArrangementGoal::kMostValue ? meld.Value() * 32 + meld.Size()
                                                : meld.Size() * 512 + meld.Value();
  }

  // The lowest face left at or above `from`, or kFaces.
  int LowestFrom(int from) const {
    HandKey left = (key_ | key_ >> 1) & kLowBits;
    left &= ~(One(from) - 1);
    const auto low = static_cast<uint64_t>(left);
    if (low != 0) return __builtin_ctzll(low) / 2;
    const auto high = static_cast<uint64_t>(left >> 64);
    return high == 0 ? kFaces : 32 + __builtin_ctzll(high) / 2;
  }

  int Best(int from) {
    const int face = LowestFrom(from);
    if (face == kFaces) return 0;
    if (const int* known = memo_.Find(key_)) return *known;
    int best = 0;
    ForEachOption(face, [&](const Meld* meld, HandKey used) {
      key_ -= used;
      best = std::max(best, (meld == nullptr ? 0 : Score(*meld)) + Best(face));
      key_ += used;
    });
    memo_.Store(key_, best);
    return best;
  }

  // Calls `visit(meld, tiles it uses)` with each meld `face` can be the lowest real tile of, then
  // `visit(nullptr, the tile)` for leaving it loose.
  template <typename Visit>
  void ForEachOption(int face, Visit visit) {
    const int colour = ColourOf(static_cast<Face>(face));
    const int number = NumberOf(static_cast<Face>(face));
    ForEachSet(face, colour, number, visit);
    ForEachRun(face, colour, number, visit);
    if (number == 1) ForEachRunEndingInHighOne(face, colour, visit);
    visit(nullptr, One(face));
  }

  // Sets of `number` holding `face`. The colours below it are used up (faces go in order), so
  // the others come from the colours above or from wilds; wilds fill a set only when every free
  // real colour is in it (see the header).
  template <typename Visit>
  void ForEachSet(int face, int colour, int number, Visit visit) {
    const int wilds_left = WildsOf(key_);
    uint8_t free_colours = 0;
    for (int other = colour + 1; other < kColours; ++other) {
      if (CountOf(key_, MakeFace(other, number)) > 0) {
        free_colours |= static_cast<uint8_t>(1u << other);
      }
    }
    for (uint8_t chosen = free_colours;;
         chosen = static_cast<uint8_t>((chosen - 1) & free_colours)) {
      const int reals = 1 + CountColours(chosen);
      HandKey used = One(face);
      for (int other = colour + 1; other < kColours; ++other) {
        if ((chosen >> other & 1u) != 0) used += One(MakeFace(other, number));
      }
      for (int size = std::max(3, reals); size <= kColours; ++size) {
        const int wilds = size - reals;
        if (wilds > wilds_left || (wilds > 0 && chosen != free_colours)) continue;
        Meld set{.kind = MeldKind::kSet, .number = number, .wilds = wilds};
        set.real_colours = static_cast<uint8_t>(chosen | (1u << colour));
        visit(&set, used + Wilds(wilds));
      }
      if (chosen == 0) break;
    }
  }

  // Runs whose lowest real tile is `face`: wilds may stand below it; above it each position takes
  // its real tile when one is free, else a wild. A run with a wild below `face` is offered only
  // when it reaches 13 or the high 1: any other could move that wild to just above its top, or
  // take the real tile there and keep the wild, as good in tiles and worth more (above 13 the wild
  // would be the high 1, worth 1, so there the wild below stays).
  template <typename Visit>
  void ForEachRun(int face, int colour, int number, Visit visit) {
    const int wilds_left = WildsOf(key_);
    for (int low = number; low >= std::max(1, number - wilds_left); --low) {
      Meld run{.kind = MeldKind::kRun, .colour = colour, .low = low, .high = number};
      run.wilds = number - low;
      for (int position = low; position < number; ++position) run.wild_positions |= Bit(position);
      HandKey used = One(face);
      for (;;) {
        if (run.Size() >= 3 && (low == number || run.high >= kNumbers)) {
          visit(&run, used + Wilds(run.wilds));
        }
        const int next = run.high + 1;
        if (next > kHighOne || (next == kHighOne && run.low == 1)) break;
        const Face next_face = run.FaceAt(next);
        if (CountOf(key_, next_face) > 0) {
          used += One(next_face);
        } else {
          if (run.wilds == wilds_left) break;
          run.wild_positions |= Bit(next);
          ++run.wilds;
        }
        run.high = next;
      }
    }
  }

  // Runs low..13 topped by the 1 `face` (12-13-1 and longer).
  template <typename Visit>
  void ForEachRunEndingInHighOne(int face, int colour, Visit visit) {
    const int wilds_left = WildsOf(key_);
    Meld run{.kind = MeldKind::kRun, .colour = colour, .low = kHighOne, .high = kHighOne};
    HandKey used = One(face);
    for (int low = kNumbers; low >= 2; --low) {
      const Face low_face = run.FaceAt(low);
      if (CountOf(key_, low_face) > 0) {
        used += One(low_face);
      } else {
        if (run.wilds == wilds_left) return;
        run.wild_positions |= Bit(low);
        ++run.wilds;
      }
      run.low = low;
      if (run.Size() >= 3) visit(&run, used + Wilds(run.wilds));
    }
  }

  static uint16_t Bit(int position) { return static_cast<uint16_t>(1u << position); }

  const ArrangementGoal goal_;
  const FaceCounts hand_;
  HandKey key_ = 0;
  // Looked up once: every access to a thread_local goes through its init check.
  Memo& memo_ = ThreadMemo();
};

}  // namespace

Arrangement BestArrangement(const FaceCounts& hand, ArrangementGoal goal) {
  Search search(hand, goal);
  search.BestScore();
  return search.Reconstruct();
}

std::optional<Arrangement> BestArrangementReaching(const FaceCounts& hand, int min_value) {
  Search search(hand, ArrangementGoal::kMostValue);
  // Scores are value * 32 + tiles (Search::Score); most hands fall short, and then nothing is
  // built.
  if (search.BestScore() / 32 < min_value) return std::nullopt;
  return search.Reconstruct();
}

bool InSomeMeld(const FaceCounts& hand, Face face) {
  const int colour = ColourOf(face);
  const int number = NumberOf(face);
  // A set: two more colours of the number, real or wild.
  int others = hand.wilds;
  for (int other = 0; other < kColours; ++other) {
    if (other != colour && hand.count[MakeFace(other, number)] > 0) ++others;
  }
  if (others >= 2) return true;
  // A run of three through the face's position (a 1 stands low or high).
  for (const int position : {number, number == 1 ? kHighOne : 0}) {
    if (position == 0) continue;
    for (int low = position - 2; low <= position; ++low) {
      if (low < 1 || low + 2 > kHighOne) continue;
      int missing = 0;
      for (int p = low; p <= low + 2; ++p) {
        if (p == position) continue;
        missing += hand.count[MakeFace(colour, p == kHighOne ? 1 : p)] > 0 ? 0 : 1;
      }
      if (missing <= hand.wilds) return true;
    }
  }
  return false;
}

bool FindCovering(const FaceCounts& hand, int loose_allowed, Arrangement* found) {
  Search search(hand, ArrangementGoal::kMostTiles);
  const int most_tiles = search.BestScore() / 512;
  if (hand.Total() - most_tiles > loose_allowed) return false;
  if (found != nullptr) *found = search.Reconstruct();
  return true;
}

int CountPairs(const FaceCounts& hand) {
  int pairs = 0;
  int singles = 0;
  for (const uint8_t n : hand.count) {
    pairs += n / 2;
    singles += n % 2;
  }
  const int wilds_with_singles = std::min(hand.wilds, singles);
  return pairs + wilds_with_singles + (hand.wilds - wilds_with_singles) / 2;
}

std::vector<std::array<Code, 2>> MaxPairs(const std::array<uint8_t, kCodes>& codes,
                                          const Jokers& jokers) {
  const Code okey = jokers.okey();
  std::vector<std::array<Code, 2>> pairs;
  std::vector<Code> singles;
  for (int c = 0; c < kCodes; ++c) {
    const Code code = static_cast<Code>(c);
    if (code == okey) continue;
    for (int i = 0; i + 1 < codes[code]; i += 2) pairs.push_back({code, code});
    if (codes[code] % 2 == 1) singles.push_back(code);
  }
  int wilds = codes[okey];
  // Highest first: a pair spends an okey best on a tile that would cost most when left.
  std::sort(singles.begin(), singles.end(),
            [](Code a, Code b) { return a % kNumbers > b % kNumbers; });
  for (size_t i = 0; i < singles.size() && wilds > 0; ++i, --wilds) {
    pairs.push_back({singles[i], okey});
  }
  if (wilds == 2) pairs.push_back({okey, okey});
  return pairs;
}

}  // namespace kahve::engine::okey

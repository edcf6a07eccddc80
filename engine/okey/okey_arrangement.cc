#include "engine/okey/okey_arrangement.h"

#include <algorithm>
#include <cstdint>
#include <vector>

namespace kahve::engine::okey {
namespace {

// What is left of a hand, as a key: two bits of count per face (faces 0..31 in `low`, 32..51 in
// `high`) and the wilds above them. The faces below the lowest one left are all empty, so the key
// alone names the subproblem.
struct HandKey {
  uint64_t low = 0;
  uint64_t high = 0;
  bool operator==(const HandKey&) const = default;
};
constexpr int kWildsShift = 2 * (kFaces - 32);

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
    const uint64_t mixed = key.low * 0x9E3779B97F4A7C15ULL ^
                           (key.high + 0x632BE59BD9B4E019ULL) * 0xBF58476D1CE4E5B9ULL;
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
    counts_ = hand.count;
    wilds_ = hand.wilds;
    for (int face = 0; face < kFaces; ++face) {
      Shift(face, counts_[face]);
      if (counts_[face] > 0) occupied_ |= uint64_t{1} << face;
    }
    key_.high += static_cast<uint64_t>(wilds_) << kWildsShift;
    memo_.NewSearch();
  }

  int BestScore() { return Best(0); }

  // Follows the choices that reach the best score.
  Arrangement Reconstruct() {
    Arrangement arrangement;
    arrangement.loose = hand_;
    int face = 0;
    for (;;) {
      face = LowestFrom(face);
      if (face == kFaces) return arrangement;
      const int target = Best(face);
      bool followed = false;
      ForEachOption(face, [&](const Meld* meld) {
        if (followed) return;
        if (meld == nullptr) {
          Take(face);
          if (Best(face) == target) {
            followed = true;
            return;
          }
          Give(face);
          return;
        }
        Lay(*meld, +1);
        if (Score(*meld) + Best(face) == target) {
          followed = true;
          arrangement.melds[arrangement.meld_count++] = *meld;
          arrangement.value += meld->Value();
          arrangement.tiles_in_melds += meld->Size();
          arrangement.loose.wilds -= meld->wilds;
          ForEachRealFace(*meld, [&](Face f) { --arrangement.loose.count[f]; });
          return;
        }
        Lay(*meld, -1);
      });
    }
  }

 private:
  int Score(const Meld& meld) const {
    // Sizes stay under 32 and values under 512, so neither part spills into the other.
    return goal_ == ArrangementGoal::kMostValue ? meld.Value() * 32 + meld.Size()
                                                : meld.Size() * 512 + meld.Value();
  }

  // The lowest face left at or above `from`, or kFaces.
  int LowestFrom(int from) const {
    const uint64_t above = occupied_ >> from << from;
    return above == 0 ? kFaces : __builtin_ctzll(above);
  }

  int Best(int from) {
    const int face = LowestFrom(from);
    if (face == kFaces) return 0;
    if (const int* known = memo_.Find(key_)) return *known;
    int best = 0;
    ForEachOption(face, [&](const Meld* meld) {
      if (meld == nullptr) {
        Take(face);
        best = std::max(best, Best(face));
        Give(face);
      } else {
        Lay(*meld, +1);
        best = std::max(best, Score(*meld) + Best(face));
        Lay(*meld, -1);
      }
    });
    memo_.Store(key_, best);
    return best;
  }

  // Calls `visit` with each meld `face` can be the lowest real tile of, then with nullptr for
  // leaving it loose.
  template <typename Visit>
  void ForEachOption(int face, Visit visit) {
    const int colour = ColourOf(static_cast<Face>(face));
    const int number = NumberOf(static_cast<Face>(face));
    ForEachSet(colour, number, visit);
    ForEachRun(colour, number, visit);
    if (number == 1) ForEachRunEndingInHighOne(colour, visit);
    visit(nullptr);
  }

  // Sets of `number` holding the `colour` tile. The colours below it are used up (faces go in
  // order), so the others come from the colours above or from wilds; wilds fill a set only when
  // every free real colour is in it (see the header).
  template <typename Visit>
  void ForEachSet(int colour, int number, Visit visit) {
    uint8_t free_colours = 0;
    for (int other = colour + 1; other < kColours; ++other) {
      if (counts_[MakeFace(other, number)] > 0) free_colours |= static_cast<uint8_t>(1u << other);
    }
    for (uint8_t chosen = free_colours;;
         chosen = static_cast<uint8_t>((chosen - 1) & free_colours)) {
      const int reals = 1 + CountColours(chosen);
      for (int size = std::max(3, reals); size <= kColours; ++size) {
        const int wilds = size - reals;
        if (wilds > wilds_ || (wilds > 0 && chosen != free_colours)) continue;
        Meld set{.kind = MeldKind::kSet, .number = number, .wilds = wilds};
        set.real_colours = static_cast<uint8_t>(chosen | (1u << colour));
        visit(&set);
      }
      if (chosen == 0) break;
    }
  }

  // Runs whose lowest real tile is (`colour`, `number`): wilds may stand below it; above it each
  // position takes its real tile when one is free, else a wild.
  template <typename Visit>
  void ForEachRun(int colour, int number, Visit visit) {
    for (int low = number; low >= std::max(1, number - wilds_); --low) {
      Meld run{.kind = MeldKind::kRun, .colour = colour, .low = low, .high = number};
      run.wilds = number - low;
      for (int position = low; position < number; ++position) run.wild_positions |= Bit(position);
      for (;;) {
        if (run.Size() >= 3) visit(&run);
        const int next = run.high + 1;
        if (next > kHighOne || (next == kHighOne && run.low == 1)) break;
        if (counts_[run.FaceAt(next)] == 0) {
          if (run.wilds == wilds_) break;
          run.wild_positions |= Bit(next);
          ++run.wilds;
        }
        run.high = next;
      }
    }
  }

  // Runs low..13 topped by the `colour` 1 (12-13-1 and longer).
  template <typename Visit>
  void ForEachRunEndingInHighOne(int colour, Visit visit) {
    Meld run{.kind = MeldKind::kRun, .colour = colour, .low = kHighOne, .high = kHighOne};
    for (int low = kNumbers; low >= 2; --low) {
      if (counts_[run.FaceAt(low)] == 0) {
        if (run.wilds == wilds_) return;
        run.wild_positions |= Bit(low);
        ++run.wilds;
      }
      run.low = low;
      if (run.Size() >= 3) visit(&run);
    }
  }

  static uint16_t Bit(int position) { return static_cast<uint16_t>(1u << position); }

  template <typename Fn>
  static void ForEachRealFace(const Meld& meld, Fn fn) {
    if (meld.kind == MeldKind::kSet) {
      for (int colour = 0; colour < kColours; ++colour) {
        if ((meld.real_colours >> colour & 1u) != 0) fn(MakeFace(colour, meld.number));
      }
      return;
    }
    for (int position = meld.low; position <= meld.high; ++position) {
      if ((meld.wild_positions >> position & 1u) == 0) fn(meld.FaceAt(position));
    }
  }

  void Shift(int face, int delta) {
    const int bit = 2 * (face < 32 ? face : face - 32);
    uint64_t& word = face < 32 ? key_.low : key_.high;
    if (delta >= 0) {
      word += static_cast<uint64_t>(delta) << bit;
    } else {
      word -= static_cast<uint64_t>(-delta) << bit;
    }
  }
  void Take(int face) {
    if (--counts_[face] == 0) occupied_ &= ~(uint64_t{1} << face);
    Shift(face, -1);
  }
  void Give(int face) {
    ++counts_[face];
    occupied_ |= uint64_t{1} << face;
    Shift(face, +1);
  }
  // Takes the meld's tiles out of the hand (direction +1) or puts them back (-1).
  void Lay(const Meld& meld, int direction) {
    ForEachRealFace(meld, [&](Face f) { direction > 0 ? Take(f) : Give(f); });
    wilds_ -= direction * meld.wilds;
    if (direction > 0) {
      key_.high -= static_cast<uint64_t>(meld.wilds) << kWildsShift;
    } else {
      key_.high += static_cast<uint64_t>(meld.wilds) << kWildsShift;
    }
  }

  const ArrangementGoal goal_;
  const FaceCounts hand_;
  std::array<uint8_t, kFaces> counts_;
  int wilds_ = 0;
  // Bit f set while face f has a tile left: the next face to place is its lowest bit.
  uint64_t occupied_ = 0;
  HandKey key_;
  // Looked up once: every access to a thread_local goes through its init check.
  Memo& memo_ = ThreadMemo();
};

}  // namespace

Arrangement BestArrangement(const FaceCounts& hand, ArrangementGoal goal) {
  Search search(hand, goal);
  search.BestScore();
  return search.Reconstruct();
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

}  // namespace kahve::engine::okey

#ifndef KAHVE_ENGINE_CORE_RNG_H_
#define KAHVE_ENGINE_CORE_RNG_H_

#include <array>
#include <cstdint>
#include <utility>

namespace kahve::engine {

// Mixes a 64-bit value (SplitMix64's finalizer). Used to expand seeds and derive independent
// streams.
constexpr uint64_t Mix64(uint64_t x) {
  x += 0x9E3779B97F4A7C15ULL;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
  return x ^ (x >> 31);
}

// A seed for stream `index` of `seed`: game i of a simulation, the bot of seat s, ...
constexpr uint64_t DeriveSeed(uint64_t seed, uint64_t index) {
  return Mix64(seed ^ Mix64(index + 0x6A09E667F3BCC909ULL));
}

// xoshiro256** (Blackman and Vigna), seeded through SplitMix64. Every draw below is defined here,
// bit for bit, so a seed gives the same deals and rolls on every compiler and standard library;
// std::shuffle and std::uniform_int_distribution are not portable in that sense and are never used.
class Rng {
 public:
  explicit Rng(uint64_t seed = 0) { Reseed(seed); }

  // A generator in a given raw state (tests against the reference vectors).
  static Rng FromState(const std::array<uint64_t, 4>& state) {
    Rng rng;
    for (int i = 0; i < 4; ++i) rng.s_[i] = state[i];
    return rng;
  }

  // The state is four consecutive SplitMix64 outputs of the seed, as the xoshiro authors advise.
  void Reseed(uint64_t seed) {
    for (int i = 0; i < 4; ++i)
      s_[i] = Mix64(seed + static_cast<uint64_t>(i) * 0x9E3779B97F4A7C15ULL);
  }

  uint64_t Next() {
    const uint64_t result = Rotl(s_[1] * 5, 7) * 9;
    const uint64_t t = s_[1] << 17;
    s_[2] ^= s_[0];
    s_[3] ^= s_[1];
    s_[1] ^= s_[2];
    s_[0] ^= s_[3];
    s_[2] ^= t;
    s_[3] = Rotl(s_[3], 45);
    return result;
  }

  // Uniform in [0, bound), bound >= 1. Lemire's multiply-and-reject: unbiased, usually one draw.
  uint32_t Below(uint32_t bound) {
    uint64_t product = (Next() >> 32) * bound;
    uint32_t low = static_cast<uint32_t>(product);
    if (low < bound) {
      const uint32_t threshold = static_cast<uint32_t>(-bound) % bound;
      while (low < threshold) {
        product = (Next() >> 32) * bound;
        low = static_cast<uint32_t>(product);
      }
    }
    return static_cast<uint32_t>(product >> 32);
  }

  // A fair six-sided die: 1..6.
  int RollDie() { return static_cast<int>(Below(6)) + 1; }

  // Uniform in [0, 1) with 53 random bits.
  double Unit() { return static_cast<double>(Next() >> 11) * 0x1.0p-53; }

  // Fisher-Yates from the back: position i swaps with a uniform j in [0, i].
  template <typename T>
  void Shuffle(T* items, uint32_t count) {
    for (uint32_t i = count; i > 1; --i) {
      const uint32_t j = Below(i);
      std::swap(items[i - 1], items[j]);
    }
  }

  bool operator==(const Rng& other) const {
    return s_[0] == other.s_[0] && s_[1] == other.s_[1] && s_[2] == other.s_[2] &&
           s_[3] == other.s_[3];
  }

 private:
  static constexpr uint64_t Rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
  uint64_t s_[4];
};

}  // namespace kahve::engine

#endif  // KAHVE_ENGINE_CORE_RNG_H_

#include "engine/okey/okey_tiles.h"

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"

namespace kahve::engine::okey {
namespace {

constexpr std::string_view kColourLetters = "RBKY";

}  // namespace

std::string FaceName(Face face) {
  return absl::StrCat(std::string(1, kColourLetters[ColourOf(face)]), NumberOf(face));
}

std::optional<Face> ParseFace(std::string_view name) {
  if (name.size() < 2 || name.size() > 3) return std::nullopt;
  const size_t colour = kColourLetters.find(name[0]);
  if (colour == std::string_view::npos) return std::nullopt;
  // Digits only: SimpleAtoi would also take a sign or spaces.
  for (const char c : name.substr(1)) {
    if (c < '0' || c > '9') return std::nullopt;
  }
  if (name[1] == '0') return std::nullopt;
  int number = 0;
  if (!absl::SimpleAtoi(absl::string_view(name.data() + 1, name.size() - 1), &number) ||
      number < 1 || number > kNumbers) {
    return std::nullopt;
  }
  return MakeFace(static_cast<int>(colour), number);
}

std::string TileName(Tile tile) { return CodeName(CodeOf(tile)); }

std::optional<Tile> TakeCode(std::vector<Tile>& hand, Code code) {
  for (auto it = hand.begin(); it != hand.end(); ++it) {
    if (CodeOf(*it) == code) {
      const Tile tile = *it;
      hand.erase(it);
      return tile;
    }
  }
  return std::nullopt;
}

std::array<uint8_t, kCodes> CountCodes(std::span<const Tile> tiles) {
  std::array<uint8_t, kCodes> counts{};
  for (const Tile tile : tiles) ++counts[CodeOf(tile)];
  return counts;
}

std::optional<Code> ParseCode(std::string_view name) {
  if (name == "F") return kFakeCode;
  const std::optional<Face> face = ParseFace(name);
  if (!face.has_value()) return std::nullopt;
  return static_cast<Code>(*face);
}

std::string CodeName(Code code) { return code == kFakeCode ? std::string("F") : FaceName(code); }

int FaceCounts::Total() const {
  int total = wilds;
  for (const uint8_t n : count) total += n;
  return total;
}

void FaceCounts::Add(Tile tile, const Jokers& jokers) {
  if (jokers.IsWild(tile)) {
    ++wilds;
  } else {
    ++count[jokers.PlaysAs(tile)];
  }
}

}  // namespace kahve::engine::okey

#ifndef KAHVE_ENGINE_OKEY_OKEY_TILES_H_
#define KAHVE_ENGINE_OKEY_OKEY_TILES_H_

// The 106 okey tiles shared by okey, okey101 and okey51 (RULES.md "Okey tiles"): four colours,
// numbers 1..13, two of each, and two fake okeys. The indicator names the okey (same colour,
// number + 1, 13 -> 1); the two real okeys are wild; a fake okey plays only as the okey's face.
//
// Two small integer ids: a Face is what a numbered tile shows (colour and number, 52 of them),
// a Tile is one physical tile (106), so every tile can be accounted for.

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace kahve::engine::okey {

inline constexpr int kColours = 4;
inline constexpr int kNumbers = 13;
inline constexpr int kFaces = kColours * kNumbers;
inline constexpr int kTiles = kFaces * 2 + 2;
// In a run the number 1 may stand above 13 (12-13-1); it is then at position kHighOne.
inline constexpr int kHighOne = 14;

// Red, blue, black, yellow: the letters R, B, K, Y of tile names.
enum Colour : uint8_t { kRed, kBlue, kBlack, kYellow };

// colour * 13 + number - 1.
using Face = uint8_t;
constexpr Face MakeFace(int colour, int number) {
  return static_cast<Face>(colour * kNumbers + number - 1);
}
constexpr int ColourOf(Face face) { return face / kNumbers; }
constexpr int NumberOf(Face face) { return face % kNumbers + 1; }

// Colours in a mask of one bit per colour (std::popcount is a library call without -mpopcnt).
constexpr int CountColours(uint8_t mask) {
  constexpr int kCounts[16] = {0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4};
  return kCounts[mask & 0xf];
}

// face * 2 + copy for the 104 numbered tiles; 104 and 105 are the fake okeys.
using Tile = uint8_t;
inline constexpr Tile kFirstFakeOkey = kFaces * 2;
constexpr bool IsFakeOkey(Tile tile) { return tile >= kFirstFakeOkey; }
// The face a numbered tile shows (not for fake okeys).
constexpr Face PrintedFace(Tile tile) { return static_cast<Face>(tile / 2); }

// The okey of a deal, from its indicator's face: same colour, number + 1, 13 -> 1.
constexpr Face OkeyFaceFor(Face indicator) {
  return MakeFace(ColourOf(indicator), NumberOf(indicator) % kNumbers + 1);
}

// What the okey of a deal makes of each tile.
class Jokers {
 public:
  explicit constexpr Jokers(Face okey) : okey_(okey) {}
  constexpr Face okey() const { return okey_; }
  // The two real okeys: wild, standing for any one tile.
  constexpr bool IsWild(Tile tile) const { return !IsFakeOkey(tile) && PrintedFace(tile) == okey_; }
  // The face a non-wild tile plays as: its own, or for a fake okey the okey's.
  constexpr Face PlaysAs(Tile tile) const { return IsFakeOkey(tile) ? okey_ : PrintedFace(tile); }

 private:
  Face okey_;
};

// What a player names: a face as printed (0..51) or kFakeCode. The two copies of a face are not
// told apart, so moves, views and events speak in codes, never in Tiles.
using Code = uint8_t;
inline constexpr Code kFakeCode = kFaces;
inline constexpr int kCodes = kFaces + 1;
constexpr Code CodeOf(Tile tile) { return IsFakeOkey(tile) ? kFakeCode : PrintedFace(tile); }
// A tile with that code (the first copy), for the checks that look only at what a tile shows.
constexpr Tile SampleTile(Code code) {
  return code == kFakeCode ? kFirstFakeOkey : static_cast<Tile>(code * 2);
}
// The code of a non-wild tile that plays as `face`: the fake okey for the okey's face (its real
// tiles are the wilds), else the face itself.
constexpr Code CodePlayingAs(Face face, const Jokers& jokers) {
  return face == jokers.okey() ? kFakeCode : face;
}

// Takes a tile of `code` out of `hand` (the first such); nullopt if it holds none.
std::optional<Tile> TakeCode(std::vector<Tile>& hand, Code code);

// How many tiles of each code `tiles` holds.
std::array<uint8_t, kCodes> CountCodes(std::span<const Tile> tiles);

// "R5", "K13", "Y1"; Parse accepts the same.
std::string FaceName(Face face);
std::optional<Face> ParseFace(std::string_view name);
// A tile's face name, or "F" for a fake okey (copies are not named: clients see faces).
std::string TileName(Tile tile);
// "R5", "K13", "F"; nullopt for anything else.
std::optional<Code> ParseCode(std::string_view name);
std::string CodeName(Code code);

// Tiles by face: how many of each face a hand holds, plus its wild okeys. A fake okey counts as
// the okey's face (what it plays as); a real okey counts as a wild, not under its face.
struct FaceCounts {
  std::array<uint8_t, kFaces> count{};
  int wilds = 0;

  int Total() const;
  void Add(Tile tile, const Jokers& jokers);
};

}  // namespace kahve::engine::okey

#endif  // KAHVE_ENGINE_OKEY_OKEY_TILES_H_

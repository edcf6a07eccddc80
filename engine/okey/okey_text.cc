#include "engine/okey/okey_text.h"

#include <algorithm>
#include <array>
#include <optional>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "engine/core/ruleset_text.h"
#include "engine/okey/okey_tiles.h"

namespace kahve::engine::okey {
namespace {

std::string Placed(const v1::OkeyPlacedTile& tile) {
  return tile.stands_for().empty() ? tile.tile()
                                   : absl::StrCat(tile.tile(), "=", tile.stands_for());
}

const char* KindText(v1::OkeyMeldKind kind) {
  switch (kind) {
    case v1::OKEY_RUN:
      return "run";
    case v1::OKEY_SET:
      return "set";
    case v1::OKEY_PAIR:
      return "pair";
    default:
      return "meld";
  }
}

const char* PlaceText(v1::OkeyPlace place) {
  switch (place) {
    case v1::OKEY_PLACE_RUN_LOW:
      return "at its low end";
    case v1::OKEY_PLACE_RUN_HIGH:
      return "at its high end";
    case v1::OKEY_PLACE_SET_COLOUR:
      return "as the missing colour";
    case v1::OKEY_PLACE_REPLACE_OKEY:
      return "in place of its okey";
    default:
      return "at no place";
  }
}

}  // namespace

std::string TilesText(const google::protobuf::RepeatedPtrField<std::string>& tiles) {
  return tiles.empty() ? std::string("-") : absl::StrJoin(tiles, " ");
}

std::string HandText(const google::protobuf::RepeatedPtrField<std::string>& hand) {
  // One group per colour letter (okey_tiles.h names them), numbers ascending, fake okeys last.
  std::array<std::vector<int>, kColours> numbers;
  int fakes = 0;
  std::vector<std::string> unknown;
  for (const std::string& name : hand) {
    const std::optional<Code> code = ParseCode(name);
    if (!code.has_value()) {
      unknown.push_back(name);
    } else if (*code == kFakeCode) {
      ++fakes;
    } else {
      numbers[ColourOf(*code)].push_back(NumberOf(*code));
    }
  }
  std::vector<std::string> groups;
  for (int colour = 0; colour < kColours; ++colour) {
    if (numbers[colour].empty()) continue;
    std::sort(numbers[colour].begin(), numbers[colour].end());
    // The colour's letter is the first letter of any of its face names.
    const std::string letter = FaceName(MakeFace(colour, 1)).substr(0, 1);
    groups.push_back(absl::StrCat(letter, " ", absl::StrJoin(numbers[colour], " ")));
  }
  for (int i = 0; i < fakes; ++i) groups.push_back(CodeName(kFakeCode));
  for (const std::string& name : unknown) groups.push_back(name);
  return absl::StrCat(absl::StrJoin(groups, " / "), " (", Counted(hand.size(), "tile"), ")");
}

std::string MeldText(const v1::OkeyMeld& meld) {
  std::vector<std::string> tiles;
  for (const v1::OkeyPlacedTile& tile : meld.tiles()) tiles.push_back(Placed(tile));
  return absl::StrJoin(tiles, " ");
}

std::string PairText(const v1::OkeyPair& pair) {
  return absl::StrCat(pair.first(), " ", pair.second());
}

std::string TableMeldText(const v1::OkeyTableMeld& meld) {
  std::vector<std::string> tiles;
  for (const v1::OkeyPlacedTile& tile : meld.tiles()) tiles.push_back(Placed(tile));
  return absl::StrCat("#", meld.index(), " ", KindText(meld.kind()), " ", absl::StrJoin(tiles, " "),
                      " (", SeatText(meld.owner()), "'s, ", meld.value(), ")");
}

std::string AdditionText(const v1::OkeyAddition& addition) {
  return absl::StrCat(addition.tile(), " to meld #", addition.meld(), ", ",
                      PlaceText(addition.place()));
}

std::string IndicatorText(const std::string& indicator, const std::string& okey) {
  return absl::StrCat("indicator ", indicator, ", okey ", okey);
}

}  // namespace kahve::engine::okey

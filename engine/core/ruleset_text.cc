#include "engine/core/ruleset_text.h"

#include "absl/strings/str_cat.h"

namespace kahve::engine {

std::string SeatText(int seat) { return seat < 0 ? "nobody" : absl::StrCat("seat ", seat); }

std::string PerSeatText(const google::protobuf::RepeatedField<int32_t>& values) {
  std::string text;
  for (int seat = 0; seat < values.size(); ++seat) {
    absl::StrAppend(&text, seat == 0 ? "" : " ", seat, ":", values[seat]);
  }
  return text;
}

std::string Counted(int count, const std::string& noun) {
  return absl::StrCat(count, " ", noun, count == 1 ? "" : "s");
}

}  // namespace kahve::engine

#include "services/common/pg_arrays.h"

#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"

namespace kahve::common {

std::string TextArrayLiteral(const std::vector<std::string>& items) {
  std::string literal = "{";
  for (size_t i = 0; i < items.size(); ++i) {
    if (i > 0) literal.push_back(',');
    literal.push_back('"');
    for (const char c : items[i]) {
      if (c == '"' || c == '\\') literal.push_back('\\');
      literal.push_back(c);
    }
    literal.push_back('"');
  }
  literal.push_back('}');
  return literal;
}

std::string HexArrayLiteral(const std::vector<const std::string*>& items) {
  std::string literal = "{";
  for (size_t i = 0; i < items.size(); ++i) {
    if (i > 0) literal.push_back(',');
    absl::StrAppend(&literal, "\"", absl::BytesToHexString(*items[i]), "\"");
  }
  literal.push_back('}');
  return literal;
}

std::string Int64ArrayLiteral(const std::vector<int64_t>& items) {
  std::string literal = "{";
  for (size_t i = 0; i < items.size(); ++i) {
    if (i > 0) literal.push_back(',');
    absl::StrAppend(&literal, items[i]);
  }
  literal.push_back('}');
  return literal;
}

std::string BoolArrayLiteral(const std::vector<bool>& items) {
  std::string literal = "{";
  for (size_t i = 0; i < items.size(); ++i) {
    if (i > 0) literal.push_back(',');
    literal.push_back(items[i] ? 't' : 'f');
  }
  literal.push_back('}');
  return literal;
}

}  // namespace kahve::common

#ifndef KAHVE_SERVICES_RATING_PG_VALUES_H_
#define KAHVE_SERVICES_RATING_PG_VALUES_H_

// How the rating service's values travel to and from PostgreSQL as text parameters: array
// literals, bytea in hex form, doubles at full precision, stored match records.

#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "kahve/v1/rating.pb.h"
#include "pqxx/pqxx"
#include "services/common/pg_arrays.h"

namespace kahve::rating {

using common::TextArrayLiteral;

// A double printed so that PostgreSQL reads back the same value.
std::string Number(double value);

// A PostgreSQL array literal of items printed by `format` (numbers and booleans need no quotes).
template <typename T, typename Format>
std::string ArrayLiteral(const std::vector<T>& items, Format format) {
  std::vector<std::string> parts;
  parts.reserve(items.size());
  for (const T& item : items) parts.push_back(format(item));
  return absl::StrCat("{", absl::StrJoin(parts, ","), "}");
}

// Bytes as lowercase hex, for decode(value, 'hex') on the server.
std::string Hex(const std::string& bytes);

// A stored kahve.v1.MatchRecord; DataLoss when unreadable.
absl::Status ParseRecord(const pqxx::field& field, v1::MatchRecord* record);

// The answer RecordMatch gives for a stored record.
v1::RecordMatchResponse ResponseOf(const v1::MatchRecord& record);

}  // namespace kahve::rating

#endif  // KAHVE_SERVICES_RATING_PG_VALUES_H_

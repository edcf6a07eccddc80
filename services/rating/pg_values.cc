#include "services/rating/pg_values.h"

#include "absl/strings/escaping.h"
#include "absl/strings/str_format.h"

namespace kahve::rating {

std::string Number(double value) { return absl::StrFormat("%.17g", value); }

std::string Hex(const std::string& bytes) { return absl::BytesToHexString(bytes); }

absl::Status ParseRecord(const pqxx::field& field, v1::MatchRecord* record) {
  const pqxx::binarystring bytes(field);
  if (!record->ParseFromArray(bytes.data(), static_cast<int>(bytes.size())))
    return absl::DataLossError("stored match record unreadable");
  return absl::OkStatus();
}

v1::RecordMatchResponse ResponseOf(const v1::MatchRecord& record) {
  v1::RecordMatchResponse response;
  response.set_match_id(record.match_id());
  response.set_rated(record.rated());
  *response.mutable_changes() = record.changes();
  return response;
}

}  // namespace kahve::rating

#include "services/table/hints_compat.h"

#include <string>

#include "google/protobuf/unknown_field_set.h"

namespace kahve::table {

void SendOkeyHintsToEarlierClients(v1::GetHintsResponse& response) {
  const v1::Hints& hints = response.hints();
  const v1::OkeyHints* okey = nullptr;
  int own_field = 0;
  if (hints.has_okey51()) {
    okey = &hints.okey51();
    own_field = v1::Hints::kOkey51FieldNumber;
  } else if (hints.has_okey101()) {
    okey = &hints.okey101();
    own_field = v1::Hints::kOkey101FieldNumber;
  } else {
    return;
  }
  const std::string payload = okey->SerializeAsString();
  // Hints.okey first: of two members of a oneof on the wire, a parser keeps the later.
  google::protobuf::UnknownFieldSet wire_hints;
  wire_hints.AddLengthDelimited(v1::Hints::kOkeyFieldNumber, payload);
  wire_hints.AddLengthDelimited(own_field, payload);
  std::string bytes;
  wire_hints.SerializeToString(&bytes);
  response.clear_hints();
  response.GetReflection()->MutableUnknownFields(&response)->AddLengthDelimited(
      v1::GetHintsResponse::kHintsFieldNumber, bytes);
}

}  // namespace kahve::table

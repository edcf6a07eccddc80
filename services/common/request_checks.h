#ifndef KAHVE_SERVICES_COMMON_REQUEST_CHECKS_H_
#define KAHVE_SERVICES_COMMON_REQUEST_CHECKS_H_

// The one check of every string a client sends, run by every handler of every service before it
// looks anything up (docs/operations.md, "Untrusted input"). A string that reaches a lookup, the
// database or a log has passed it: no NUL (PostgreSQL's text parameters end at one), no control
// characters, bounded length, and identifiers from a fixed charset. The rule a field follows
// comes from its name, so a field added to kahve.v1 is checked without a line here.
//
// Needs only protobuf reflection (no gRPC), so the fuzz targets link it alone.

#include <cstddef>
#include <string_view>

#include "absl/status/status.h"
#include "google/protobuf/message.h"

namespace kahve::common {

// Identifiers (ids, request ids, invite codes): [A-Za-z0-9._:-], at most this long.
inline constexpr size_t kMaxIdentifierLength = 128;
// Opaque tokens the server issued (seat tokens, page tokens): URL-safe base64, at most this long.
inline constexpr size_t kMaxTokenLength = 512;
// Player ids (chosen by the identity provider): printable text, at most this long.
inline constexpr size_t kMaxPlayerIdLength = 128;
// Any other string (tile names, ruleset names, bot kinds): printable text, at most this long.
inline constexpr size_t kMaxTextLength = 256;

// Which rule a string field follows.
enum class StringRule { kIdentifier, kToken, kPlayerId, kText };

// The rule of the field named `name` (the proto field name, e.g. "table_id").
StringRule RuleForField(std::string_view name);

// Whether `value` satisfies `rule` (an empty value satisfies every rule: whether a field is
// required is the handler's business).
bool Satisfies(StringRule rule, std::string_view value);

// Printable: valid as text in a log line or an error, with no NUL or other control character
// (UTF-8 beyond ASCII is allowed).
bool IsPrintable(std::string_view value);

// INVALID_ARGUMENT naming the first string field (as a path, "seats[1].player_id") that breaks
// its rule, and the rule; OK when every string in `request`, nested messages included, holds.
// The message never repeats the value: it may be megabytes long, or hostile.
absl::Status CheckRequestStrings(const google::protobuf::Message& request);

}  // namespace kahve::common

#endif  // KAHVE_SERVICES_COMMON_REQUEST_CHECKS_H_

#ifndef KAHVE_SERVICES_TABLE_SEAT_TOKENS_H_
#define KAHVE_SERVICES_TABLE_SEAT_TOKENS_H_

// Seat tokens: the secrets that bind a player to a seat. The table keeps only their SHA-256, so a
// leaked log or database row cannot be used to take a seat.

#include <string>
#include <string_view>

namespace kahve::table {

// A fresh token: 32 bytes from OpenSSL's CSPRNG in unpadded base64url (43 characters).
// Empty only if the CSPRNG fails; callers refuse to create the table then.
std::string NewSeatToken();

// The token of `seat` at `table_id`, derived from the host's secret `key` (HMAC-SHA256, base64url):
// a retried CreateTable hands out the same tokens again, without any token being stored.
std::string DerivedSeatToken(std::string_view key, std::string_view table_id, int seat);

// The stored form of a token: SHA-256 in lowercase hex (64 characters).
std::string SeatTokenSha256(std::string_view token);

// Whether two digests are equal, in time that depends only on their lengths, so a wrong token
// learns nothing from how long the comparison took.
bool SameDigest(std::string_view a, std::string_view b);

}  // namespace kahve::table

#endif  // KAHVE_SERVICES_TABLE_SEAT_TOKENS_H_

#ifndef KAHVE_SERVICES_COMMON_PG_ARRAYS_H_
#define KAHVE_SERVICES_COMMON_PG_ARRAYS_H_

// PostgreSQL array literals for libpqxx 6.4, which cannot bind a std::vector: a batch of rows goes
// to the server as a few array parameters that one statement unnests, so a batch of any size costs
// one round trip per statement.

#include <cstdint>
#include <string>
#include <vector>

namespace kahve::common {

// The database's clock in microseconds since the Unix epoch, for SQL text. clock_timestamp(), not
// now(): now() is frozen at the start of the transaction.
inline constexpr char kNowUsSql[] = "(extract(epoch FROM clock_timestamp()) * 1000000)::bigint";

// {"a","b\"c"}: every element quoted and escaped, for a text[] parameter.
std::string TextArrayLiteral(const std::vector<std::string>& items);

// {"0a1b",""}: each element's bytes in hex, for a text[] parameter the statement turns back into
// bytea with decode(x, 'hex'). Hex needs no escaping and survives any byte, NUL included.
std::string HexArrayLiteral(const std::vector<const std::string*>& items);

// {1,-2,3}, for a bigint[] parameter.
std::string Int64ArrayLiteral(const std::vector<int64_t>& items);

// {t,f}, for a boolean[] parameter.
std::string BoolArrayLiteral(const std::vector<bool>& items);

}  // namespace kahve::common

#endif  // KAHVE_SERVICES_COMMON_PG_ARRAYS_H_

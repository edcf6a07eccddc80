#ifndef KAHVE_SERVICES_TABLE_TABLE_CREATION_H_
#define KAHVE_SERVICES_TABLE_TABLE_CREATION_H_

// What a new table is made of, before any host holds it: its id, its creation entry (seq 0 of
// its log: the deal's seed, salt and commitment, the seat tokens' hashes), the answer its creator
// gets, and the table request behind a practice table. No server, no database.

#include <string>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "kahve/v1/table.pb.h"
#include "services/common/auth.h"
#include "services/table/table_session.h"

namespace kahve::table {

// A new table id: "t-" and 24 random hex digits; "" when there is no randomness.
std::string NewTableId();

// The creation entry of table `table_id` for `request`, at `now`. The seed is the request's (or
// its preset deal's), else drawn; the salt is drawn and the commitment published from the start
// (docs/fairness.md). Seat tokens derive from `seat_token_key`; only their hashes are stored.
absl::StatusOr<v1::TableLogEntry> CreationEntry(const v1::CreateTableRequest& request,
                                                bool practice, const std::string& table_id,
                                                const std::string& seat_token_key, absl::Time now);

// What CreateTable answers for `table_id`: its seats, with tokens for the human ones.
v1::CreateTableResponse CreateAnswer(const std::string& seat_token_key, const std::string& table_id,
                                     const TableSession& session);

// The table a practice table is: `caller` at the seats asked for, bots of the kind asked for
// (the ruleset's takeover bot by default) at the others, under a match id made from the caller
// and the request id (so a retry finds the same table; random without a request id).
// INVALID_ARGUMENT naming the field for settings, seats or a bot kind the game does not have.
absl::StatusOr<v1::CreateTableRequest> PracticeTableRequest(
    const common::Identity& caller, const v1::CreatePracticeTableRequest& request);

}  // namespace kahve::table

#endif  // KAHVE_SERVICES_TABLE_TABLE_CREATION_H_

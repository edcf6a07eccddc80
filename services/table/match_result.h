#ifndef KAHVE_SERVICES_TABLE_MATCH_RESULT_H_
#define KAHVE_SERVICES_TABLE_MATCH_RESULT_H_

// The result of a finished table as the rating service records it.

#include <string>

#include "absl/time/time.h"
#include "kahve/v1/rating.pb.h"
#include "services/table/table_session.h"

namespace kahve::table {

// RecordMatch's request for a finished game: every seat with its rank, score and team; bot seats
// marked bot; resigned seats and seats away at the end marked abandoned; seats mostly played by
// the bot marked so. TEAMS when any two seats share a team.
v1::RecordMatchRequest MatchResultOf(const TableSession& session, const std::string& ruleset,
                                     absl::Time started, absl::Time ended);

// A stable fingerprint of what makes a table (match id, settings, options, seats): a CreateTable
// retry with the same fingerprint gets the same table.
std::string CreateFingerprint(const std::string& match_id, const v1::GameSettings& settings,
                              const v1::TableOptions& options,
                              const google::protobuf::RepeatedPtrField<v1::SeatSpec>& seats);

}  // namespace kahve::table

#endif  // KAHVE_SERVICES_TABLE_MATCH_RESULT_H_

#ifndef KAHVE_SERVICES_TABLE_HINTS_COMPAT_H_
#define KAHVE_SERVICES_TABLE_HINTS_COMPAT_H_

// GetHints' answer for clients built on any version of the contract. okey51's and okey101's hints
// moved from Hints.okey to Hints.okey51 and Hints.okey101 (CHANGELOG.md, 0.2.0); a client built on
// the earlier protos reads Hints.okey and would find it empty. Hints is a oneof, so one message
// cannot hold both fields, but its wire form can: a parser keeps the last oneof member it reads,
// and one that does not know a field number skips it.

#include "kahve/v1/table.pb.h"

namespace kahve::table {

// For okey51 or okey101 hints, rewrites `response` so that its hints go on the wire as
// Hints.okey followed by the ruleset's own field, both holding the same OkeyHints: a parser of the
// current protos sees the ruleset's field, one of the earlier protos sees Hints.okey. The hints
// then travel as an unknown field of `response` (response.has_hints() turns false), so call this
// last, just before the answer is sent. Other hints are left as they are.
void SendOkeyHintsToEarlierClients(v1::GetHintsResponse& response);

}  // namespace kahve::table

#endif  // KAHVE_SERVICES_TABLE_HINTS_COMPAT_H_

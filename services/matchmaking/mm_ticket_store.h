#ifndef KAHVE_SERVICES_MATCHMAKING_MM_TICKET_STORE_H_
#define KAHVE_SERVICES_MATCHMAKING_MM_TICKET_STORE_H_

// Tickets as their players make, read and cancel them (migrations/0005_matchmaking.sql). A ticket
// is in play while it is queued, or matched to a table whose game has not ended (the SQL function
// mm_ticket_in_play, migrations/0009). Every method is one transaction; refusals come back as the
// gRPC-ready statuses the API documents.

#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "services/common/pg_pool.h"
#include "services/matchmaking/mm_records.h"

namespace kahve::matchmaking {

class TicketStore {
 public:
  explicit TicketStore(common::PgPool* pool) : pool_(pool) {}

  static NamedStatements PreparedStatements();

  // Returns the ticket id: the earlier one for a repeated (owner, request id) while that ticket
  // is in play, a new one once it is over (the old row gives the request id up in the same
  // transaction). AlreadyExists with an ActiveTicket detail when a player has an active ticket;
  // with a RequestIdInUse detail when the request id is bound to a ticket of another queue.
  absl::StatusOr<std::string> CreateTicket(const NewTicket& ticket, absl::Time now);
  // CreateTicket for each ticket, all in one transaction (mm_ticket_batch.cc), with the same
  // answers as one by one in this order. Should another replica win a race for a player or
  // request id meanwhile, the batch falls back to CreateTicket per ticket.
  std::vector<absl::StatusOr<std::string>> CreateTickets(const std::vector<NewTicket>& tickets,
                                                         absl::Time now);
  absl::StatusOr<TicketRecord> GetTicket(const std::string& ticket_id);
  absl::StatusOr<std::vector<TicketRecord>> GetTickets(const std::vector<std::string>& ticket_ids);
  // The newest of `player`'s kRecentTicketsLooked newest tickets that is in play; NotFound when
  // none is.
  absl::StatusOr<TicketRecord> TicketInPlay(const std::string& player);
  // NotFound, PermissionDenied (the caller is not on the ticket), FailedPrecondition (matched or
  // expired); cancelling a cancelled ticket is OK. Returns the ticket's queue key when this call
  // cancelled it, nullopt when it was cancelled already.
  absl::StatusOr<std::optional<std::string>> CancelTicket(const std::string& ticket_id,
                                                          const std::string& caller,
                                                          absl::Time now);

 private:
  common::PgPool* pool_;
};

// The batch's statements (mm_ticket_batch.cc), among PreparedStatements.
NamedStatements TicketBatchStatements();

// In `tx`: the request ids of these tickets, which are over, move to released_request_id, so the
// tickets stored next in `tx` can take them (mm_tickets_request is unique).
void ReleaseRequestIds(pqxx::transaction_base& tx, const std::vector<std::string>& ticket_ids);

}  // namespace kahve::matchmaking

#endif  // KAHVE_SERVICES_MATCHMAKING_MM_TICKET_STORE_H_

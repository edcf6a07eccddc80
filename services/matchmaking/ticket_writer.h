#ifndef KAHVE_SERVICES_MATCHMAKING_TICKET_WRITER_H_
#define KAHVE_SERVICES_MATCHMAKING_TICKET_WRITER_H_

// Enqueue with group commit: calls queue their validated ticket, and a writer thread stores every
// ticket queued (up to a batch) in one transaction, so a burst of Enqueues costs one WAL flush per
// batch instead of one per ticket, and no worker thread waits on a commit.

#include <deque>
#include <functional>
#include <string>
#include <thread>

#include "absl/base/thread_annotations.h"
#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"
#include "services/common/clock.h"
#include "services/matchmaking/mm_ticket_store.h"

namespace kahve::matchmaking {

class TicketWriter {
 public:
  using Done = std::function<void(absl::StatusOr<std::string>)>;

  // `clock` stamps the tickets' creation (their waits and expiry count from it; not owned).
  TicketWriter(TicketStore* store, int max_batch, common::Clock* clock = common::RealClock());
  // Stores everything already queued, then joins the thread.
  ~TicketWriter();
  TicketWriter(const TicketWriter&) = delete;
  TicketWriter& operator=(const TicketWriter&) = delete;

  // Queues the ticket; `done` runs on the writer thread with CreateTicket's answer once the
  // batch committed (or failed).
  void Submit(NewTicket ticket, Done done);

 private:
  struct Queued {
    NewTicket ticket;
    Done done;
  };
  void Loop();

  TicketStore* const store_;
  const int max_batch_;
  common::Clock* const clock_;
  absl::Mutex mu_;
  std::deque<Queued> queue_ ABSL_GUARDED_BY(mu_);
  bool stopping_ ABSL_GUARDED_BY(mu_) = false;
  std::thread thread_;
};

}  // namespace kahve::matchmaking

#endif  // KAHVE_SERVICES_MATCHMAKING_TICKET_WRITER_H_

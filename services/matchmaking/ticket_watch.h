#ifndef KAHVE_SERVICES_MATCHMAKING_TICKET_WATCH_H_
#define KAHVE_SERVICES_MATCHMAKING_TICKET_WATCH_H_

// WatchTicket streams. One thread reads the state of every watched ticket from PostgreSQL each
// poll interval (sooner when poked after a local pass), in one query, and writes each stream the
// update when it differs from the last one sent. Reading the database rather than this replica's
// memory is what lets a client watch on any replica while another one matches its ticket.
//
// Lifetime: a stream is registered here from Open until its OnDone, which unregisters it under
// the watchers' lock before deleting it; the loop touches streams only under that lock, and
// copies the ticket ids it reads. So no pointer to a stream (or its call) outlives the call, and
// the watchers outlive every stream (the server shuts down before they are destroyed).

#include <map>
#include <memory>
#include <set>
#include <string>
#include <thread>

#include "absl/base/thread_annotations.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"
#include "grpcpp/grpcpp.h"
#include "kahve/v1/matchmaking.pb.h"
#include "services/common/budget.h"
#include "services/common/clock.h"
#include "services/matchmaking/mm_store.h"

namespace kahve::matchmaking {

// What a QUEUED update tells of its queue: the tickets waiting or placing in it, and the median
// wait of its recently matched tickets.
struct QueueFigures {
  int size = 0;
  int expected_wait_seconds = 0;
};

class TicketWatchers {
 public:
  // `recent`: the window whose matched tickets give the expected wait. `budget` (may be null:
  // unlimited) bounds the streams per identity and per client connection. `clock` times the polls
  // and the figures' freshness (not owned).
  TicketWatchers(MatchmakingStore* store, absl::Duration poll, absl::Duration recent,
                 common::StreamBudget* budget = nullptr,
                 common::Clock* clock = common::RealClock());
  // Shutdown().
  ~TicketWatchers();

  // A stream for `player`, on the client connection `peer`, watching `ticket_id`. Its first
  // update is the ticket's state now; it ends OK after a final state, NOT_FOUND for an unknown
  // ticket, PERMISSION_DENIED for a ticket that is not the player's. RESOURCE_EXHAUSTED at once
  // when the player or the connection holds its budget of streams.
  grpc::ServerWriteReactor<v1::TicketUpdate>* Open(const std::string& ticket_id,
                                                   const std::string& player,
                                                   const std::string& peer);
  // The client connection a call by `player` counts against (StreamBudget::ConnectionKey; the
  // peer address when there is no budget).
  std::string ConnectionKey(const grpc::ServerContextBase& context,
                            const std::string& player) const;
  // Look now rather than at the next poll.
  void Poke();
  // Ends every stream (UNAVAILABLE: reconnect to resume) and stops the thread; new streams are
  // refused. Idempotent.
  void Shutdown();

  int streams();

 private:
  class Stream;
  void Loop();
  void Remove(Stream* stream);

  MatchmakingStore* store_;
  common::StreamBudget* const budget_;
  common::Clock* const clock_;
  const absl::Duration poll_;
  const absl::Duration recent_;
  absl::Mutex mu_;
  std::set<Stream*> streams_ ABSL_GUARDED_BY(mu_);
  // Each queue's figures as last read, and when; only the loop's thread touches them.
  struct ReadFigures {
    QueueFigures figures;
    absl::Time read_at = absl::InfinitePast();
  };
  std::map<std::string, ReadFigures> figures_;
  // Streams opened since the last read: they await their first update.
  std::set<Stream*> fresh_ ABSL_GUARDED_BY(mu_);
  bool poked_ ABSL_GUARDED_BY(mu_) = false;
  bool stopping_ ABSL_GUARDED_BY(mu_) = false;
  std::thread thread_;
};

// A stream that only ends, with `status`: for a call refused before it watches anything.
grpc::ServerWriteReactor<v1::TicketUpdate>* RefusedWatch(const grpc::Status& status);

// The queue's figures now, the expected wait over tickets matched since `since`
// (ExpectedWaitSeconds). A figure that cannot be read is 0: the update goes out without it.
QueueFigures ReadQueueFigures(MatchmakingStore& store, const std::string& queue_key,
                              absl::Time since);

// The update a ticket's player sees: QUEUED while waiting or placing (a table is not theirs until
// it exists) with the queue's figures, MATCHED with the player's own seat, EXPIRED, CANCELLED.
v1::TicketUpdate UpdateFor(const TicketRecord& ticket, const std::string& player,
                           const QueueFigures& figures);

}  // namespace kahve::matchmaking

#endif  // KAHVE_SERVICES_MATCHMAKING_TICKET_WATCH_H_

#include "services/matchmaking/ticket_writer.h"

#include <utility>
#include <vector>

namespace kahve::matchmaking {

TicketWriter::TicketWriter(TicketStore* store, int max_batch, common::Clock* clock)
    : store_(store), max_batch_(max_batch), clock_(clock), thread_([this] { Loop(); }) {}

TicketWriter::~TicketWriter() {
  {
    absl::MutexLock lock(&mu_);
    stopping_ = true;
  }
  thread_.join();
}

void TicketWriter::Submit(NewTicket ticket, Done done) {
  absl::MutexLock lock(&mu_);
  queue_.push_back({std::move(ticket), std::move(done)});
}

void TicketWriter::Loop() {
  while (true) {
    std::vector<Queued> batch;
    {
      absl::MutexLock lock(&mu_);
      auto ready = [this]()
                       ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) { return !queue_.empty() || stopping_; };
      mu_.Await(absl::Condition(&ready));
      if (queue_.empty()) return;  // stopping, and nothing left to store
      while (!queue_.empty() && static_cast<int>(batch.size()) < max_batch_) {
        batch.push_back(std::move(queue_.front()));
        queue_.pop_front();
      }
    }
    std::vector<NewTicket> tickets;
    tickets.reserve(batch.size());
    for (Queued& queued : batch) tickets.push_back(std::move(queued.ticket));
    std::vector<absl::StatusOr<std::string>> answers =
        store_->CreateTickets(tickets, clock_->Now());
    for (size_t i = 0; i < batch.size(); ++i) batch[i].done(std::move(answers[i]));
  }
}

}  // namespace kahve::matchmaking

#include "services/matchmaking/matchmaker.h"

#include <algorithm>
#include <chrono>
#include <map>
#include <set>
#include <utility>

#include "absl/strings/str_cat.h"
#include "engine/core/seating.h"
#include "services/common/logging.h"
#include "services/matchmaking/queue_spec.h"

namespace kahve::matchmaking {
namespace {

// The matching pass's view of `waiting`: a party's rating is its players' mean, provisional when
// any of theirs is.
std::vector<WaitingTicket> WaitingTicketsOf(const std::vector<QueuedTicket>& waiting,
                                            const std::map<std::string, Skill>& skills) {
  std::vector<WaitingTicket> tickets;
  for (const QueuedTicket& queued : waiting) {
    WaitingTicket& ticket = tickets.emplace_back();
    ticket.party_size = static_cast<int>(queued.players.size());
    for (const std::string& player : queued.players) {
      const Skill& skill = skills.at(player);
      ticket.rating += skill.rating / ticket.party_size;
      ticket.provisional = ticket.provisional || skill.provisional;
    }
    ticket.enqueued = absl::FromUnixMicros(queued.enqueued_us);
    if (queued.longest_wait_us > 0) {
      ticket.longest_wait = absl::Microseconds(queued.longest_wait_us);
    }
  }
  return tickets;
}

}  // namespace

Matchmaker::Matchmaker(MatchmakerSettings settings, MatchmakingStore* store, RatingCache* ratings,
                       Placer* placer, TableDirectory* tables, MatchmakingMetrics* metrics,
                       QueueBudget* budget)
    : settings_(std::move(settings)),
      store_(store),
      ratings_(ratings),
      placer_(placer),
      tables_(tables),
      metrics_(metrics),
      budget_(budget),
      locks_(settings_.database_url) {}

Matchmaker::~Matchmaker() { Stop(); }

void Matchmaker::Start(std::function<void()> on_change) {
  thread_ = std::thread([this, on_change = std::move(on_change)] {
    do {
      if (RunOnce() > 0 && on_change) on_change();
    } while (!settings_.clock->WaitForNotificationWithTimeout(stop_, settings_.pass_interval));
  });
}

void Matchmaker::Stop() {
  if (!stop_.HasBeenNotified()) stop_.Notify();
  if (thread_.joinable()) thread_.join();
  // Closing the session releases the locks: another replica takes the queues over.
  locks_.ReleaseAll();
}

int Matchmaker::RunOnce() {
  const int64_t mark = budget_ != nullptr ? budget_->Mark() : 0;
  auto queues = store_->matches.ActiveQueues();
  if (!queues.ok()) {
    common::LogWarning("matchmaking pass skipped",
                       {{"error", std::string(queues.status().message())}});
    return 0;
  }
  if (budget_ != nullptr) budget_->Refresh(*queues, mark);
  std::set<std::string> active;
  for (const auto& [queue_key, tickets] : *queues) active.insert(queue_key);
  // Queues with nothing left to do give their locks back.
  locks_.BeginPass(active);
  int changed = 0;
  for (const std::string& queue_key : active) {
    if (stop_.HasBeenNotified()) break;
    if (!locks_.Hold(queue_key)) continue;
    // Real time, not settings_.clock: the histogram measures the machine, not the game.
    const auto start = std::chrono::steady_clock::now();
    changed += ProcessQueue(queue_key);
    metrics_->pass_seconds.Observe(
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  }
  ForgetGauges();
  return changed;
}

void Matchmaker::ForgetGauges() {
  for (auto it = gauged_.begin(); it != gauged_.end();) {
    if (locks_.held().contains(*it)) {
      ++it;
      continue;
    }
    for (const char* state : {kWaiting, kPlacing}) {
      metrics_->tickets.Remove(&metrics_->tickets.Add({{"queue", *it}, {"state", state}}));
    }
    it = gauged_.erase(it);
  }
}

int Matchmaker::ProcessQueue(const std::string& queue_key) {
  int changed = 0;
  // First what an earlier pass (ours, or a replica's that died) left half done.
  auto placing = store_->matches.PlacingMatches(queue_key);
  if (placing.ok()) {
    for (const PendingMatch& match : *placing) {
      const int placed = PlaceMatch(match);
      changed += placed > 0 ? placed : GiveUpIfStuck(match);
    }
  }
  const absl::Time now = settings_.clock->Now();
  auto expired = store_->matches.ExpireTickets(queue_key, now - settings_.ticket_ttl, now);
  if (expired.ok() && *expired > 0) {
    changed += *expired;
    metrics_->TicketsEnded(queue_key, kExpired).Increment(*expired);
  }
  auto waiting = store_->matches.WaitingTickets(queue_key);
  if (!waiting.ok()) {
    common::LogWarning("queue unreadable",
                       {{"queue", queue_key}, {"error", std::string(waiting.status().message())}});
  } else if (!waiting->empty()) {
    changed += FormMatches(queue_key, *waiting, now);
  }
  auto sizes = store_->queues.Sizes(queue_key);
  if (sizes.ok()) {
    metrics_->tickets.Add({{"queue", queue_key}, {"state", kWaiting}}).Set(sizes->waiting);
    metrics_->tickets.Add({{"queue", queue_key}, {"state", kPlacing}}).Set(sizes->placing);
    gauged_.insert(queue_key);
  }
  return changed;
}

PendingMatch Matchmaker::PendingFor(const FormedMatch& match,
                                    const std::vector<QueuedTicket>& waiting, const QueueSpec& spec,
                                    const std::string& queue_key, const std::string& host_id,
                                    absl::Time now) const {
  PendingMatch pending;
  pending.match_id = NewId("mt-");
  pending.queue_key = queue_key;
  pending.rating_spread = match.rating_spread;
  pending.created_us = Micros(now);
  pending.host_id = host_id;
  int humans = 0;
  for (int t : match.tickets) humans += static_cast<int>(waiting[t].players.size());
  std::vector<std::string> seat_players(humans + match.bots);
  for (size_t i = 0; i < match.tickets.size(); ++i) {
    const QueuedTicket& ticket = waiting[match.tickets[i]];
    pending.ticket_ids.push_back(ticket.ticket_id);
    for (size_t member = 0; member < ticket.players.size(); ++member) {
      // A party sits side by side; partners in teams sit opposite.
      const int seat = member == 0  ? match.seat_of[i]
                       : spec.teams ? engine::PartnerOf(match.seat_of[i])
                                    : match.seat_of[i] + static_cast<int>(member);
      seat_players[seat] = ticket.players[member];
      pending.seats.push_back({ticket.ticket_id, ticket.players[member], seat});
    }
  }
  pending.request.set_match_id(pending.match_id);
  *pending.request.mutable_settings() = SettingsForSeats(spec, humans + match.bots);
  *pending.request.mutable_options() = settings_.table_options;
  for (const std::string& player : seat_players) {
    v1::SeatSpec* seat = pending.request.add_seats();
    if (player.empty()) {
      seat->set_bot_kind(settings_.bot_kind);
    } else {
      seat->set_player_id(player);
    }
  }
  return pending;
}

int Matchmaker::FormMatches(const std::string& queue_key, const std::vector<QueuedTicket>& waiting,
                            absl::Time now) {
  // Every ticket of a queue asked for the same settings (they are its key).
  auto spec = QueueSpecFor(waiting.front().settings, waiting.front().teams);
  if (!spec.ok()) {
    common::LogError("queue settings unusable",
                     {{"queue", queue_key}, {"error", std::string(spec.status().message())}});
    return 0;
  }
  std::vector<std::string> players;
  for (const QueuedTicket& ticket : waiting) {
    players.insert(players.end(), ticket.players.begin(), ticket.players.end());
  }
  const auto skills = ratings_->Lookup(players, spec->ruleset, spec->mode, now);
  const std::vector<WaitingTicket> tickets = WaitingTicketsOf(waiting, skills);
  const QueueRules rules{.preferred_seats = spec->preferred_seats,
                         .min_seats = spec->min_seats,
                         .shrink_after = settings_.shrink_after,
                         .teams = spec->teams,
                         .bot_fill = settings_.bot_fill && spec->bots_allowed,
                         .longest_wait = settings_.longest_wait,
                         .window = settings_.window};
  const std::vector<FormedMatch> formed = MatchPass(tickets, rules, now);
  if (formed.empty()) return 0;
  auto hosts = tables_->Hosts();
  if (!hosts.ok() || hosts->empty()) {
    // Nowhere to put a table: the tickets keep waiting (still matchable) rather than sit in
    // matches nobody can place.
    common::LogWarning("no live table host; matches wait", {{"queue", queue_key}});
    return 0;
  }
  // Spread this pass's tables: each host counts the tables given to it so far.
  std::vector<int> load;
  for (const TableHostRow& host : *hosts) load.push_back(host.live_tables);

  std::vector<PendingMatch> pending_matches;
  for (const FormedMatch& match : formed) {
    const size_t host = std::min_element(load.begin(), load.end()) - load.begin();
    ++load[host];
    pending_matches.push_back(
        PendingFor(match, waiting, *spec, queue_key, (*hosts)[host].host_id, now));
  }
  // One transaction records them all; a match that lost a ticket to a cancel is left out.
  auto recorded = store_->matches.RecordFormedMatches(std::move(pending_matches));
  if (!recorded.ok()) {
    common::LogWarning("formed matches not recorded; the tickets wait for the next pass",
                       {{"queue", queue_key}, {"error", std::string(recorded.status().message())}});
    return 0;
  }
  int changed = 0;
  for (const PendingMatch& match : *recorded) {
    metrics_->formed.Add({{"queue", queue_key}}).Increment();
    metrics_->rating_spread.Observe(match.rating_spread);
    const auto bots = std::count_if(
        match.request.seats().begin(), match.request.seats().end(),
        [](const v1::SeatSpec& seat) { return seat.occupant_case() == v1::SeatSpec::kBotKind; });
    if (bots > 0) metrics_->BotSeats(queue_key).Increment(static_cast<double>(bots));
    changed += static_cast<int>(match.ticket_ids.size());
  }
  prometheus::Histogram& waits = metrics_->WaitSeconds(queue_key);
  for (const absl::Duration wait : placer_->PlaceNew(*recorded, *hosts)) {
    waits.Observe(absl::ToDoubleSeconds(wait));
  }
  return changed;
}

int Matchmaker::GiveUpIfStuck(const PendingMatch& match) {
  const absl::Time now = settings_.clock->Now();
  if (now - absl::FromUnixMicros(match.created_us) < settings_.placement_timeout) return 0;
  // A table that exists is only waiting for its assignments to be stored: some host serves it
  // (its host's tables fail over), and any host answers the retried CreateTable.
  auto has_table = tables_->HasTable(match.match_id);
  if (!has_table.ok() || *has_table) return 0;
  auto back = store_->matches.AbandonMatch(
      match.match_id,
      absl::StrCat("not placed within ", absl::FormatDuration(settings_.placement_timeout)));
  if (!back.ok() || *back == 0) return 0;
  common::LogWarning("match given up; its tickets wait again",
                     {{"match_id", match.match_id}, {"tickets", static_cast<int64_t>(*back)}});
  return *back;
}

int Matchmaker::PlaceMatch(const PendingMatch& match) {
  auto waits = placer_->Place(match);
  if (!waits.ok()) {
    common::LogWarning("match not placed yet", {{"match_id", match.match_id},
                                                {"error", std::string(waits.status().message())}});
    return 0;
  }
  prometheus::Histogram& observed = metrics_->WaitSeconds(match.queue_key);
  for (const absl::Duration wait : *waits) observed.Observe(absl::ToDoubleSeconds(wait));
  return static_cast<int>(waits->size());
}

}  // namespace kahve::matchmaking

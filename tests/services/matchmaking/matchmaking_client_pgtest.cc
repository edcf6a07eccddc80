// What a client can act on (issue 19): ALREADY_EXISTS refusals carry details naming the ticket,
// party or player in the way, decoded here as a client does (RpcStatus in
// grpc-status-details-bin); GetMyTicket and GetMyParty; and how long an Enqueue request id stays
// bound to its ticket. Real matchmaking, table and rating services over real gRPC and PostgreSQL.

#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "google/protobuf/util/message_differencer.h"
#include "gtest/gtest.h"
#include "pqxx/pqxx"
#include "services/common/status.h"
#include "services/matchmaking/queue_spec.h"
#include "tests/services/matchmaking/mm_fixture.h"
#include "tests/services/service_testing.h"

namespace kahve::matchmaking {
namespace {

using ::google::protobuf::util::MessageDifferencer;
using ::kahve::testing::DetailOf;
using ::testing::ElementsAre;

class MatchmakingClientTest : public MatchmakingTest {
 protected:
  // Passes run unless `passes` is false (then nothing is matched or expired behind the test).
  void Start(bool passes = true) {
    MatchmakerSettings settings = Settings();
    if (!passes) settings.pass_interval = absl::Hours(1);
    StartMatchmaker(settings);
  }

  grpc::Status GetMyTicket(const std::string& player, v1::TicketUpdate* update) {
    auto context = kahve::testing::ContextFor(player);
    return mm().stub().GetMyTicket(context.get(), {}, update);
  }

  grpc::Status GetMyParty(const std::string& player, v1::Party* party) {
    auto context = kahve::testing::ContextFor(player);
    return mm().stub().GetMyParty(context.get(), {}, party);
  }

  static v1::EnqueueRequest WithId(v1::EnqueueRequest request, const std::string& request_id) {
    request.set_request_id(request_id);
    return request;
  }

  // Every ticket with its state and request ids, and every party member: what a refused call
  // must leave as it was.
  std::string State() {
    pqxx::connection connection(url());
    pqxx::read_transaction tx(connection);
    return tx
        .exec1(
            "SELECT concat_ws(' / ',"
            " (SELECT string_agg(concat_ws(':', ticket_id, state, request_id, released_request_id),"
            "   ',' ORDER BY ticket_id) FROM mm_tickets),"
            " (SELECT string_agg(concat_ws(':', ticket_id, player_id, active), ','"
            "   ORDER BY ticket_id, player_id) FROM mm_ticket_players),"
            " (SELECT string_agg(concat_ws(':', party_id, player_id), ',' ORDER BY player_id)"
            "   FROM mm_party_members))")[0]
        .as<std::string>();
  }

  // The request ids a ticket holds: "request_id/released_request_id".
  std::string RequestIdsOf(const std::string& ticket_id) {
    pqxx::connection connection(url());
    pqxx::read_transaction tx(connection);
    return tx
        .exec_params1(
            "SELECT request_id || '/' || coalesce(released_request_id, '')"
            "  FROM mm_tickets WHERE ticket_id = $1",
            ticket_id)[0]
        .as<std::string>();
  }

  // What the table service writes in the transaction that logs a game's end.
  void MarkFinished(const std::string& table_id) {
    pqxx::connection connection(url());
    pqxx::work tx(connection);
    const pqxx::result updated = tx.exec_params(
        "UPDATE table_tables SET finished_us = $2 WHERE table_id = $1 AND finished_us IS NULL",
        table_id, absl::ToUnixMicros(absl::Now()));
    tx.commit();
    ASSERT_EQ(updated.affected_rows(), 1u) << table_id;
  }

  // ana and bora, each alone, matched at one 2-player Liar's dice table: their tickets and seats.
  struct Pair {
    std::string ana_ticket, bora_ticket;
    v1::Assignment ana, bora;
  };
  Pair MatchAnaAndBora(const v1::EnqueueRequest& ana_request) {
    Pair pair;
    EXPECT_TRUE(Enqueue("ana", ana_request, &pair.ana_ticket).ok());
    EXPECT_TRUE(Enqueue("bora", LiarsDice(2), &pair.bora_ticket).ok());
    pair.ana = AwaitAssignment("ana", pair.ana_ticket);
    pair.bora = AwaitAssignment("bora", pair.bora_ticket);
    EXPECT_EQ(pair.ana.table_id(), pair.bora.table_id());
    return pair;
  }

  // A store of its own on the test's database, for the paths gRPC reaches only in a race (a
  // ticket stored alone after its batch failed).
  struct OwnStore {
    explicit OwnStore(const std::string& url)
        : pool(WithMatchmakingStatements({.url = url, .size = 1, .name = "test"}),
               &metrics.registry()),
          store(&pool) {}
    common::Metrics metrics;
    common::PgPool pool;
    MatchmakingStore store;
  };

  static NewTicket Ticket(const std::string& owner, const std::string& request_id,
                          const v1::EnqueueRequest& request) {
    return NewTicket{.queue_key = QueueSpecFor(request.settings(), false)->key,
                     .owner = owner,
                     .request_id = request_id,
                     .players = {owner}};
  }
};

// Decodes the detail of type T a store's refusal becomes on the wire.
template <typename T>
absl::StatusOr<T> WireDetailOf(const absl::Status& status) {
  return DetailOf<T>(common::ToGrpcStatus(status));
}

TEST_F(MatchmakingClientTest, ASecondTicketIsRefusedNamingThePlayerAndTheActiveTicket) {
  Start(/*passes=*/false);
  std::string ana_ticket;
  ASSERT_TRUE(Enqueue("ana", LiarsDice(4), &ana_ticket).ok());
  const std::string before = State();
  const grpc::Status again = Enqueue("ana", LiarsDice(3), nullptr);
  EXPECT_EQ(again.error_code(), grpc::StatusCode::ALREADY_EXISTS);
  EXPECT_EQ(again.error_message(), "player ana already has active ticket " + ana_ticket)
      << "the message stays as clients log it";
  const absl::StatusOr<v1::ActiveTicket> active = DetailOf<v1::ActiveTicket>(again);
  ASSERT_TRUE(active.ok()) << active.status();
  EXPECT_EQ(active->player_id(), "ana");
  EXPECT_EQ(active->ticket_id(), ana_ticket);
  EXPECT_EQ(State(), before);

  // A party whose partner is queued alone: the detail names the partner and the partner's ticket.
  v1::Party party;
  ASSERT_TRUE(CreateParty("bora", &party).ok());
  ASSERT_TRUE(JoinParty("cem", party.invite_code()).ok());
  std::string cem_ticket;
  ASSERT_TRUE(Enqueue("cem", LiarsDice(4), &cem_ticket).ok());
  const std::string with_cem = State();
  v1::EnqueueRequest both = LiarsDice(4);
  both.set_party_id(party.party_id());
  const grpc::Status busy = Enqueue("bora", both, nullptr);
  EXPECT_EQ(busy.error_code(), grpc::StatusCode::ALREADY_EXISTS);
  const absl::StatusOr<v1::ActiveTicket> partner = DetailOf<v1::ActiveTicket>(busy);
  ASSERT_TRUE(partner.ok()) << partner.status();
  EXPECT_EQ(partner->player_id(), "cem");
  EXPECT_EQ(partner->ticket_id(), cem_ticket);
  EXPECT_EQ(State(), with_cem);
}

TEST_F(MatchmakingClientTest, ARequestIdOfAnotherQueueIsRefusedNamingItsTicket) {
  Start(/*passes=*/false);
  std::string first;
  ASSERT_TRUE(Enqueue("ana", WithId(LiarsDice(4), "r-1"), &first).ok());
  const std::string before = State();
  const grpc::Status reused = Enqueue("ana", WithId(LiarsDice(3), "r-1"), nullptr);
  EXPECT_EQ(reused.error_code(), grpc::StatusCode::ALREADY_EXISTS);
  EXPECT_EQ(reused.error_message(),
            "request_id: already used for ticket " + first + " of another queue; use a new id");
  const absl::StatusOr<v1::RequestIdInUse> in_use = DetailOf<v1::RequestIdInUse>(reused);
  ASSERT_TRUE(in_use.ok()) << in_use.status();
  EXPECT_EQ(in_use->request_id(), "r-1");
  EXPECT_EQ(in_use->ticket_id(), first);
  EXPECT_FALSE(DetailOf<v1::ActiveTicket>(reused).ok()) << "one detail, of its own type";
  EXPECT_EQ(State(), before);
}

// The single-ticket path (CreateTicket, taken when a batch fails) answers as the batch does,
// details included; the active ticket is found only after the insert ran into the unique index.
TEST_F(MatchmakingClientTest, TheSingleTicketPathAttachesTheSameDetails) {
  Start(/*passes=*/false);
  OwnStore own(url());
  const absl::StatusOr<std::string> first =
      own.store.tickets.CreateTicket(Ticket("ana", "r-1", LiarsDice(4)), absl::Now());
  ASSERT_TRUE(first.ok()) << first.status();

  const absl::StatusOr<std::string> second =
      own.store.tickets.CreateTicket(Ticket("ana", "r-2", LiarsDice(4)), absl::Now());
  EXPECT_EQ(second.status().code(), absl::StatusCode::kAlreadyExists);
  const absl::StatusOr<v1::ActiveTicket> active = WireDetailOf<v1::ActiveTicket>(second.status());
  ASSERT_TRUE(active.ok()) << active.status();
  EXPECT_EQ(active->player_id(), "ana");
  EXPECT_EQ(active->ticket_id(), *first);

  const absl::StatusOr<std::string> other_queue =
      own.store.tickets.CreateTicket(Ticket("ana", "r-1", LiarsDice(3)), absl::Now());
  EXPECT_EQ(other_queue.status().code(), absl::StatusCode::kAlreadyExists);
  const absl::StatusOr<v1::RequestIdInUse> in_use =
      WireDetailOf<v1::RequestIdInUse>(other_queue.status());
  ASSERT_TRUE(in_use.ok()) << in_use.status();
  EXPECT_EQ(in_use->request_id(), "r-1");
  EXPECT_EQ(in_use->ticket_id(), *first);

  // Over (cancelled), the ticket gives r-1 up to the next ticket of the request, once.
  ASSERT_TRUE(own.store.tickets.CancelTicket(*first, "ana", absl::Now()).ok());
  const absl::StatusOr<std::string> renewed =
      own.store.tickets.CreateTicket(Ticket("ana", "r-1", LiarsDice(3)), absl::Now());
  ASSERT_TRUE(renewed.ok()) << renewed.status();
  EXPECT_NE(*renewed, *first);
  EXPECT_EQ(RequestIdsOf(*first), "/r-1");
  EXPECT_EQ(RequestIdsOf(*renewed), "r-1/");
  const absl::StatusOr<std::string> retried =
      own.store.tickets.CreateTicket(Ticket("ana", "r-1", LiarsDice(3)), absl::Now());
  ASSERT_TRUE(retried.ok()) << retried.status();
  EXPECT_EQ(*retried, *renewed);
}

TEST_F(MatchmakingClientTest, PartyRefusalsNameTheCallersParty) {
  Start(/*passes=*/false);
  v1::Party ana_party, bora_party;
  ASSERT_TRUE(CreateParty("ana", &ana_party).ok());
  ASSERT_TRUE(CreateParty("bora", &bora_party).ok());
  const std::string before = State();

  v1::Party ignored;
  const grpc::Status create = CreateParty("ana", &ignored);
  EXPECT_EQ(create.error_code(), grpc::StatusCode::ALREADY_EXISTS);
  EXPECT_EQ(create.error_message(),
            "already in party " + ana_party.party_id() + "; leave it first");
  absl::StatusOr<v1::CurrentParty> current = DetailOf<v1::CurrentParty>(create);
  ASSERT_TRUE(current.ok()) << current.status();
  EXPECT_EQ(current->party_id(), ana_party.party_id());

  const grpc::Status rejoin = JoinParty("ana", ana_party.invite_code());
  EXPECT_EQ(rejoin.error_code(), grpc::StatusCode::ALREADY_EXISTS);
  EXPECT_EQ(rejoin.error_message(), "already in this party");
  current = DetailOf<v1::CurrentParty>(rejoin);
  ASSERT_TRUE(current.ok()) << current.status();
  EXPECT_EQ(current->party_id(), ana_party.party_id());

  const grpc::Status join_other = JoinParty("bora", ana_party.invite_code());
  EXPECT_EQ(join_other.error_code(), grpc::StatusCode::ALREADY_EXISTS);
  EXPECT_EQ(join_other.error_message(),
            "already in party " + bora_party.party_id() + "; leave it first");
  current = DetailOf<v1::CurrentParty>(join_other);
  ASSERT_TRUE(current.ok()) << current.status();
  EXPECT_EQ(current->party_id(), bora_party.party_id());
  EXPECT_EQ(State(), before);
}

// Only the party's own ticket keeps its members in it: a partner leaves a party whose leader
// queued alone, and a refusal while the party is queued names its ticket in a PartyTicket detail,
// which either member may cancel.
TEST_F(MatchmakingClientTest, LeavingAPartyWaitsOnlyForThePartysOwnTicket) {
  Start(/*passes=*/false);
  auto leave = [this](const std::string& player, const std::string& party_id) {
    auto context = kahve::testing::ContextFor(player);
    v1::LeavePartyRequest request;
    request.set_party_id(party_id);
    v1::LeavePartyResponse left;
    return mm().stub().LeaveParty(context.get(), request, &left);
  };
  v1::Party party;
  ASSERT_TRUE(CreateParty("ana", &party).ok());
  ASSERT_TRUE(JoinParty("bora", party.invite_code()).ok());
  std::string solo;
  ASSERT_TRUE(Enqueue("ana", LiarsDice(3), &solo).ok());
  ASSERT_TRUE(leave("bora", party.party_id()).ok()) << "the leader queued alone";
  v1::Party now;
  EXPECT_EQ(GetMyParty("bora", &now).error_code(), grpc::StatusCode::NOT_FOUND);
  v1::TicketUpdate ana_ticket;
  ASSERT_TRUE(GetMyTicket("ana", &ana_ticket).ok());
  EXPECT_EQ(ana_ticket.ticket_id(), solo) << "the leader's own ticket is untouched";

  ASSERT_TRUE(GetMyParty("ana", &now).ok());
  ASSERT_TRUE(JoinParty("bora", now.invite_code()).ok());
  ASSERT_TRUE(Cancel("ana", solo).ok());
  v1::EnqueueRequest together = LiarsDice(4);
  together.set_party_id(party.party_id());
  std::string party_ticket;
  ASSERT_TRUE(Enqueue("ana", together, &party_ticket).ok());
  const std::string before = State();
  for (const char* member : {"bora", "ana"}) {
    SCOPED_TRACE(member);
    const grpc::Status refused = leave(member, party.party_id());
    EXPECT_EQ(refused.error_code(), grpc::StatusCode::FAILED_PRECONDITION);
    EXPECT_EQ(refused.error_message(),
              "the party is queued (ticket " + party_ticket + "); cancel it first");
    const absl::StatusOr<v1::PartyTicket> queued = DetailOf<v1::PartyTicket>(refused);
    ASSERT_TRUE(queued.ok()) << queued.status();
    EXPECT_EQ(queued->party_id(), party.party_id());
    EXPECT_EQ(queued->ticket_id(), party_ticket);
  }
  EXPECT_EQ(State(), before) << "a refusal changes nothing";

  ASSERT_TRUE(Cancel("bora", party_ticket).ok()) << "either member may cancel the party's ticket";
  ASSERT_TRUE(leave("bora", party.party_id()).ok());
  EXPECT_EQ(GetMyParty("bora", &now).error_code(), grpc::StatusCode::NOT_FOUND);
}

TEST_F(MatchmakingClientTest, GetMyPartyAnswersEachMemberAboutThemselves) {
  Start(/*passes=*/false);
  v1::Party party;
  EXPECT_EQ(GetMyParty("ana", &party).error_code(), grpc::StatusCode::NOT_FOUND);

  v1::Party created;
  ASSERT_TRUE(CreateParty("ana", &created).ok());
  ASSERT_TRUE(GetMyParty("ana", &party).ok());
  EXPECT_TRUE(MessageDifferencer::Equals(party, created)) << party.DebugString();
  EXPECT_FALSE(party.invite_code().empty()) << "the leader, until the party is full";

  v1::Party joined;
  ASSERT_TRUE(JoinParty("bora", created.invite_code(), &joined).ok());
  for (const char* member : {"ana", "bora"}) {
    SCOPED_TRACE(member);
    v1::Party mine;
    ASSERT_TRUE(GetMyParty(member, &mine).ok());
    EXPECT_EQ(mine.party_id(), created.party_id());
    EXPECT_EQ(mine.leader(), "ana");
    EXPECT_THAT(mine.members(), ElementsAre("ana", "bora"));
    EXPECT_TRUE(mine.invite_code().empty()) << "a full party has no code to share";
  }
  EXPECT_EQ(GetMyParty("cem", &party).error_code(), grpc::StatusCode::NOT_FOUND)
      << "only about the caller's own party";

  auto context = kahve::testing::ContextFor("bora");
  v1::LeavePartyRequest leave;
  leave.set_party_id(created.party_id());
  v1::LeavePartyResponse left;
  ASSERT_TRUE(mm().stub().LeaveParty(context.get(), leave, &left).ok());
  EXPECT_EQ(GetMyParty("bora", &party).error_code(), grpc::StatusCode::NOT_FOUND);
  ASSERT_TRUE(GetMyParty("ana", &party).ok());
  EXPECT_THAT(party.members(), ElementsAre("ana"));

  // Without a token nothing is answered.
  grpc::ClientContext anonymous;
  EXPECT_EQ(mm().stub().GetMyParty(&anonymous, {}, &party).error_code(),
            grpc::StatusCode::UNAUTHENTICATED);
}

TEST_F(MatchmakingClientTest, GetMyTicketFollowsTheTicketUntilTheGameEnds) {
  Start();
  v1::TicketUpdate update;
  EXPECT_EQ(GetMyTicket("ana", &update).error_code(), grpc::StatusCode::NOT_FOUND);
  grpc::ClientContext anonymous;
  EXPECT_EQ(mm().stub().GetMyTicket(&anonymous, {}, &update).error_code(),
            grpc::StatusCode::UNAUTHENTICATED);

  // Queued: the answer is WatchTicket's first update.
  std::string queued;
  ASSERT_TRUE(Enqueue("ana", LiarsDice(3), &queued).ok());
  ASSERT_TRUE(GetMyTicket("ana", &update).ok());
  EXPECT_EQ(update.ticket_id(), queued);
  EXPECT_EQ(update.state(), v1::TicketUpdate::QUEUED);
  EXPECT_EQ(update.queue_size(), 1);
  EXPECT_TRUE(update.has_enqueued_at());
  EXPECT_EQ(GetMyTicket("bora", &update).error_code(), grpc::StatusCode::NOT_FOUND)
      << "only about the caller's own tickets";
  ASSERT_TRUE(Cancel("ana", queued).ok());
  EXPECT_EQ(GetMyTicket("ana", &update).error_code(), grpc::StatusCode::NOT_FOUND)
      << "a cancelled ticket is over";

  // Matched: each player gets their own seat and seat token, as WatchTicket gives them.
  const Pair pair = MatchAnaAndBora(LiarsDice(2));
  for (const auto& [player, ticket] :
       {std::pair{"ana", pair.ana_ticket}, std::pair{"bora", pair.bora_ticket}}) {
    SCOPED_TRACE(player);
    const Watched watched = WatchUntil(player, ticket, v1::TicketUpdate::MATCHED);
    ASSERT_FALSE(watched.updates.empty());
    v1::TicketUpdate mine;
    ASSERT_TRUE(GetMyTicket(player, &mine).ok());
    EXPECT_EQ(mine.state(), v1::TicketUpdate::MATCHED);
    EXPECT_FALSE(mine.assignment().seat_token().empty());
    EXPECT_TRUE(MessageDifferencer::Equals(mine, watched.updates.back()))
        << mine.DebugString() << " vs " << watched.updates.back().DebugString();
  }
  EXPECT_NE(pair.ana.seat(), pair.bora.seat());

  // A newer ticket in play comes first; once it is over, the table still being played again.
  std::string newer;
  ASSERT_TRUE(Enqueue("ana", LiarsDice(4), &newer).ok());
  ASSERT_TRUE(GetMyTicket("ana", &update).ok());
  EXPECT_EQ(update.ticket_id(), newer);
  EXPECT_EQ(update.state(), v1::TicketUpdate::QUEUED);
  ASSERT_TRUE(Cancel("ana", newer).ok());
  ASSERT_TRUE(GetMyTicket("ana", &update).ok());
  EXPECT_EQ(update.ticket_id(), pair.ana_ticket);
  EXPECT_EQ(update.assignment().table_id(), pair.ana.table_id());

  // The game is over: nothing to go back to.
  MarkFinished(pair.ana.table_id());
  EXPECT_EQ(GetMyTicket("ana", &update).error_code(), grpc::StatusCode::NOT_FOUND);
  EXPECT_EQ(GetMyTicket("bora", &update).error_code(), grpc::StatusCode::NOT_FOUND);
}

TEST_F(MatchmakingClientTest, GetMyTicketAnswersEveryMemberOfAQueuedParty) {
  Start(/*passes=*/false);
  v1::Party party;
  ASSERT_TRUE(CreateParty("ana", &party).ok());
  ASSERT_TRUE(JoinParty("bora", party.invite_code()).ok());
  v1::EnqueueRequest request = LiarsDice(4);
  request.set_party_id(party.party_id());
  std::string ticket;
  ASSERT_TRUE(Enqueue("ana", request, &ticket).ok());
  for (const char* member : {"ana", "bora"}) {
    SCOPED_TRACE(member);
    v1::TicketUpdate update;
    ASSERT_TRUE(GetMyTicket(member, &update).ok());
    EXPECT_EQ(update.ticket_id(), ticket);
    EXPECT_EQ(update.state(), v1::TicketUpdate::QUEUED);
  }
}

// Issue 19: a request id reused after its ticket's game finished sent the player back to the
// finished table. It stays bound while the ticket is in play, and is free once it is over.
TEST_F(MatchmakingClientTest, ARequestIdStaysWithItsTicketUntilTheGameEnds) {
  Start();
  std::string queued, retried;
  ASSERT_TRUE(Enqueue("ana", WithId(LiarsDice(2), "r-1"), &queued).ok());
  ASSERT_TRUE(Enqueue("ana", WithId(LiarsDice(2), "r-1"), &retried).ok());
  EXPECT_EQ(retried, queued) << "a retry while queued";

  std::string bora_ticket;
  ASSERT_TRUE(Enqueue("bora", LiarsDice(2), &bora_ticket).ok());
  const v1::Assignment ana = AwaitAssignment("ana", queued);
  const v1::Assignment bora = AwaitAssignment("bora", bora_ticket);
  ASSERT_FALSE(ana.table_id().empty());
  const std::string matched = State();
  ASSERT_TRUE(Enqueue("ana", WithId(LiarsDice(2), "r-1"), &retried).ok());
  EXPECT_EQ(retried, queued) << "a retry while the table is being played";
  const grpc::Status other_queue = Enqueue("ana", WithId(LiarsDice(3), "r-1"), nullptr);
  EXPECT_EQ(other_queue.error_code(), grpc::StatusCode::ALREADY_EXISTS);
  const absl::StatusOr<v1::RequestIdInUse> in_use = DetailOf<v1::RequestIdInUse>(other_queue);
  ASSERT_TRUE(in_use.ok()) << in_use.status();
  EXPECT_EQ(in_use->ticket_id(), queued);
  EXPECT_EQ(State(), matched) << "retries change nothing";

  // The players play the game to its end at the real table.
  PlayToTheEnd(ana.table_id(),
               {{"ana", ana.seat(), ana.seat_token()}, {"bora", bora.seat(), bora.seat_token()}});
  ASSERT_EQ(Count(absl::StrCat("SELECT count(*) FROM table_tables WHERE table_id = '",
                               ana.table_id(), "' AND finished_us IS NOT NULL")),
            1);
  std::string renewed;
  ASSERT_TRUE(Enqueue("ana", WithId(LiarsDice(2), "r-1"), &renewed).ok());
  EXPECT_NE(renewed, queued) << "a new ticket, not the finished table";
  EXPECT_EQ(RequestIdsOf(queued), "/r-1") << "the old ticket gave the id up";
  EXPECT_EQ(RequestIdsOf(renewed), "r-1/");
  ASSERT_TRUE(Enqueue("ana", WithId(LiarsDice(2), "r-1"), &retried).ok());
  EXPECT_EQ(retried, renewed) << "bound to the new ticket now";
  v1::TicketUpdate update;
  ASSERT_TRUE(GetMyTicket("ana", &update).ok());
  EXPECT_EQ(update.ticket_id(), renewed);
  EXPECT_EQ(update.state(), v1::TicketUpdate::QUEUED);
  const Watched watched = WatchUntil("ana", renewed, v1::TicketUpdate::QUEUED);
  ASSERT_FALSE(watched.updates.empty());
  EXPECT_FALSE(watched.updates[0].has_assignment());
}

TEST_F(MatchmakingClientTest, ARequestIdIsFreeAgainOnceItsTicketExpiredOrWasCancelled) {
  Start(/*passes=*/false);
  std::string first, second, third;
  ASSERT_TRUE(Enqueue("ana", WithId(LiarsDice(4), "r-1"), &first).ok());
  ASSERT_TRUE(Cancel("ana", first).ok());
  ASSERT_TRUE(Enqueue("ana", WithId(LiarsDice(4), "r-1"), &second).ok());
  EXPECT_NE(second, first) << "cancelled: a new ticket";

  OwnStore own(url());
  const std::string key = QueueSpecFor(LiarsDice(4).settings(), false)->key;
  const absl::Time now = absl::Now();
  ASSERT_EQ(own.store.matches.ExpireTickets(key, now + absl::Seconds(1), now).value_or(-1), 1);
  // Over, the ticket binds the id to nothing: another queue is fine too.
  ASSERT_TRUE(Enqueue("ana", WithId(LiarsDice(3), "r-1"), &third).ok());
  EXPECT_NE(third, second) << "expired: a new ticket";
  EXPECT_EQ(RequestIdsOf(first), "/r-1");
  EXPECT_EQ(RequestIdsOf(second), "/r-1");
  EXPECT_EQ(RequestIdsOf(third), "r-1/");
  EXPECT_EQ(Count("SELECT count(*) FROM mm_tickets"), 3);
}

TEST_F(MatchmakingClientTest, AFreedRequestIdRefusedForOtherReasonsChangesNothing) {
  Start(/*passes=*/false);
  std::string over, active;
  ASSERT_TRUE(Enqueue("ana", WithId(LiarsDice(4), "r-1"), &over).ok());
  ASSERT_TRUE(Cancel("ana", over).ok());
  ASSERT_TRUE(Enqueue("ana", WithId(LiarsDice(4), "r-2"), &active).ok());
  const std::string before = State();

  // ana is queued with r-2: r-1 may not make a second ticket, and keeps its old one.
  const grpc::Status busy = Enqueue("ana", WithId(LiarsDice(4), "r-1"), nullptr);
  EXPECT_EQ(busy.error_code(), grpc::StatusCode::ALREADY_EXISTS);
  const absl::StatusOr<v1::ActiveTicket> in_the_way = DetailOf<v1::ActiveTicket>(busy);
  ASSERT_TRUE(in_the_way.ok()) << in_the_way.status();
  EXPECT_EQ(in_the_way->ticket_id(), active);
  EXPECT_EQ(State(), before);
  EXPECT_EQ(RequestIdsOf(over), "r-1/");

  ASSERT_TRUE(Cancel("ana", active).ok());
  const std::string cancelled = State();
  EXPECT_EQ(Enqueue("ana", WithId(LiarsDice(11), "r-1"), nullptr).error_code(),
            grpc::StatusCode::INVALID_ARGUMENT);
  const grpc::Status bad_id = Enqueue("ana", WithId(LiarsDice(4), "r 1"), nullptr);
  EXPECT_EQ(bad_id.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_THAT(bad_id.error_message(), ::testing::HasSubstr("request_id"));
  EXPECT_EQ(State(), cancelled);

  std::string renewed;
  ASSERT_TRUE(Enqueue("ana", WithId(LiarsDice(4), "r-1"), &renewed).ok());
  EXPECT_EQ(RequestIdsOf(over), "/r-1");
}

// Enqueue's batch answers as one by one: the first ticket of a freed request id takes it, a
// repeat in the same batch gets that ticket, and a refused one leaves the old ticket its id.
TEST_F(MatchmakingClientTest, ABatchHandsAFreedRequestIdOnOnce) {
  Start(/*passes=*/false);
  std::string ana_over, bora_over, bora_active;
  ASSERT_TRUE(Enqueue("ana", WithId(LiarsDice(4), "r-1"), &ana_over).ok());
  ASSERT_TRUE(Cancel("ana", ana_over).ok());
  ASSERT_TRUE(Enqueue("bora", WithId(LiarsDice(4), "r-9"), &bora_over).ok());
  ASSERT_TRUE(Cancel("bora", bora_over).ok());
  ASSERT_TRUE(Enqueue("bora", LiarsDice(4), &bora_active).ok());

  OwnStore own(url());
  const std::vector<absl::StatusOr<std::string>> answers = own.store.tickets.CreateTickets(
      {Ticket("ana", "r-1", LiarsDice(4)), Ticket("ana", "r-1", LiarsDice(4)),
       Ticket("ana", "r-1", LiarsDice(3)), Ticket("bora", "r-9", LiarsDice(4))},
      absl::Now());
  ASSERT_EQ(answers.size(), 4u);
  ASSERT_TRUE(answers[0].ok()) << answers[0].status();
  EXPECT_NE(*answers[0], ana_over);
  ASSERT_TRUE(answers[1].ok()) << answers[1].status();
  EXPECT_EQ(*answers[1], *answers[0]);
  const absl::StatusOr<v1::RequestIdInUse> in_use =
      WireDetailOf<v1::RequestIdInUse>(answers[2].status());
  ASSERT_TRUE(in_use.ok()) << in_use.status();
  EXPECT_EQ(in_use->ticket_id(), *answers[0]);
  const absl::StatusOr<v1::ActiveTicket> active =
      WireDetailOf<v1::ActiveTicket>(answers[3].status());
  ASSERT_TRUE(active.ok()) << active.status();
  EXPECT_EQ(active->ticket_id(), bora_active);
  EXPECT_EQ(RequestIdsOf(ana_over), "/r-1");
  EXPECT_EQ(RequestIdsOf(*answers[0]), "r-1/");
  EXPECT_EQ(RequestIdsOf(bora_over), "r-9/");
}

}  // namespace
}  // namespace kahve::matchmaking

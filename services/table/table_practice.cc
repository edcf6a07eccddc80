// TableHost's practice calls: opening a practice table for a player, and pausing, resuming,
// undoing and redoing at one (docs/practice.md). The session does the work; this file checks the
// caller and answers once the change is durable, like every other change.

#include <openssl/rand.h>

#include <algorithm>
#include <vector>

#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "engine/core/registry.h"
#include "services/common/sha256.h"
#include "services/table/table_host.h"
#include "services/table/table_seat_change.h"
#include "services/table/table_session.h"
#include "services/table/table_setup.h"

namespace kahve::table {
namespace {

// The practice table's match id: from the caller and their request id, so a retry finds the same
// table (and another player's id never does); random without a request id.
std::string PracticeMatchId(const std::string& subject, const std::string& request_id) {
  if (request_id.empty()) {
    unsigned char bytes[16];
    if (RAND_bytes(bytes, sizeof(bytes)) != 1) return "";
    return absl::StrCat("practice:", absl::BytesToHexString(std::string(
                                         reinterpret_cast<const char*>(bytes), sizeof(bytes))));
  }
  // Length-prefixed, so no two (subject, request id) pairs hash the same input.
  return absl::StrCat(
      "practice:",
      common::Sha256Hex(absl::StrCat(subject.size(), ":", subject, request_id)).substr(0, 40));
}

}  // namespace

void TableHost::SetEndpoint(std::string endpoint) {
  absl::MutexLock lock(&mu_);
  endpoint_ = std::move(endpoint);
}

void TableHost::CreatePracticeTable(const common::Identity& caller,
                                    const v1::CreatePracticeTableRequest& request,
                                    PracticeCreateDone done) {
  // The game's seats and bots, from the settings alone (the seed does not change them).
  v1::Deal probe;
  probe.set_seed(1);
  absl::StatusOr<std::unique_ptr<engine::Game>> game = engine::NewGame(request.settings(), probe);
  if (!game.ok()) {
    done(absl::InvalidArgumentError(absl::StrCat("settings: ", game.status().message())));
    return;
  }
  const int num_seats = (*game)->num_seats();
  if (request.seat() < 0 || request.seat() >= num_seats) {
    done(absl::InvalidArgumentError(absl::StrCat(
        "seat: ", request.seat(), " is not a seat of this game (0..", num_seats - 1, ")")));
    return;
  }
  std::vector<bool> human(num_seats, false);
  human[request.seat()] = true;
  for (int index = 0; index < request.more_seats_size(); ++index) {
    const int seat = request.more_seats(index);
    if (seat < 0 || seat >= num_seats || human[seat]) {
      done(absl::InvalidArgumentError(
          absl::StrCat("more_seats[", index, "]: ", seat,
                       seat < 0 || seat >= num_seats
                           ? absl::StrCat(" is not a seat of this game (0..", num_seats - 1, ")")
                           : " is already the caller's")));
      return;
    }
    human[seat] = true;
  }
  const std::vector<std::string> kinds = (*game)->BotKinds();
  const std::string bot_kind =
      request.bot_kind().empty() ? TakeoverBotKind(**game) : request.bot_kind();
  if (std::find(kinds.begin(), kinds.end(), bot_kind) == kinds.end()) {
    done(absl::InvalidArgumentError(absl::StrCat("bot_kind: unknown bot \"", bot_kind,
                                                 "\"; known: ", absl::StrJoin(kinds, ", "))));
    return;
  }
  v1::CreateTableRequest table;
  table.set_match_id(PracticeMatchId(caller.subject, request.request_id()));
  if (table.match_id().empty()) {
    done(absl::InternalError("no randomness for a practice table id"));
    return;
  }
  *table.mutable_settings() = request.settings();
  *table.mutable_options() = request.options();
  for (int seat = 0; seat < num_seats; ++seat) {
    v1::SeatSpec* spec = table.add_seats();
    if (human[seat]) {
      spec->set_player_id(caller.subject);
    } else {
      spec->set_bot_kind(bot_kind);
    }
  }
  if (request.has_seed()) table.set_seed(request.seed());
  std::string endpoint;
  {
    absl::MutexLock lock(&mu_);
    endpoint = endpoint_;
  }
  // Counted from before its creation, so a flood of creations cannot pass the budget.
  if (absl::Status reserved = ReservePractice(caller.subject, table.match_id(), /*force=*/false);
      !reserved.ok()) {
    done(reserved);
    return;
  }
  OpenTable(table, /*practice=*/true,
            [this, done, endpoint, player = caller.subject, match_id = table.match_id(),
             seat = request.seat()](CreateOutcome outcome) {
              absl::StatusOr<v1::CreateTableResponse>& created = outcome.created;
              if (!created.ok()) {
                // Not created. ALREADY_EXISTS: another request under the same request id holds
                // the table, and the place it counts in. (Some answers come under mu_: no lock
                // here.)
                if (!absl::IsAlreadyExists(created.status())) ReleasePractice(player, match_id);
                done(created.status());
                return;
              }
              v1::CreatePracticeTableResponse response;
              response.set_table_id(created->table_id());
              for (const auto& grant : created->seats()) {
                if (grant.seat_token().empty()) continue;  // a bot's seat
                *response.add_seats() = grant;
                if (grant.seat() != seat) continue;
                response.set_seat(grant.seat());
                response.set_seat_token(grant.seat_token());
              }
              response.set_table_endpoint(endpoint);
              done(std::move(response));
            });
}

void TableHost::Practice(const TablePtr& table, const common::Identity& caller,
                         const v1::PracticeRequest& request, v1::PracticeChange::Kind kind,
                         std::function<void(absl::StatusOr<v1::PracticeResponse>)> done) {
  const std::optional<uint64_t> expected_seq =
      request.has_expected_seq() ? std::optional<uint64_t>(request.expected_seq()) : std::nullopt;
  ChangeForSeat<v1::PracticeResponse>(
      table, caller, request.seat_token(),
      [kind, expected_seq, clock = clock_](TableSession& session, int seat)
          -> absl::StatusOr<SeatChangeAnswer<v1::PracticeResponse>> {
        auto changed = session.Practice(seat, kind, expected_seq, clock->Now());
        if (!changed.ok()) return changed.status();
        SeatChangeAnswer<v1::PracticeResponse> answer;
        answer.applied = std::move(changed->applied);
        answer.response.set_seq(changed->seq);
        *answer.response.mutable_view() = session.game().View(seat);
        *answer.response.mutable_practice() = session.PracticeState();
        return answer;
      },
      std::move(done));
}

}  // namespace kahve::table

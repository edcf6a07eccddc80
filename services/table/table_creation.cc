#include "services/table/table_creation.h"

#include <openssl/rand.h>

#include <algorithm>
#include <memory>
#include <vector>

#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "engine/core/registry.h"
#include "services/common/sha256.h"
#include "services/table/deal_commitment.h"
#include "services/table/seat_tokens.h"
#include "services/table/table_setup.h"
#include "services/table/table_updates.h"

namespace kahve::table {
namespace {

std::string RandomHex(int bytes) {
  std::string raw(static_cast<size_t>(bytes), '\0');
  if (RAND_bytes(reinterpret_cast<unsigned char*>(raw.data()), bytes) != 1) return "";
  return absl::BytesToHexString(raw);
}

// The practice table's match id: from the caller and their request id, so a retry finds the same
// table (and another player's id never does); random without a request id.
std::string PracticeMatchId(const std::string& subject, const std::string& request_id) {
  if (request_id.empty()) {
    const std::string random = RandomHex(16);
    return random.empty() ? "" : absl::StrCat("practice:", random);
  }
  // Length-prefixed, so no two (subject, request id) pairs hash the same input.
  return absl::StrCat(
      "practice:",
      common::Sha256Hex(absl::StrCat(subject.size(), ":", subject, request_id)).substr(0, 40));
}

// Which seats of a `num_seats` game the caller takes: `seat`, and `more_seats`.
absl::StatusOr<std::vector<bool>> CallerSeats(const v1::CreatePracticeTableRequest& request,
                                              int num_seats) {
  const auto not_a_seat = [num_seats] {
    return absl::StrCat(" is not a seat of this game (0..", num_seats - 1, ")");
  };
  if (request.seat() < 0 || request.seat() >= num_seats) {
    return absl::InvalidArgumentError(absl::StrCat("seat: ", request.seat(), not_a_seat()));
  }
  std::vector<bool> human(num_seats, false);
  human[request.seat()] = true;
  for (int index = 0; index < request.more_seats_size(); ++index) {
    const int seat = request.more_seats(index);
    if (seat < 0 || seat >= num_seats || human[seat]) {
      return absl::InvalidArgumentError(
          absl::StrCat("more_seats[", index, "]: ", seat,
                       seat < 0 || seat >= num_seats ? not_a_seat() : " is already the caller's"));
    }
    human[seat] = true;
  }
  return human;
}

}  // namespace

std::string NewTableId() {
  const std::string random = RandomHex(12);
  return random.empty() ? "" : absl::StrCat("t-", random);
}

absl::StatusOr<v1::TableLogEntry> CreationEntry(const v1::CreateTableRequest& request,
                                                bool practice, const std::string& table_id,
                                                const std::string& seat_token_key, absl::Time now) {
  v1::TableLogEntry entry;
  *entry.mutable_at() = ToTimestamp(now);
  v1::TableCreated* created = entry.mutable_created();
  created->set_table_id(table_id);
  created->set_match_id(request.match_id());
  *created->mutable_settings() = request.settings();
  *created->mutable_options() = request.options();
  *created->mutable_seats() = request.seats();
  created->set_practice(practice);
  v1::Deal& deal = *created->mutable_deal();
  if (request.has_deal()) deal = request.deal();
  if (request.has_seed()) {
    deal.set_seed(request.seed());
  } else if (!request.has_deal()) {
    absl::StatusOr<uint64_t> seed = NewSeed();
    if (!seed.ok()) return seed.status();
    deal.set_seed(*seed);
  }
  // Published from the start, before anything is dealt; the salt stays in the log until the end.
  absl::StatusOr<std::string> salt = NewSalt();
  if (!salt.ok()) return salt.status();
  *created->mutable_commitment() =
      Commit(SourceOf(practice, request.has_seed() || request.has_deal(), deal), *salt, deal);
  created->set_deal_salt(absl::BytesToHexString(*salt));
  for (int seat = 0; seat < request.seats_size(); ++seat) {
    created->add_seat_token_sha256(
        request.seats(seat).has_player_id()
            ? SeatTokenSha256(DerivedSeatToken(seat_token_key, table_id, seat))
            : "");
  }
  return entry;
}

v1::CreateTableResponse CreateAnswer(const std::string& seat_token_key, const std::string& table_id,
                                     const TableSession& session) {
  v1::CreateTableResponse response;
  response.set_table_id(table_id);
  const std::vector<v1::SeatStatus> seats = session.SeatStatuses();
  for (int seat = 0; seat < session.num_seats(); ++seat) {
    auto* grant = response.add_seats();
    grant->set_seat(seat);
    grant->set_player_id(seats[seat].player_id());
    if (!seats[seat].player_id().empty()) {
      grant->set_seat_token(DerivedSeatToken(seat_token_key, table_id, seat));
    }
  }
  return response;
}

absl::StatusOr<v1::CreateTableRequest> PracticeTableRequest(
    const common::Identity& caller, const v1::CreatePracticeTableRequest& request) {
  // The game's seats and bots, from the settings alone (the seed does not change them).
  v1::Deal probe;
  probe.set_seed(1);
  absl::StatusOr<std::unique_ptr<engine::Game>> game = engine::NewGame(request.settings(), probe);
  if (!game.ok()) {
    return absl::InvalidArgumentError(absl::StrCat("settings: ", game.status().message()));
  }
  const int num_seats = (*game)->num_seats();
  absl::StatusOr<std::vector<bool>> human = CallerSeats(request, num_seats);
  if (!human.ok()) return human.status();
  const std::vector<std::string> kinds = (*game)->BotKinds();
  const std::string bot_kind =
      request.bot_kind().empty() ? TakeoverBotKind(**game) : request.bot_kind();
  if (std::find(kinds.begin(), kinds.end(), bot_kind) == kinds.end()) {
    return absl::InvalidArgumentError(absl::StrCat("bot_kind: unknown bot \"", bot_kind,
                                                   "\"; known: ", absl::StrJoin(kinds, ", ")));
  }
  v1::CreateTableRequest table;
  table.set_match_id(PracticeMatchId(caller.subject, request.request_id()));
  if (table.match_id().empty()) return absl::InternalError("no randomness for a practice table id");
  *table.mutable_settings() = request.settings();
  *table.mutable_options() = request.options();
  for (int seat = 0; seat < num_seats; ++seat) {
    v1::SeatSpec* spec = table.add_seats();
    if ((*human)[seat]) {
      spec->set_player_id(caller.subject);
    } else {
      spec->set_bot_kind(bot_kind);
    }
  }
  if (request.has_seed()) table.set_seed(request.seed());
  return table;
}

}  // namespace kahve::table

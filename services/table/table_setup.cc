#include "services/table/table_setup.h"

#include <algorithm>
#include <map>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "engine/core/registry.h"
#include "services/common/ids.h"
#include "services/common/time.h"
#include "services/table/deal_commitment.h"
#include "services/table/table_session.h"

namespace kahve::table {
namespace {

absl::Status Invalid(const std::string& field, const std::string& message) {
  return absl::InvalidArgumentError(absl::StrCat("created.", field, ": ", message));
}

bool IsLowerHexDigest(const std::string& digest) {
  return digest.size() == 64 && std::all_of(digest.begin(), digest.end(), [](char c) {
           return absl::ascii_isdigit(c) || (c >= 'a' && c <= 'f');
         });
}

absl::Status CheckOptions(const v1::TableOptions& options) {
  if (options.turn_seconds() < 0 || options.turn_seconds() > kMaxTurnSeconds) {
    return Invalid("options.turn_seconds", absl::StrCat("must be in 0..", kMaxTurnSeconds));
  }
  if (options.away_grace_seconds() < 0 || options.away_grace_seconds() > kMaxAwayGraceSeconds) {
    return Invalid("options.away_grace_seconds",
                   absl::StrCat("must be in 0..", kMaxAwayGraceSeconds));
  }
  if (options.bot_delay_ms() < 0 || options.bot_delay_ms() > kMaxBotDelayMs) {
    return Invalid("options.bot_delay_ms", absl::StrCat("must be in 0..", kMaxBotDelayMs));
  }
  return absl::OkStatus();
}

// Player ids and token digests seen so far, each with its seat.
struct SeenSeats {
  std::map<std::string, int> player;
  std::map<std::string, int> digest;
};

absl::Status CheckSeat(const v1::TableCreated& created, int index,
                       const std::vector<std::string>& bot_kinds, SeenSeats* seen) {
  const v1::SeatSpec& seat = created.seats(index);
  const std::string field = absl::StrCat("seats[", index, "]");
  const std::string& digest = created.seat_token_sha256(index);
  const std::string digest_field = absl::StrCat("seat_token_sha256[", index, "]");
  switch (seat.occupant_case()) {
    case v1::SeatSpec::kBotKind:
      if (std::find(bot_kinds.begin(), bot_kinds.end(), seat.bot_kind()) == bot_kinds.end()) {
        return Invalid(field + ".bot_kind",
                       absl::StrCat("unknown bot \"", seat.bot_kind(),
                                    "\"; known: ", absl::StrJoin(bot_kinds, ", ")));
      }
      if (!digest.empty()) return Invalid(digest_field, "must be empty for a bot seat");
      return absl::OkStatus();
    case v1::SeatSpec::kPlayerId: {
      if (seat.player_id().empty()) return Invalid(field + ".player_id", "must not be empty");
      // The rating service's id rules: an id it refused would leave the result undeliverable.
      if (!common::IsValidPlayerId(seat.player_id())) {
        return Invalid(field + ".player_id", common::kPlayerIdRule);
      }
      const auto [player, new_player] = seen->player.emplace(seat.player_id(), index);
      // At a practice table one player may hold several seats (pass-and-play).
      if (!new_player && !created.practice()) {
        return Invalid(
            field + ".player_id",
            absl::StrCat("\"", seat.player_id(), "\" already holds seat ", player->second));
      }
      if (!IsLowerHexDigest(digest)) {
        return Invalid(digest_field, "must be a SHA-256 in 64 lowercase hex digits");
      }
      // One token must open one seat only.
      const auto [other, new_digest] = seen->digest.emplace(digest, index);
      if (!new_digest) return Invalid(digest_field, absl::StrCat("same as seat ", other->second));
      return absl::OkStatus();
    }
    case v1::SeatSpec::OCCUPANT_NOT_SET:
      break;
  }
  return Invalid(field, "set player_id or bot_kind");
}

// The commitment must open with the stored salt: a log whose deal, seed or salt changed after the
// commitment was published is refused rather than played on.
absl::Status CheckCommitment(const v1::TableCreated& created) {
  if (!created.has_commitment()) {
    // A log written before commitments existed.
    if (!created.deal_salt().empty()) return Invalid("deal_salt", "set without a commitment");
    return absl::OkStatus();
  }
  absl::StatusOr<std::string> salt = DecodeHex32(created.deal_salt(), "deal_salt");
  if (!salt.ok()) return Invalid("deal_salt", "must be 64 lowercase hex digits (32 bytes)");
  const v1::DealReveal reveal = Reveal(created.commitment().source(), *salt, created.deal());
  const absl::Status opened = CheckReveal(created.commitment(), reveal, created.deal());
  if (!opened.ok()) return Invalid("commitment", std::string(opened.message()));
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<std::unique_ptr<engine::Game>> CheckCreated(const v1::TableLogEntry& entry) {
  if (!entry.has_created()) {
    return absl::InvalidArgumentError("entry: a table starts with a TableCreated entry");
  }
  if (entry.seq() != 0) return absl::InvalidArgumentError("seq: a creation entry has seq 0");
  if (!entry.has_at() || !common::IsValidTimestamp(entry.at())) {
    return absl::InvalidArgumentError("at: must be a valid timestamp");
  }
  const v1::TableCreated& created = entry.created();
  if (created.table_id().empty()) return Invalid("table_id", "must not be empty");
  if (!common::IsValidMatchId(created.match_id())) {
    return Invalid("match_id", common::kMatchIdRule);
  }
  absl::StatusOr<std::unique_ptr<engine::Game>> game =
      engine::NewGame(created.settings(), created.deal());
  if (!game.ok()) return Invalid("settings", std::string(game.status().message()));
  absl::Status options = CheckOptions(created.options());
  if (!options.ok()) return options;
  absl::Status commitment = CheckCommitment(created);
  if (!commitment.ok()) return commitment;

  const int num_seats = (*game)->num_seats();
  if (created.seats_size() != num_seats) {
    return Invalid("seats", absl::StrCat(created.seats_size(), " given, the game has ", num_seats));
  }
  if (created.seat_token_sha256_size() != num_seats) {
    return Invalid("seat_token_sha256",
                   absl::StrCat(created.seat_token_sha256_size(), " given, one per seat needed (",
                                num_seats, ")"));
  }
  const std::vector<std::string> bot_kinds = (*game)->BotKinds();
  SeenSeats seen;
  for (int index = 0; index < num_seats; ++index) {
    absl::Status seat = CheckSeat(created, index, bot_kinds, &seen);
    if (!seat.ok()) return seat;
  }
  if (created.practice() && seen.player.size() != 1) {
    return Invalid("seats", absl::StrCat("a practice table has one player (at one seat or more), "
                                         "not ",
                                         seen.player.size()));
  }
  return game;
}

std::string TakeoverBotKind(const engine::Game& game) {
  const std::vector<std::string> kinds = game.BotKinds();
  if (std::find(kinds.begin(), kinds.end(), "heuristic") != kinds.end()) return "heuristic";
  return kinds.empty() ? "" : kinds.front();
}

}  // namespace kahve::table

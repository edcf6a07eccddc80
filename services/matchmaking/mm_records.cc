#include "services/matchmaking/mm_records.h"

#include <openssl/rand.h>

#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "kahve/v1/matchmaking.pb.h"
#include "services/common/status.h"

namespace kahve::matchmaking {

std::string NewId(const char* prefix) {
  unsigned char bytes[16];
  if (RAND_bytes(bytes, sizeof(bytes)) != 1) return "";
  return absl::StrCat(prefix, absl::BytesToHexString(absl::string_view(
                                  reinterpret_cast<const char*>(bytes), sizeof(bytes))));
}

std::string NewInviteCode() {
  static constexpr char kAlphabet[] = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789";  // 32 symbols
  unsigned char bytes[10];
  if (RAND_bytes(bytes, sizeof(bytes)) != 1) return "";
  std::string code;
  for (unsigned char byte : bytes) code.push_back(kAlphabet[byte % 32]);
  return code;
}

int64_t Micros(absl::Time time) { return absl::ToUnixMicros(time); }

absl::Status PlayerHasActiveTicket(const std::string& player_id, const std::string& ticket_id) {
  v1::ActiveTicket detail;
  detail.set_player_id(player_id);
  detail.set_ticket_id(ticket_id);
  return common::WithDetail(absl::AlreadyExistsError(absl::StrCat(
                                "player ", player_id, " already has active ticket ", ticket_id)),
                            detail);
}

absl::Status RequestIdReused(const std::string& request_id, const std::string& ticket_id) {
  v1::RequestIdInUse detail;
  detail.set_request_id(request_id);
  detail.set_ticket_id(ticket_id);
  return common::WithDetail(
      absl::AlreadyExistsError(absl::StrCat("request_id: already used for ticket ", ticket_id,
                                            " of another queue; use a new id")),
      detail);
}

bool StorableText(std::string_view text) { return text.find('\0') == std::string_view::npos; }

absl::Status CheckStorable(const NewTicket& ticket) {
  if (!StorableText(ticket.owner)) return absl::InvalidArgumentError("owner: holds NUL");
  if (!StorableText(ticket.request_id)) return absl::InvalidArgumentError("request_id: holds NUL");
  for (const std::string& player : ticket.players) {
    if (!StorableText(player)) return absl::InvalidArgumentError("players: a player id holds NUL");
  }
  if (!StorableText(ticket.queue_key)) return absl::InvalidArgumentError("queue key holds NUL");
  return absl::OkStatus();
}

}  // namespace kahve::matchmaking

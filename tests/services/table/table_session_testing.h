#ifndef KAHVE_TESTS_SERVICES_TABLE_TABLE_SESSION_TESTING_H_
#define KAHVE_TESTS_SERVICES_TABLE_TABLE_SESSION_TESTING_H_

// Building blocks for table session tests: creation entries, Liar's dice moves, and driving the
// session's clock until nothing more is due.

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/time/time.h"
#include "gtest/gtest.h"
#include "kahve/v1/table.pb.h"
#include "services/table/seat_tokens.h"
#include "services/table/table_session.h"
#include "services/table/table_updates.h"

namespace kahve::table::testing {

inline const absl::Time kStart = absl::FromUnixSeconds(1'700'000'000);

inline v1::SeatSpec Player(const std::string& id) {
  v1::SeatSpec seat;
  seat.set_player_id(id);
  return seat;
}

inline v1::SeatSpec Bot(const std::string& kind) {
  v1::SeatSpec seat;
  seat.set_bot_kind(kind);
  return seat;
}

// The token minted for `seat` in these tests.
inline std::string TokenOf(int seat) { return absl::StrCat("seat-token-", seat); }

// A Liar's dice table with one seat per spec, the deal drawn from `seed`; dice_per_player 0 means
// the default.
inline v1::TableLogEntry CreatedEntry(const std::vector<v1::SeatSpec>& seats, uint64_t seed,
                                      int turn_seconds = 0, int dice_per_player = 0) {
  v1::TableLogEntry entry;
  entry.set_seq(0);
  *entry.mutable_at() = ToTimestamp(kStart);
  v1::TableCreated* created = entry.mutable_created();
  created->set_table_id("table-1");
  created->set_match_id("match-1");
  v1::LiarsDiceSettings* settings = created->mutable_settings()->mutable_liars_dice();
  settings->set_players(static_cast<int>(seats.size()));
  // Unset asks for the default: a written 0 is refused.
  if (dice_per_player > 0) settings->set_dice_per_player(dice_per_player);
  created->mutable_deal()->set_seed(seed);
  created->mutable_options()->set_turn_seconds(turn_seconds);
  for (int index = 0; index < static_cast<int>(seats.size()); ++index) {
    *created->add_seats() = seats[index];
    created->add_seat_token_sha256(seats[index].has_player_id() ? SeatTokenSha256(TokenOf(index))
                                                                : "");
  }
  return entry;
}

// Fixes the first round's dice (every seat rolls `dice`) and the first bidder.
inline void PresetFirstRound(v1::TableLogEntry* entry, std::vector<int> dice, int first_bidder) {
  v1::LiarsDicePreset* preset = entry->mutable_created()->mutable_deal()->mutable_liars_dice();
  preset->set_first_bidder(first_bidder);
  v1::LiarsDiceRoll* roll = preset->add_rolls();
  for (int seat = 0; seat < entry->created().seats_size(); ++seat) {
    v1::LiarsDiceRoll::SeatDice* seat_dice = roll->add_seats();
    for (int die : dice) seat_dice->add_dice(die);
  }
}

inline std::unique_ptr<TableSession> MustCreate(const v1::TableLogEntry& entry) {
  absl::StatusOr<std::unique_ptr<TableSession>> session = TableSession::Create(entry);
  EXPECT_TRUE(session.ok()) << session.status();
  return session.ok() ? *std::move(session) : nullptr;
}

inline v1::Move Bid(int quantity, int face) {
  v1::Move move;
  v1::LiarsDiceBid* bid = move.mutable_liars_dice()->mutable_bid();
  bid->set_quantity(quantity);
  bid->set_face(face);
  return move;
}

inline v1::Move Challenge() {
  v1::Move move;
  move.mutable_liars_dice()->mutable_challenge();
  return move;
}

// Calls Due one second apart until the game is over or nothing is due any more; every entry
// applied, in order.
inline std::vector<AppliedEntry> DriveClock(TableSession* session, absl::Time* now,
                                            int max_calls = 10'000) {
  std::vector<AppliedEntry> entries;
  for (int call = 0; call < max_calls && !session->over(); ++call) {
    std::vector<AppliedEntry> due = session->Due(*now);
    if (due.empty() && session->NextDeadline() > *now + absl::Hours(1)) break;
    for (AppliedEntry& applied : due) entries.push_back(std::move(applied));
    *now += absl::Seconds(1);
  }
  return entries;
}

// Every view of the table (each seat's and a spectator's), serialized.
inline std::vector<std::string> AllViews(const TableSession& session) {
  std::vector<std::string> views;
  for (int seat = -1; seat < session.num_seats(); ++seat) {
    views.push_back(session.game().View(seat).SerializeAsString());
  }
  return views;
}

}  // namespace kahve::table::testing

#endif  // KAHVE_TESTS_SERVICES_TABLE_TABLE_SESSION_TESTING_H_

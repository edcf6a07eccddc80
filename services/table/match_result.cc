#include "services/table/match_result.h"

#include "google/protobuf/io/coded_stream.h"
#include "google/protobuf/io/zero_copy_stream_impl_lite.h"
#include "services/common/sha256.h"
#include "services/table/table_observations.h"

namespace kahve::table {

v1::RecordMatchRequest MatchResultOf(const TableSession& session, const std::string& ruleset,
                                     absl::Time started, absl::Time ended) {
  v1::RecordMatchRequest request;
  request.set_match_id(session.match_id());
  request.set_ruleset(ruleset);
  *request.mutable_settings() = session.game().settings();
  *request.mutable_started_at() = ToTimestamp(started);
  *request.mutable_ended_at() = ToTimestamp(ended);
  const v1::Result result = *session.result();
  request.set_mode(GameMode(/*practice=*/false, result) == "teams" ? v1::TEAMS : v1::SOLO);
  for (const v1::Result::Round& round : result.rounds()) {
    v1::RoundScores* scores = request.add_rounds();
    scores->set_round(round.round());
    *scores->mutable_seat_scores() = round.seat_scores();
    scores->set_ending(round.ending());
  }
  const std::vector<SeatOutcome> outcomes = session.SeatOutcomes();
  for (const v1::Result::SeatResult& seat : result.seats()) {
    const SeatOutcome& outcome = outcomes[seat.seat()];
    v1::Participant* participant = request.add_participants();
    participant->set_player_id(outcome.player_id);
    participant->set_seat(seat.seat());
    participant->set_team(seat.team());
    participant->set_final_score(seat.score());
    participant->set_rank(seat.rank());
    participant->set_bot(outcome.bot_seat);
    participant->set_abandoned(outcome.resigned || outcome.away_at_end);
    participant->set_mostly_bot_played(!outcome.bot_seat && outcome.mostly_bot_played());
  }
  return request;
}

std::string CreateFingerprint(const std::string& match_id, const v1::GameSettings& settings,
                              const v1::TableOptions& options,
                              const google::protobuf::RepeatedPtrField<v1::SeatSpec>& seats) {
  v1::CreateTableRequest normal;
  normal.set_match_id(match_id);
  *normal.mutable_settings() = settings;
  *normal.mutable_options() = options;
  *normal.mutable_seats() = seats;
  std::string bytes;
  google::protobuf::io::StringOutputStream stream(&bytes);
  google::protobuf::io::CodedOutputStream coded(&stream);
  coded.SetSerializationDeterministic(true);
  normal.SerializeToCodedStream(&coded);
  coded.Trim();
  return common::Sha256(bytes);
}

}  // namespace kahve::table

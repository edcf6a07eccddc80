#include "engine/mexican_train/mexican_train_text.h"

#include <algorithm>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace kahve::engine::mexican_train {
namespace {

std::string TrainName(int train) {
  return train < 0 ? std::string("the Mexican train") : absl::StrCat(SeatText(train), "'s train");
}

std::string Tiles(const google::protobuf::RepeatedPtrField<std::string>& tiles) {
  return tiles.empty() ? std::string("-") : absl::StrJoin(tiles, " ");
}

// "train 1: 12-5 5-5 5-9 end 9, open"; a long train shows its last tiles only. `personal`: say
// whether others may play on it (the Mexican train is always open).
std::string Train(const std::string& name, const v1::MexicanTrainView::Train& train,
                  bool personal) {
  constexpr int kShown = 6;
  std::vector<std::string> tiles;
  const int first = std::max(0, train.tiles_size() - kShown);
  for (int i = first; i < train.tiles_size(); ++i) tiles.push_back(train.tiles(i));
  return absl::StrCat(name, ": ", first > 0 ? absl::StrCat("(", first, " more) ") : "",
                      tiles.empty() ? std::string("-") : absl::StrJoin(tiles, " "), " end ",
                      train.end(),
                      !personal        ? ""
                      : train.marked() ? ", open"
                                       : ", closed");
}

std::string Settings(const v1::GameSettings& settings) {
  return absl::StrCat(settings.mexican_train().players(), " players, 13 rounds (12-12 to 0-0)");
}

std::string Move(const v1::Move& move) {
  const v1::MexicanTrainMove& train = move.mexican_train();
  switch (train.action_case()) {
    case v1::MexicanTrainMove::kPlay:
      return absl::StrCat("plays ", train.play().tile(), " on ", TrainName(train.play().train()));
    case v1::MexicanTrainMove::kDraw:
      return "draws from the boneyard";
    case v1::MexicanTrainMove::kPass:
      return "passes (its train opens)";
    case v1::MexicanTrainMove::kEndFirstTurn:
      return "ends its first turn";
    case v1::MexicanTrainMove::ACTION_NOT_SET:
      break;
  }
  return "(no action)";
}

std::string RoundEnded(const v1::MexicanTrainEvent::RoundEnded& ended) {
  std::string text =
      absl::StrCat("round ", ended.round(), " ends, ",
                   ended.went_out() < 0 ? std::string("blocked")
                                        : absl::StrCat(SeatText(ended.went_out()), " went out"));
  for (int seat = 0; seat < ended.seats_size(); ++seat) {
    const auto& end = ended.seats(seat);
    absl::StrAppend(&text, "\n", SeatText(seat), " held [", Tiles(end.hand()),
                    "] = ", end.penalty(), ", total ", end.total());
  }
  return text;
}

std::string Event(const v1::Event& event) {
  const v1::MexicanTrainEvent& train = event.mexican_train();
  const std::string seat = SeatText(event.has_seat() ? event.seat() : -1);
  switch (train.event_case()) {
    case v1::MexicanTrainEvent::kRoundStarted: {
      const auto& round = train.round_started();
      return absl::StrCat("round ", round.round(), " starts, engine ", round.engine(), " from ",
                          SeatText(round.owner()), "; boneyard ", round.boneyard_count(),
                          "; hands ", PerSeatText(round.hand_counts()), "; drawn in the search ",
                          PerSeatText(round.search_draws()));
    }
    case v1::MexicanTrainEvent::kTilesDealt:
      return absl::StrCat(seat, " holds ", Tiles(train.tiles_dealt().tiles()));
    case v1::MexicanTrainEvent::kTilePlayed: {
      const auto& played = train.tile_played();
      return absl::StrCat(seat, " plays ", played.tile(), " on ", TrainName(played.train()),
                          ", its end now ", played.end(), " (", played.hand_count(), " in hand)");
    }
    case v1::MexicanTrainEvent::kDrew:
      return absl::StrCat(seat, " draws (", train.drew().boneyard_count(),
                          " left in the boneyard)");
    case v1::MexicanTrainEvent::kTileDrawn:
      return absl::StrCat(seat, " drew ", train.tile_drawn().tile());
    case v1::MexicanTrainEvent::kPassed:
      return absl::StrCat(seat, " passes; its train is open to everyone");
    case v1::MexicanTrainEvent::kFirstTurnEnded:
      return absl::StrCat(seat, " ends its first turn");
    case v1::MexicanTrainEvent::kRoundEnded:
      return RoundEnded(train.round_ended());
    case v1::MexicanTrainEvent::EVENT_NOT_SET:
      break;
  }
  return "";
}

std::vector<std::string> View(const v1::View& view) {
  const v1::MexicanTrainView& train = view.mexican_train();
  std::vector<std::string> lines;
  lines.push_back(absl::StrCat("round ", train.round(), " of 13, engine ", train.engine(),
                               "; boneyard ", train.boneyard_count(), "; totals ",
                               PerSeatText(train.totals())));
  if (view.seat() >= 0) lines.push_back(absl::StrCat("your hand ", Tiles(train.my_hand())));
  lines.push_back(absl::StrCat("hands ", PerSeatText(train.hand_counts())));
  for (int seat = 0; seat < train.trains_size(); ++seat) {
    lines.push_back(Train(absl::StrCat("train ", seat), train.trains(seat), /*personal=*/true));
  }
  lines.push_back(Train("Mexican train", train.mexican(), /*personal=*/false));
  if (!train.open_doubles().empty()) {
    std::vector<std::string> doubles;
    for (int owner : train.open_doubles()) doubles.push_back(TrainName(owner));
    lines.push_back(absl::StrCat("doubles to satisfy: ", absl::StrJoin(doubles, ", ")));
  }
  return lines;
}

}  // namespace

const RulesetText& Text() {
  static const RulesetText kText{
      .settings = &Settings, .move = &Move, .event = &Event, .view = &View};
  return kText;
}

}  // namespace kahve::engine::mexican_train

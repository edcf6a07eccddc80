// okey51 and okey101 at a real table (gRPC and PostgreSQL): four players play a deal through the
// service, and GetHints serves each seat its own hints where the table's settings turn them on.

#include <algorithm>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/synchronization/notification.h"
#include "gmock/gmock.h"
#include "google/protobuf/descriptor.pb.h"
#include "google/protobuf/dynamic_message.h"
#include "google/protobuf/util/message_differencer.h"
#include "grpcpp/generic/generic_stub.h"
#include "gtest/gtest.h"
#include "tests/services/service_testing.h"
#include "tests/services/table/table_fixture.h"

namespace kahve::table {
namespace {

using ::google::protobuf::util::MessageDifferencer;

const std::vector<std::string> kFour = {"ana", "ben", "cem", "dua"};

v1::TableOptions Relaxed() {
  v1::TableOptions options;
  options.set_away_grace_seconds(60);
  return options;
}

// The laying okey's part of a view or event, whichever of the two rulesets holds it.
const v1::OkeyLayingView& Laying(const v1::View& view) {
  return view.has_okey101() ? view.okey101() : view.okey51();
}
v1::OkeyLayingView* MutableLaying(v1::View* view) {
  return view->has_okey101() ? view->mutable_okey101() : view->mutable_okey51();
}
const v1::OkeyLayingEvent& Laying(const v1::Event& event) {
  return event.has_okey101() ? event.okey101() : event.okey51();
}

class TableLayingOkeyTest : public TableServiceTest,
                            public ::testing::WithParamInterface<std::string> {
 protected:
  bool okey101() const { return GetParam() == "okey101"; }
  v1::GameSettings Settings(bool hints) const {
    v1::GameSettings settings;
    if (okey101()) {
      settings.mutable_okey101()->set_hints(hints);
      settings.mutable_okey101()->set_deals(3);  // the fewest
    } else {
      settings.mutable_okey51()->set_hints(hints);
    }
    return settings;
  }

  grpc::Status Hints(const std::string& table_id, const std::string& player,
                     const std::string& token, v1::GetHintsResponse* response) {
    auto context = kahve::testing::ContextFor(player);
    v1::GetHintsRequest request;
    request.set_table_id(table_id);
    request.set_seat_token(token);
    return stub().GetHints(context.get(), request, response);
  }
};

// kahve.v1 as a client built before okey51 and okey101 had Hints fields of their own knows it:
// today's files with Hints' fields okey101 (12) and okey51 (13) taken out.
class EarlierProtos {
 public:
  EarlierProtos() { Add(v1::GetHintsResponse::descriptor()->file()); }
  // `bytes` parsed as that client's GetHintsResponse.
  std::unique_ptr<google::protobuf::Message> ParseHintsResponse(const std::string& bytes) {
    const google::protobuf::Descriptor* type =
        pool_.FindMessageTypeByName("kahve.v1.GetHintsResponse");
    std::unique_ptr<google::protobuf::Message> message(factory_.GetPrototype(type)->New());
    if (!message->ParseFromString(bytes)) return nullptr;
    return message;
  }

 private:
  void Add(const google::protobuf::FileDescriptor* file) {
    if (pool_.FindFileByName(file->name()) != nullptr) return;
    for (int index = 0; index < file->dependency_count(); ++index) Add(file->dependency(index));
    google::protobuf::FileDescriptorProto proto;
    file->CopyTo(&proto);
    for (google::protobuf::DescriptorProto& message : *proto.mutable_message_type()) {
      if (message.name() != "Hints") continue;
      google::protobuf::DescriptorProto earlier = message;
      earlier.clear_field();
      for (const google::protobuf::FieldDescriptorProto& field : message.field()) {
        if (field.number() != 12 && field.number() != 13) *earlier.add_field() = field;
      }
      message = earlier;
    }
    EXPECT_NE(pool_.BuildFile(proto), nullptr) << file->name();
  }

  google::protobuf::DescriptorPool pool_;
  google::protobuf::DynamicMessageFactory factory_{&pool_};
};

// The tiles the hints sort (groups and loose), as names, sorted.
std::vector<std::string> HintedTiles(const v1::OkeyHints& hints) {
  std::vector<std::string> tiles(hints.loose().begin(), hints.loose().end());
  for (const v1::OkeyMeld& group : hints.groups()) {
    for (const v1::OkeyPlacedTile& tile : group.tiles()) tiles.push_back(tile.tile());
  }
  std::sort(tiles.begin(), tiles.end());
  return tiles;
}

TEST_P(TableLayingOkeyTest, FourPlayersPlayADealAndEachSeatGetsItsOwnHints) {
  std::string table_id;
  const v1::GameSettings settings = Settings(/*hints=*/true);
  const std::vector<Player> players = CreateTable(kFour, Relaxed(), &table_id, 7, &settings);
  ASSERT_EQ(players.size(), 4u);

  for (const Player& player : players) {
    v1::GetHintsResponse hints;
    ASSERT_TRUE(Hints(table_id, player.id, player.token, &hints).ok()) << player.id;
    auto view = View(table_id, player.id, player.token);
    ASSERT_TRUE(view.ok());
    std::vector<std::string> hand(Laying(view->view()).my_hand().begin(),
                                  Laying(view->view()).my_hand().end());
    std::sort(hand.begin(), hand.end());
    // The hints sort exactly the seat's own hand: every tile once, nobody else's.
    // Under the ruleset's own name, as in Move, View and Event.
    ASSERT_EQ(hints.hints().ruleset_case(), okey101() ? v1::Hints::kOkey101 : v1::Hints::kOkey51);
    EXPECT_EQ(HintedTiles(okey101() ? hints.hints().okey101() : hints.hints().okey51()), hand)
        << player.id;
    EXPECT_EQ(hints.seq(), view->seq());
  }

  // A spectator has no hand to hint at; a token of another table or none at all gets nothing.
  v1::GetHintsResponse none;
  EXPECT_EQ(Hints(table_id, "ana", "", &none).error_code(), grpc::StatusCode::FAILED_PRECONDITION);
  EXPECT_EQ(Hints(table_id, "ana", "forged-token", &none).error_code(),
            grpc::StatusCode::PERMISSION_DENIED);
  EXPECT_EQ(Hints("no-such-table", "ana", players[0].token, &none).error_code(),
            grpc::StatusCode::NOT_FOUND);

  PlayToTheEnd(table_id, players);
  auto end = View(table_id, "ana", players[0].token);
  ASSERT_TRUE(end.ok());
  ASSERT_TRUE(end->view().over());
  const v1::Result& result = end->view().result();
  ASSERT_EQ(result.rounds_size(), okey101() ? 3 : 1);
  // Drawing and discarding only, nobody opens: the deck runs out and every seat pays what a seat
  // not opened pays (okey51 500, okey101 202).
  for (const v1::Result::Round& round : result.rounds()) {
    EXPECT_EQ(round.ending(), "deck_exhausted");
    EXPECT_THAT(round.seat_scores(), ::testing::Each(::testing::Ge(okey101() ? 202 : 500)));
  }
  EXPECT_EQ(Hints(table_id, "ana", players[0].token, &none).error_code(),
            grpc::StatusCode::FAILED_PRECONDITION)
      << "no hints once the game is over";
}

// Every tile a seat's stream names before the deal's end is public (a discard, a meld, the
// indicator) or the seat's own (its deal, its draws); views add only the seat's own hand.
TEST_P(TableLayingOkeyTest, NoStreamOrViewShowsAnotherSeatsTiles) {
  std::string table_id;
  const v1::GameSettings settings = Settings(/*hints=*/false);
  const std::vector<Player> players = CreateTable(kFour, Relaxed(), &table_id, 11, &settings);
  std::vector<std::unique_ptr<UpdateReader>> readers;
  for (const Player& player : players) {
    readers.push_back(Connect(table_id, player.id, player.token));
  }
  readers.push_back(Connect(table_id, "watcher", ""));
  for (int move = 0; move < 400; ++move) {
    const auto spectator = View(table_id, "watcher", "");
    ASSERT_TRUE(spectator.ok());
    if (spectator->view().over()) break;
    EXPECT_TRUE(Laying(spectator->view()).my_hand().empty());
    for (const Player& player : players) {
      v1::View view = View(table_id, player.id, player.token)->view();
      EXPECT_EQ(Laying(view).my_hand_size(), Laying(view).hand_counts(player.seat));
      view.set_seat(-1);
      MutableLaying(&view)->clear_my_hand();
      EXPECT_TRUE(MessageDifferencer::Equals(view, spectator->view()))
          << "seat " << player.seat << " sees more than its own hand";
    }
    if (HasFailure() || PlayToTheEnd(table_id, players, 1) == 0) break;
  }
  ASSERT_TRUE(View(table_id, "watcher", "")->view().over());
  for (size_t index = 0; index < readers.size(); ++index) {
    const int seat = index < players.size() ? players[index].seat : -1;
    SCOPED_TRACE(absl::StrCat("seat ", seat));
    ASSERT_TRUE(readers[index]->WaitUntil(EndsWithResult));
    const std::vector<v1::TableUpdate> updates = readers[index]->updates();
    EXPECT_EQ(CheckStream(updates, seat), "");
    for (const v1::TableUpdate& update : updates) {
      for (const v1::Event& event : update.move().events()) {
        const v1::OkeyLayingEvent& okey = Laying(event);
        if (okey.has_tiles_dealt() || okey.has_tile_drawn()) {
          ASSERT_TRUE(event.has_private_to()) << event.DebugString();
          EXPECT_EQ(event.private_to(), seat);
        } else {
          EXPECT_FALSE(event.has_private_to()) << event.DebugString();
        }
      }
    }
  }
}

// okey51's and okey101's hints moved to fields of their own (CHANGELOG.md, 0.2.0): a client built
// on the protos before still finds them in Hints.okey, and one built on today's in its own field.
TEST_P(TableLayingOkeyTest, ClientsOfEarlierProtosStillFindTheHintsInHintsOkey) {
  std::string table_id;
  const v1::GameSettings settings = Settings(/*hints=*/true);
  const std::vector<Player> players = CreateTable(kFour, Relaxed(), &table_id, 7, &settings);
  v1::GetHintsResponse current;
  ASSERT_TRUE(Hints(table_id, "ana", players[0].token, &current).ok());
  const v1::OkeyHints& hints = okey101() ? current.hints().okey101() : current.hints().okey51();
  ASSERT_FALSE(hints.loose().empty() && hints.groups().empty());

  // The same call with the raw bytes on the wire, as any client receives them.
  v1::GetHintsRequest request;
  request.set_table_id(table_id);
  request.set_seat_token(players[0].token);
  grpc::GenericStub generic(grpc::CreateChannel(absl::StrCat("127.0.0.1:", server_->port()),
                                                grpc::InsecureChannelCredentials()));
  auto context = kahve::testing::ContextFor("ana");
  const std::string request_bytes = request.SerializeAsString();
  grpc::Slice request_slice(request_bytes);
  grpc::ByteBuffer request_buffer(&request_slice, 1);
  grpc::ByteBuffer response_buffer;
  absl::Notification answered;
  grpc::Status status;
  generic.UnaryCall(context.get(), "/kahve.v1.TableService/GetHints", grpc::StubOptions(),
                    &request_buffer, &response_buffer, [&](grpc::Status done) {
                      status = std::move(done);
                      answered.Notify();
                    });
  answered.WaitForNotification();
  ASSERT_TRUE(status.ok()) << status.error_message();
  std::vector<grpc::Slice> slices;
  ASSERT_TRUE(response_buffer.Dump(&slices).ok());
  std::string wire;
  for (const grpc::Slice& slice : slices) wire.append(slice.begin(), slice.end());

  v1::GetHintsResponse today;
  ASSERT_TRUE(today.ParseFromString(wire));
  ASSERT_EQ(today.hints().ruleset_case(), okey101() ? v1::Hints::kOkey101 : v1::Hints::kOkey51);
  EXPECT_TRUE(MessageDifferencer::Equals(
      okey101() ? today.hints().okey101() : today.hints().okey51(), hints));

  EarlierProtos earlier_protos;
  std::unique_ptr<google::protobuf::Message> earlier = earlier_protos.ParseHintsResponse(wire);
  ASSERT_NE(earlier, nullptr);
  const google::protobuf::Message& earlier_hints = earlier->GetReflection()->GetMessage(
      *earlier, earlier->GetDescriptor()->FindFieldByName("hints"));
  const google::protobuf::FieldDescriptor* okey_field =
      earlier_hints.GetDescriptor()->FindFieldByName("okey");
  ASSERT_TRUE(earlier_hints.GetReflection()->HasField(earlier_hints, okey_field));
  EXPECT_EQ(
      earlier_hints.GetReflection()->GetMessage(earlier_hints, okey_field).SerializeAsString(),
      hints.SerializeAsString());
  EXPECT_EQ(earlier->GetReflection()->GetUInt64(*earlier,
                                                earlier->GetDescriptor()->FindFieldByName("seq")),
            current.seq());
}

TEST_P(TableLayingOkeyTest, HintsAreRefusedWhereTheTableTurnsThemOff) {
  std::string table_id;
  const v1::GameSettings settings = Settings(/*hints=*/false);
  const std::vector<Player> players = CreateTable(kFour, Relaxed(), &table_id, 7, &settings);
  v1::GetHintsResponse hints;
  const grpc::Status status = Hints(table_id, "ana", players[0].token, &hints);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::FAILED_PRECONDITION);
  EXPECT_THAT(status.error_message(), ::testing::HasSubstr("hints are off"));

  // Liar's dice has no hints at all.
  std::string dice_table;
  const std::vector<Player> dice = CreateTable(kFour, Relaxed(), &dice_table);
  EXPECT_EQ(Hints(dice_table, "ana", dice[0].token, &hints).error_code(),
            grpc::StatusCode::FAILED_PRECONDITION);
}

INSTANTIATE_TEST_SUITE_P(Rulesets, TableLayingOkeyTest, ::testing::Values("okey51", "okey101"),
                         [](const auto& info) { return info.param; });

}  // namespace
}  // namespace kahve::table

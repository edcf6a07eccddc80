// CompareContracts on doctored copies of the committed snapshot: each kind of break must be named
// precisely, and additions must pass.

#include "proto/contract/contract_diff.h"

#include <string>
#include <string_view>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace kahve::proto_contract {
namespace {

using google::protobuf::DescriptorProto;
using google::protobuf::EnumDescriptorProto;
using google::protobuf::FieldDescriptorProto;
using google::protobuf::FileDescriptorSet;
using google::protobuf::MethodDescriptorProto;
using google::protobuf::ServiceDescriptorProto;
using ::testing::ElementsAre;
using ::testing::IsEmpty;
using ::testing::UnorderedElementsAre;

template <typename Proto>
Proto* Named(google::protobuf::RepeatedPtrField<Proto>& elements, std::string_view name) {
  for (Proto& element : elements) {
    if (element.name() == name) return &element;
  }
  return nullptr;
}

template <typename Proto>
bool RemoveNamed(google::protobuf::RepeatedPtrField<Proto>& elements, std::string_view name) {
  for (int i = 0; i < elements.size(); ++i) {
    if (elements.Get(i).name() == name) {
      elements.DeleteSubrange(i, 1);
      return true;
    }
  }
  return false;
}

// The message, nested or not, with full name "kahve.v1.Outer.Inner"; nullptr if none.
DescriptorProto* FindMessage(FileDescriptorSet& set, std::string_view full_name) {
  for (auto& file : *set.mutable_file()) {
    const std::string prefix = file.package() + ".";
    if (!full_name.starts_with(prefix)) continue;
    std::string_view rest = full_name.substr(prefix.size());
    auto* scope = file.mutable_message_type();
    DescriptorProto* message = nullptr;
    while (!rest.empty()) {
      const size_t dot = rest.find('.');
      message = Named(*scope, rest.substr(0, dot));
      if (message == nullptr) break;
      scope = message->mutable_nested_type();
      rest = dot == std::string_view::npos ? std::string_view() : rest.substr(dot + 1);
    }
    if (message != nullptr) return message;
  }
  return nullptr;
}

// The file declaring a top-level message, enum or service of that name; nullptr if none.
google::protobuf::FileDescriptorProto* FileOf(FileDescriptorSet& set,
                                              std::string_view top_level_name) {
  for (auto& file : *set.mutable_file()) {
    for (const auto& message : file.message_type()) {
      if (message.name() == top_level_name) return &file;
    }
    for (const auto& e : file.enum_type()) {
      if (e.name() == top_level_name) return &file;
    }
    for (const auto& service : file.service()) {
      if (service.name() == top_level_name) return &file;
    }
  }
  return nullptr;
}

class ContractDiffTest : public ::testing::Test {
 protected:
  void SetUp() override {
    absl::StatusOr<FileDescriptorSet> snapshot = ReadTextSnapshot(KAHVE_CONTRACT_SNAPSHOT);
    ASSERT_TRUE(snapshot.ok()) << snapshot.status();
    snapshot_ = *snapshot;
    doctored_ = *snapshot;
  }

  FieldDescriptorProto& Field(std::string_view message, std::string_view field) {
    DescriptorProto* found = FindMessage(doctored_, message);
    EXPECT_NE(found, nullptr) << message;
    FieldDescriptorProto* result = found ? Named(*found->mutable_field(), field) : nullptr;
    EXPECT_NE(result, nullptr) << message << "." << field;
    return result ? *result : scratch_field_;
  }

  EnumDescriptorProto& Enum(std::string_view scope, std::string_view name) {
    EnumDescriptorProto* result = nullptr;
    if (DescriptorProto* message = FindMessage(doctored_, scope)) {
      result = Named(*message->mutable_enum_type(), name);
    } else if (auto* file = FileOf(doctored_, name)) {
      result = Named(*file->mutable_enum_type(), name);
    }
    EXPECT_NE(result, nullptr) << scope << " " << name;
    return result ? *result : scratch_enum_;
  }

  ServiceDescriptorProto& Service(std::string_view name) {
    auto* file = FileOf(doctored_, name);
    ServiceDescriptorProto* result = file ? Named(*file->mutable_service(), name) : nullptr;
    EXPECT_NE(result, nullptr) << name;
    return result ? *result : scratch_service_;
  }

  MethodDescriptorProto& Method(std::string_view service, std::string_view name) {
    MethodDescriptorProto* result = Named(*Service(service).mutable_method(), name);
    EXPECT_NE(result, nullptr) << service << "." << name;
    return result ? *result : scratch_method_;
  }

  ContractDiff Diff() const { return CompareContracts(snapshot_, doctored_); }

  FileDescriptorSet snapshot_;
  FileDescriptorSet doctored_;
  // Targets for a lookup that failed (already reported), so a test goes on instead of crashing.
  FieldDescriptorProto scratch_field_;
  EnumDescriptorProto scratch_enum_;
  ServiceDescriptorProto scratch_service_;
  MethodDescriptorProto scratch_method_;
};

TEST_F(ContractDiffTest, SnapshotAgainstItselfHasNoDifferences) {
  const ContractDiff diff = Diff();
  EXPECT_THAT(diff.breaking, IsEmpty());
  EXPECT_THAT(diff.added, IsEmpty());
}

TEST_F(ContractDiffTest, RemovedFieldIsBreaking) {
  ASSERT_TRUE(
      RemoveNamed(*FindMessage(doctored_, "kahve.v1.LiarsDiceBid")->mutable_field(), "face"));
  const ContractDiff diff = Diff();
  EXPECT_THAT(diff.breaking, ElementsAre("kahve.v1.LiarsDiceBid.face: field removed (number 2)"));
  EXPECT_THAT(diff.added, IsEmpty());
}

TEST_F(ContractDiffTest, RenumberedFieldIsBreaking) {
  Field("kahve.v1.LiarsDiceBid", "face").set_number(5);
  EXPECT_THAT(Diff().breaking, ElementsAre("kahve.v1.LiarsDiceBid.face: field number 2 -> 5"));
}

// A rename keeps the wire format but breaks the JSON mapping that scenario files use.
TEST_F(ContractDiffTest, RenamedFieldIsARemovalAndAnAddition) {
  Field("kahve.v1.LiarsDiceBid", "face").set_name("pips");
  const ContractDiff diff = Diff();
  EXPECT_THAT(diff.breaking, ElementsAre("kahve.v1.LiarsDiceBid.face: field removed (number 2)"));
  EXPECT_THAT(diff.added, ElementsAre("kahve.v1.LiarsDiceBid.pips: field added (number 2)"));
}

TEST_F(ContractDiffTest, ChangedScalarTypeIsBreaking) {
  Field("kahve.v1.LiarsDiceBid", "face").set_type(FieldDescriptorProto::TYPE_INT64);
  EXPECT_THAT(Diff().breaking, ElementsAre("kahve.v1.LiarsDiceBid.face: type int32 -> int64"));
}

TEST_F(ContractDiffTest, ChangedMessageTypeNameIsBreaking) {
  Field("kahve.v1.LiarsDiceMove", "bid").set_type_name(".kahve.v1.LiarsDiceRoll");
  EXPECT_THAT(Diff().breaking, ElementsAre("kahve.v1.LiarsDiceMove.bid: type kahve.v1.LiarsDiceBid "
                                           "-> kahve.v1.LiarsDiceRoll"));
}

TEST_F(ContractDiffTest, ChangedEnumTypeNameIsBreaking) {
  Field("kahve.v1.TicketUpdate", "state").set_type_name(".kahve.v1.MatchMode");
  EXPECT_THAT(Diff().breaking, ElementsAre("kahve.v1.TicketUpdate.state: type "
                                           "kahve.v1.TicketUpdate.State -> kahve.v1.MatchMode"));
}

TEST_F(ContractDiffTest, ChangedLabelOfNestedMessageFieldIsBreaking) {
  Field("kahve.v1.LiarsDiceRoll.SeatDice", "dice").set_label(FieldDescriptorProto::LABEL_OPTIONAL);
  EXPECT_THAT(Diff().breaking,
              ElementsAre("kahve.v1.LiarsDiceRoll.SeatDice.dice: label repeated -> optional"));
}

TEST_F(ContractDiffTest, FieldLeavingItsOneofIsBreaking) {
  Field("kahve.v1.LiarsDiceMove", "bid").clear_oneof_index();
  EXPECT_THAT(Diff().breaking, ElementsAre("kahve.v1.LiarsDiceMove.bid: oneof action -> none"));
}

// proto3 `optional` only adds presence through a synthetic oneof; dropping it changes no byte.
TEST_F(ContractDiffTest, DroppingProto3OptionalIsNotAOneofChange) {
  FieldDescriptorProto& field = Field("kahve.v1.LiarsDicePreset", "first_bidder");
  ASSERT_TRUE(field.proto3_optional());
  field.clear_proto3_optional();
  field.clear_oneof_index();
  FindMessage(doctored_, "kahve.v1.LiarsDicePreset")->clear_oneof_decl();
  EXPECT_THAT(Diff().breaking, IsEmpty());
}

TEST_F(ContractDiffTest, ChangedJsonNameIsBreaking) {
  Field("kahve.v1.LiarsDiceSettings", "dice_per_player").set_json_name("dice");
  EXPECT_THAT(Diff().breaking, ElementsAre("kahve.v1.LiarsDiceSettings.dice_per_player: JSON name "
                                           "dicePerPlayer -> dice"));
}

TEST_F(ContractDiffTest, RemovedMessageIsBreaking) {
  ASSERT_TRUE(
      RemoveNamed(*FileOf(doctored_, "SettingsError")->mutable_message_type(), "SettingsError"));
  EXPECT_THAT(Diff().breaking, ElementsAre("kahve.v1.SettingsError: message removed"));
}

TEST_F(ContractDiffTest, RemovedEnumIsBreaking) {
  ASSERT_TRUE(RemoveNamed(*FileOf(doctored_, "MatchMode")->mutable_enum_type(), "MatchMode"));
  EXPECT_THAT(Diff().breaking, ElementsAre("kahve.v1.MatchMode: enum removed"));
}

TEST_F(ContractDiffTest, RemovedEnumValueIsBreaking) {
  ASSERT_TRUE(RemoveNamed(*Enum("kahve.v1", "RejectionReason").mutable_value(), "GAME_OVER"));
  EXPECT_THAT(Diff().breaking,
              ElementsAre("kahve.v1.RejectionReason.GAME_OVER: enum value removed (number 2)"));
}

TEST_F(ContractDiffTest, RenumberedNestedEnumValueIsBreaking) {
  Named(*Enum("kahve.v1.TicketUpdate", "State").mutable_value(), "EXPIRED")->set_number(7);
  EXPECT_THAT(Diff().breaking,
              ElementsAre("kahve.v1.TicketUpdate.State.EXPIRED: enum value number 3 -> 7"));
}

TEST_F(ContractDiffTest, RemovedServiceIsBreaking) {
  ASSERT_TRUE(RemoveNamed(*FileOf(doctored_, "RatingService")->mutable_service(), "RatingService"));
  EXPECT_THAT(Diff().breaking, ElementsAre("kahve.v1.RatingService: service removed"));
}

TEST_F(ContractDiffTest, RemovedRpcIsBreaking) {
  ASSERT_TRUE(RemoveNamed(*Service("TableService").mutable_method(), "GetReplay"));
  EXPECT_THAT(Diff().breaking, ElementsAre("kahve.v1.TableService.GetReplay: RPC removed"));
}

TEST_F(ContractDiffTest, ChangedRpcTypesAreBreaking) {
  Method("TableService", "Play").set_input_type(".kahve.v1.GetViewRequest");
  Method("TableService", "Play").set_output_type(".kahve.v1.GetViewResponse");
  EXPECT_THAT(Diff().breaking,
              ElementsAre("kahve.v1.TableService.Play: request type kahve.v1.PlayRequest -> "
                          "kahve.v1.GetViewRequest",
                          "kahve.v1.TableService.Play: response type kahve.v1.PlayResponse -> "
                          "kahve.v1.GetViewResponse"));
}

TEST_F(ContractDiffTest, ChangedStreamingModeIsBreaking) {
  Method("TableService", "Connect").set_client_streaming(true);
  Method("TableService", "Play").set_server_streaming(true);
  EXPECT_THAT(Diff().breaking,
              UnorderedElementsAre("kahve.v1.TableService.Connect: streaming server -> bidi",
                                   "kahve.v1.TableService.Play: streaming unary -> server"));
}

TEST_F(ContractDiffTest, AdditionsAreAccepted) {
  FieldDescriptorProto& wild = *FindMessage(doctored_, "kahve.v1.LiarsDiceBid")->add_field();
  wild.set_name("wild");
  wild.set_number(3);
  wild.set_label(FieldDescriptorProto::LABEL_OPTIONAL);
  wild.set_type(FieldDescriptorProto::TYPE_BOOL);
  wild.set_json_name("wild");
  MethodDescriptorProto& spectate = *Service("TableService").add_method();
  spectate.set_name("Spectate");
  spectate.set_input_type(".kahve.v1.ConnectRequest");
  spectate.set_output_type(".kahve.v1.TableUpdate");
  spectate.set_server_streaming(true);
  auto& value = *Enum("kahve.v1", "RejectionReason").add_value();
  value.set_name("LIARS_DICE_WILD_ONES");
  value.set_number(109);
  FileOf(doctored_, "LiarsDiceBid")->add_message_type()->set_name("LiarsDiceTournament");

  const ContractDiff diff = Diff();
  EXPECT_THAT(diff.breaking, IsEmpty());
  EXPECT_THAT(diff.added, UnorderedElementsAre(
                              "kahve.v1.LiarsDiceBid.wild: field added (number 3)",
                              "kahve.v1.TableService.Spectate: RPC added",
                              "kahve.v1.RejectionReason.LIARS_DICE_WILD_ONES: enum value added "
                              "(number 109)",
                              "kahve.v1.LiarsDiceTournament: message added"));
}

TEST_F(ContractDiffTest, EveryBreakIsReportedAtOnce) {
  Field("kahve.v1.LiarsDiceBid", "quantity").set_number(9);
  Field("kahve.v1.LiarsDiceBid", "face").set_type(FieldDescriptorProto::TYPE_STRING);
  ASSERT_TRUE(RemoveNamed(*Service("MatchmakingService").mutable_method(), "CancelTicket"));
  ASSERT_TRUE(RemoveNamed(*Enum("kahve.v1", "MatchMode").mutable_value(), "TEAMS"));
  EXPECT_THAT(Diff().breaking,
              UnorderedElementsAre("kahve.v1.LiarsDiceBid.quantity: field number 1 -> 9",
                                   "kahve.v1.LiarsDiceBid.face: type int32 -> string",
                                   "kahve.v1.MatchmakingService.CancelTicket: RPC removed",
                                   "kahve.v1.MatchMode.TEAMS: enum value removed (number 2)"));
}

}  // namespace
}  // namespace kahve::proto_contract

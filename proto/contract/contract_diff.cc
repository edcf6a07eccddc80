#include "proto/contract/contract_diff.h"

#include <fstream>
#include <map>
#include <sstream>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/strip.h"
#include "google/protobuf/text_format.h"

namespace kahve::proto_contract {
namespace {

using google::protobuf::DescriptorProto;
using google::protobuf::EnumDescriptorProto;
using google::protobuf::FieldDescriptorProto;
using google::protobuf::FileDescriptorSet;
using google::protobuf::MethodDescriptorProto;
using google::protobuf::ServiceDescriptorProto;

// Every message, enum and service of a set by full name; sorted, so reports come out in one order.
struct Index {
  std::map<std::string, const DescriptorProto*> messages;
  std::map<std::string, const EnumDescriptorProto*> enums;
  std::map<std::string, const ServiceDescriptorProto*> services;
};

std::string Qualify(const std::string& scope, const std::string& name) {
  return scope.empty() ? name : absl::StrCat(scope, ".", name);
}

void IndexMessage(const std::string& scope, const DescriptorProto& message, Index& index) {
  const std::string name = Qualify(scope, message.name());
  index.messages[name] = &message;
  for (const DescriptorProto& nested : message.nested_type()) IndexMessage(name, nested, index);
  for (const EnumDescriptorProto& e : message.enum_type())
    index.enums[Qualify(name, e.name())] = &e;
}

Index IndexSet(const FileDescriptorSet& set) {
  Index index;
  for (const auto& file : set.file()) {
    for (const DescriptorProto& message : file.message_type()) {
      IndexMessage(file.package(), message, index);
    }
    for (const EnumDescriptorProto& e : file.enum_type()) {
      index.enums[Qualify(file.package(), e.name())] = &e;
    }
    for (const ServiceDescriptorProto& service : file.service()) {
      index.services[Qualify(file.package(), service.name())] = &service;
    }
  }
  return index;
}

// Linear lookups: a message has tens of fields at most.
template <typename Proto, typename Container>
const Proto* FindByName(const Container& elements, const std::string& name) {
  for (const Proto& element : elements) {
    if (element.name() == name) return &element;
  }
  return nullptr;
}

// The field's type as written in a .proto file; protoc qualifies message and enum names with a
// leading dot, which reads worse and says nothing here.
std::string TypeOf(const FieldDescriptorProto& field) {
  if (!field.type_name().empty()) return std::string(absl::StripPrefix(field.type_name(), "."));
  return absl::AsciiStrToLower(
      absl::StripPrefix(FieldDescriptorProto::Type_Name(field.type()), "TYPE_"));
}

std::string LabelOf(const FieldDescriptorProto& field) {
  return absl::AsciiStrToLower(
      absl::StripPrefix(FieldDescriptorProto::Label_Name(field.label()), "LABEL_"));
}

// The oneof a field belongs to, or "none". A proto3 `optional` field's synthetic oneof does not
// count: it only tracks presence and changes nothing on the wire.
std::string OneofOf(const DescriptorProto& message, const FieldDescriptorProto& field) {
  if (!field.has_oneof_index() || field.proto3_optional()) return "none";
  return message.oneof_decl(field.oneof_index()).name();
}

std::string StreamingOf(const MethodDescriptorProto& method) {
  if (method.client_streaming() && method.server_streaming()) return "bidi";
  if (method.client_streaming()) return "client";
  if (method.server_streaming()) return "server";
  return "unary";
}

// Adds "element: what a -> b" to `out` when a and b differ.
void CheckSame(const std::string& element, const char* what, const std::string& before,
               const std::string& after, std::vector<std::string>& out) {
  if (before != after) out.push_back(absl::StrCat(element, ": ", what, " ", before, " -> ", after));
}

void CompareMessage(const std::string& name, const DescriptorProto& before,
                    const DescriptorProto& after, ContractDiff& diff) {
  for (const FieldDescriptorProto& old_field : before.field()) {
    const std::string element = Qualify(name, old_field.name());
    const auto* new_field = FindByName<FieldDescriptorProto>(after.field(), old_field.name());
    if (new_field == nullptr) {
      diff.breaking.push_back(
          absl::StrCat(element, ": field removed (number ", old_field.number(), ")"));
      continue;
    }
    CheckSame(element, "field number", absl::StrCat(old_field.number()),
              absl::StrCat(new_field->number()), diff.breaking);
    CheckSame(element, "type", TypeOf(old_field), TypeOf(*new_field), diff.breaking);
    CheckSame(element, "label", LabelOf(old_field), LabelOf(*new_field), diff.breaking);
    CheckSame(element, "oneof", OneofOf(before, old_field), OneofOf(after, *new_field),
              diff.breaking);
    // Scenario files and JSON clients name fields by their JSON name.
    CheckSame(element, "JSON name", old_field.json_name(), new_field->json_name(), diff.breaking);
  }
  for (const FieldDescriptorProto& new_field : after.field()) {
    if (FindByName<FieldDescriptorProto>(before.field(), new_field.name()) == nullptr) {
      diff.added.push_back(absl::StrCat(Qualify(name, new_field.name()), ": field added (number ",
                                        new_field.number(), ")"));
    }
  }
}

void CompareEnum(const std::string& name, const EnumDescriptorProto& before,
                 const EnumDescriptorProto& after, ContractDiff& diff) {
  using google::protobuf::EnumValueDescriptorProto;
  for (const EnumValueDescriptorProto& old_value : before.value()) {
    const std::string element = Qualify(name, old_value.name());
    const auto* new_value = FindByName<EnumValueDescriptorProto>(after.value(), old_value.name());
    if (new_value == nullptr) {
      diff.breaking.push_back(
          absl::StrCat(element, ": enum value removed (number ", old_value.number(), ")"));
      continue;
    }
    CheckSame(element, "enum value number", absl::StrCat(old_value.number()),
              absl::StrCat(new_value->number()), diff.breaking);
  }
  for (const EnumValueDescriptorProto& new_value : after.value()) {
    if (FindByName<EnumValueDescriptorProto>(before.value(), new_value.name()) == nullptr) {
      diff.added.push_back(absl::StrCat(Qualify(name, new_value.name()),
                                        ": enum value added (number ", new_value.number(), ")"));
    }
  }
}

void CompareService(const std::string& name, const ServiceDescriptorProto& before,
                    const ServiceDescriptorProto& after, ContractDiff& diff) {
  for (const MethodDescriptorProto& old_method : before.method()) {
    const std::string element = Qualify(name, old_method.name());
    const auto* new_method = FindByName<MethodDescriptorProto>(after.method(), old_method.name());
    if (new_method == nullptr) {
      diff.breaking.push_back(absl::StrCat(element, ": RPC removed"));
      continue;
    }
    CheckSame(element, "request type", std::string(absl::StripPrefix(old_method.input_type(), ".")),
              std::string(absl::StripPrefix(new_method->input_type(), ".")), diff.breaking);
    CheckSame(element, "response type",
              std::string(absl::StripPrefix(old_method.output_type(), ".")),
              std::string(absl::StripPrefix(new_method->output_type(), ".")), diff.breaking);
    CheckSame(element, "streaming", StreamingOf(old_method), StreamingOf(*new_method),
              diff.breaking);
  }
  for (const MethodDescriptorProto& new_method : after.method()) {
    if (FindByName<MethodDescriptorProto>(before.method(), new_method.name()) == nullptr) {
      diff.added.push_back(absl::StrCat(Qualify(name, new_method.name()), ": RPC added"));
    }
  }
}

// Calls compare(name, before, after) for elements in both maps, and reports the others as
// "<kind> removed" (breaking) or "<kind> added".
template <typename Proto, typename Compare>
void CompareAll(const char* kind, const std::map<std::string, const Proto*>& before,
                const std::map<std::string, const Proto*>& after, ContractDiff& diff,
                Compare compare) {
  for (const auto& [name, old_element] : before) {
    auto it = after.find(name);
    if (it == after.end()) {
      diff.breaking.push_back(absl::StrCat(name, ": ", kind, " removed"));
    } else {
      compare(name, *old_element, *it->second, diff);
    }
  }
  for (const auto& [name, new_element] : after) {
    if (!before.contains(name)) diff.added.push_back(absl::StrCat(name, ": ", kind, " added"));
  }
}

absl::StatusOr<std::string> ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return absl::NotFoundError(absl::StrCat("cannot open ", path));
  std::ostringstream contents;
  contents << in.rdbuf();
  return std::move(contents).str();
}

}  // namespace

ContractDiff CompareContracts(const FileDescriptorSet& snapshot, const FileDescriptorSet& current) {
  const Index before = IndexSet(snapshot);
  const Index after = IndexSet(current);
  ContractDiff diff;
  CompareAll("message", before.messages, after.messages, diff, CompareMessage);
  CompareAll("enum", before.enums, after.enums, diff, CompareEnum);
  CompareAll("service", before.services, after.services, diff, CompareService);
  return diff;
}

absl::StatusOr<FileDescriptorSet> ReadTextSnapshot(const std::string& path) {
  absl::StatusOr<std::string> text = ReadFile(path);
  if (!text.ok()) return text.status();
  FileDescriptorSet set;
  // The parser logs the line and column of a syntax error.
  if (!google::protobuf::TextFormat::ParseFromString(*text, &set)) {
    return absl::InvalidArgumentError(
        absl::StrCat(path, " is not a text-format FileDescriptorSet"));
  }
  return set;
}

absl::StatusOr<FileDescriptorSet> ReadDescriptorSet(const std::string& path) {
  absl::StatusOr<std::string> bytes = ReadFile(path);
  if (!bytes.ok()) return bytes.status();
  FileDescriptorSet set;
  if (!set.ParseFromString(*bytes)) {
    return absl::InvalidArgumentError(absl::StrCat(path, " is not a binary FileDescriptorSet"));
  }
  return set;
}

std::string SnapshotText(const FileDescriptorSet& set) {
  std::string body;
  google::protobuf::TextFormat::PrintToString(set, &body);
  return absl::StrCat(
      "# The kahve.v1 contract as last accepted (google.protobuf.FileDescriptorSet).\n"
      "# tests/proto/contract_test fails on any breaking change from it. Generated: after an\n"
      "# intended change, refresh it with\n#   ",
      kRefreshCommand, "\n", body);
}

}  // namespace kahve::proto_contract

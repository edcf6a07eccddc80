#include "services/common/request_checks.h"

#include <algorithm>
#include <string>

#include "absl/strings/str_cat.h"
#include "google/protobuf/descriptor.h"

namespace kahve::common {
namespace {

using google::protobuf::FieldDescriptor;
using google::protobuf::Message;
using google::protobuf::Reflection;

bool IsIdentifierChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' ||
         c == '_' || c == '.' || c == ':';
}

// WebSafeBase64 with or without padding: what the server's tokens are made of.
bool IsTokenChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' ||
         c == '_' || c == '=';
}

const char* Describe(StringRule rule) {
  switch (rule) {
    case StringRule::kIdentifier:
      return "at most 128 characters of [A-Za-z0-9._:-]";
    case StringRule::kToken:
      return "at most 512 characters of URL-safe base64 (as the server issued it)";
    case StringRule::kPlayerId:
      return "at most 128 bytes of printable text";
    case StringRule::kText:
      return "at most 256 bytes of printable text";
  }
  return "";
}

// The first breach below `message`, its path prefixed with `prefix`.
absl::Status CheckMessage(const Message& message, const std::string& prefix, int depth) {
  // kahve.v1 nests a handful of levels; anything deeper is not a request of ours.
  if (depth > 16) return absl::InvalidArgumentError(absl::StrCat(prefix, ": nested too deeply"));
  const Reflection* reflection = message.GetReflection();
  std::vector<const FieldDescriptor*> fields;
  reflection->ListFields(message, &fields);  // only the fields that are set
  std::string scratch;
  for (const FieldDescriptor* field : fields) {
    const std::string path = absl::StrCat(prefix, prefix.empty() ? "" : ".", field->name());
    if (field->cpp_type() == FieldDescriptor::CPPTYPE_STRING &&
        field->type() == FieldDescriptor::TYPE_STRING) {
      const StringRule rule = RuleForField(field->name());
      if (field->is_repeated()) {
        for (int i = 0; i < reflection->FieldSize(message, field); ++i) {
          const std::string& value = reflection->GetRepeatedStringReference(message, field, i,
                                                                            &scratch);
          if (!Satisfies(rule, value)) {
            return absl::InvalidArgumentError(
                absl::StrCat(path, "[", i, "]: ", Describe(rule)));
          }
        }
      } else if (!Satisfies(rule, reflection->GetStringReference(message, field, &scratch))) {
        return absl::InvalidArgumentError(absl::StrCat(path, ": ", Describe(rule)));
      }
    } else if (field->cpp_type() == FieldDescriptor::CPPTYPE_MESSAGE) {
      if (field->is_repeated()) {
        for (int i = 0; i < reflection->FieldSize(message, field); ++i) {
          const absl::Status nested = CheckMessage(
              reflection->GetRepeatedMessage(message, field, i), absl::StrCat(path, "[", i, "]"),
              depth + 1);
          if (!nested.ok()) return nested;
        }
      } else {
        const absl::Status nested =
            CheckMessage(reflection->GetMessage(message, field), path, depth + 1);
        if (!nested.ok()) return nested;
      }
    }
  }
  return absl::OkStatus();
}

}  // namespace

StringRule RuleForField(std::string_view name) {
  if (name == "player_id" || name == "player_ids" || name == "players" || name == "members" ||
      name == "leader" || name == "around_player") {
    return StringRule::kPlayerId;
  }
  if (name.ends_with("_id") || name.ends_with("_ids") || name == "invite_code") {
    return StringRule::kIdentifier;
  }
  if (name.ends_with("_token")) return StringRule::kToken;
  return StringRule::kText;
}

bool IsPrintable(std::string_view value) {
  return std::none_of(value.begin(), value.end(), [](char c) {
    const auto byte = static_cast<unsigned char>(c);
    return byte < 0x20 || byte == 0x7f;
  });
}

bool Satisfies(StringRule rule, std::string_view value) {
  switch (rule) {
    case StringRule::kIdentifier:
      return value.size() <= kMaxIdentifierLength &&
             std::all_of(value.begin(), value.end(), IsIdentifierChar);
    case StringRule::kToken:
      return value.size() <= kMaxTokenLength &&
             std::all_of(value.begin(), value.end(), IsTokenChar);
    case StringRule::kPlayerId:
      return value.size() <= kMaxPlayerIdLength && IsPrintable(value);
    case StringRule::kText:
      return value.size() <= kMaxTextLength && IsPrintable(value);
  }
  return false;
}

absl::Status CheckRequestStrings(const Message& request) {
  return CheckMessage(request, "", 0);
}

}  // namespace kahve::common

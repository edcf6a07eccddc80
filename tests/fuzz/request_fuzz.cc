#include "tests/fuzz/request_fuzz.h"

#include <algorithm>
#include <functional>
#include <memory>
#include <string_view>

#include "absl/status/status.h"
#include "engine/core/check.h"
#include "google/protobuf/message.h"
#include "kahve/v1/matchmaking.pb.h"
#include "kahve/v1/rating.pb.h"
#include "kahve/v1/table.pb.h"
#include "services/common/request_checks.h"

namespace kahve::fuzz {
namespace {

using google::protobuf::Descriptor;
using google::protobuf::FieldDescriptor;
using google::protobuf::Message;
using google::protobuf::Reflection;

// No NUL, no other C0 control byte, no DEL: what may reach a log line, an error or SQL text.
bool FreeOfControlBytes(std::string_view value) {
  return std::none_of(value.begin(), value.end(), [](char c) {
    const auto byte = static_cast<unsigned char>(c);
    return byte < 0x20 || byte == 0x7f;
  });
}

// Visits every string field's value in `message` and below, walking the descriptor's fields
// rather than ListFields (which the validator uses), so the two walks are not one.
void ForEachString(const Message& message, const std::function<void(std::string_view)>& visit) {
  const Descriptor* descriptor = message.GetDescriptor();
  const Reflection* reflection = message.GetReflection();
  for (int i = 0; i < descriptor->field_count(); ++i) {
    const FieldDescriptor* field = descriptor->field(i);
    if (field->type() == FieldDescriptor::TYPE_STRING) {
      if (field->is_repeated()) {
        for (int j = 0; j < reflection->FieldSize(message, field); ++j) {
          visit(reflection->GetRepeatedString(message, field, j));
        }
      } else {
        visit(reflection->GetString(message, field));
      }
    } else if (field->cpp_type() == FieldDescriptor::CPPTYPE_MESSAGE) {
      if (field->is_repeated()) {
        for (int j = 0; j < reflection->FieldSize(message, field); ++j) {
          ForEachString(reflection->GetRepeatedMessage(message, field, j), visit);
        }
      } else if (reflection->HasField(message, field)) {
        ForEachString(reflection->GetMessage(message, field), visit);
      }
    }
  }
}

}  // namespace

const std::vector<const Descriptor*>& RequestTypes() {
  static const std::vector<const Descriptor*> kTypes = [] {
    std::vector<const Descriptor*> types;
    // One message of each service's file, so the linker keeps the file and its services.
    for (const Descriptor* anchor :
         {v1::CreateTableRequest::descriptor(), v1::EnqueueRequest::descriptor(),
          v1::RecordMatchRequest::descriptor()}) {
      const google::protobuf::FileDescriptor* file = anchor->file();
      for (int s = 0; s < file->service_count(); ++s) {
        for (int m = 0; m < file->service(s)->method_count(); ++m) {
          const Descriptor* input = file->service(s)->method(m)->input_type();
          if (std::find(types.begin(), types.end(), input) == types.end()) types.push_back(input);
        }
      }
    }
    return types;
  }();
  return kTypes;
}

void RunRequestInput(const uint8_t* data, size_t size) {
  if (size == 0) return;
  const std::vector<const Descriptor*>& types = RequestTypes();
  const Descriptor* type = types[data[0] % types.size()];
  const std::unique_ptr<Message> request(
      google::protobuf::MessageFactory::generated_factory()->GetPrototype(type)->New());
  if (!request->ParseFromArray(data + 1, static_cast<int>(size - 1))) return;

  const absl::Status status = common::CheckRequestStrings(*request);
  if (status.ok()) {
    ForEachString(*request, [](std::string_view value) {
      KAHVE_CHECK(value.size() <= 512, "a passed string is at most 512 bytes");
      KAHVE_CHECK(FreeOfControlBytes(value), "a passed string has no NUL or control byte");
    });
    return;
  }
  // Debian's Abseil has its own string_view.
  const std::string_view message(status.message().data(), status.message().size());
  KAHVE_CHECK(absl::IsInvalidArgument(status), "a refusal is INVALID_ARGUMENT");
  KAHVE_CHECK(message.size() < 300, "a refusal's message is short");
  KAHVE_CHECK(FreeOfControlBytes(message), "a refusal's message has no control byte");
}

}  // namespace kahve::fuzz

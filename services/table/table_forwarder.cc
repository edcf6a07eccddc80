#include "services/table/table_forwarder.h"

#include <utility>

#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "services/common/connection_gate.h"
#include "services/common/request_id.h"
#include "services/common/sha256.h"
#include "services/table/seat_tokens.h"

namespace kahve::table {
namespace {

constexpr char kForwardedFor[] = "kahve-forwarded-for";
constexpr char kForwardedMac[] = "kahve-forwarded-mac";

std::string MetadataValue(const grpc::CallbackServerContext& server, const char* key) {
  const auto& metadata = server.client_metadata();
  const auto found = metadata.find(key);
  return found == metadata.end() ? "" : std::string(found->second.data(), found->second.size());
}

// One Connect stream read from the holder and written to the client's stream. It owns itself:
// gone once the holder's side is done (OnDone), by which time the client's stream has its end.
class StreamRelay : public grpc::ClientReadReactor<v1::TableUpdate> {
 public:
  StreamRelay(std::shared_ptr<grpc::ClientContext> context, UpdateStream* stream)
      : context_(std::move(context)), stream_(stream) {}

  void Start(v1::TableService::Stub* stub, const v1::ConnectRequest& request) {
    request_ = request;
    stream_->Hold();
    // The client's stream ending (the client left, or read too slowly and was cut) cancels the
    // holder's stream, so the holder frees its side at once (the context outlives this relay).
    stream_->set_on_end([context = context_] { context->TryCancel(); });
    stub->async()->Connect(context_.get(), &request_, this);
    StartRead(&update_);
    StartCall();
  }

  void OnReadDone(bool ok) override {
    if (!ok) return;  // the end: OnDone has the status
    // The holder sent the snapshot or missed updates first, like any stream: queued whole.
    if (first_) {
      stream_->SendInitial(std::move(update_));
      first_ = false;
    } else {
      stream_->Send(std::move(update_));
    }
    update_.Clear();
    StartRead(&update_);
  }

  void OnDone(const grpc::Status& status) override {
    stream_->End(TableForwarder::ForClient(status));
    stream_->Release();
    delete this;
  }

 private:
  std::shared_ptr<grpc::ClientContext> context_;
  UpdateStream* stream_;
  v1::ConnectRequest request_;
  v1::TableUpdate update_;
  bool first_ = true;
};

}  // namespace

TableForwarder::TableForwarder(std::string key) : key_(std::move(key)) {}

std::shared_ptr<v1::TableService::Stub> TableForwarder::StubFor(const std::string& endpoint) {
  return stubs_.For(endpoint);
}

grpc::Status TableForwarder::ForClient(const grpc::Status& status) {
  // gRPC's own words for an unreachable peer quote its address ("ipv4:10.0.3.7:50052: ...").
  if (status.error_code() != grpc::StatusCode::UNAVAILABLE &&
      status.error_code() != grpc::StatusCode::UNKNOWN) {
    return status;
  }
  return grpc::Status(status.error_code(),
                      "the table's host is unavailable; retry shortly (streams: reconnect with "
                      "after_seq)",
                      status.error_details());
}

std::string TableForwarder::MarkerFor(const std::string& peer) const {
  return absl::BytesToHexString(common::HmacSha256(key_, absl::StrCat("kahve-forwarded/", peer)));
}

std::shared_ptr<grpc::ClientContext> TableForwarder::ContextFor(
    const grpc::CallbackServerContext& server, const std::string& client) const {
  auto context = std::make_shared<grpc::ClientContext>();
  const std::string authorization = MetadataValue(server, "authorization");
  if (!authorization.empty()) context->AddMetadata("authorization", authorization);
  const std::string peer = client.empty() ? common::PeerAddress(server) : client;
  // The holder logs the call under the same request id (request_id.h).
  if (!common::CurrentRequestId().empty()) {
    context->AddMetadata(common::kRequestIdKey, common::CurrentRequestId());
  }
  context->AddMetadata(kForwardedFor, peer);
  context->AddMetadata(kForwardedMac, MarkerFor(peer));
  context->set_deadline(server.deadline());
  return context;
}

std::optional<std::string> TableForwarder::ForwardedFor(
    const grpc::CallbackServerContext& server) const {
  const std::string peer = MetadataValue(server, kForwardedFor);
  const std::string mac = MetadataValue(server, kForwardedMac);
  if (peer.empty() && mac.empty()) return std::nullopt;
  // A marker that does not verify is a client's forgery: the call counts as the client's own.
  if (!SameDigest(mac, MarkerFor(peer))) return std::nullopt;
  return peer;
}

void TableForwarder::ForwardStream(const grpc::CallbackServerContext& server,
                                   const std::string& endpoint, const v1::ConnectRequest& request,
                                   UpdateStream* stream, const std::string& client) {
  auto* relay = new StreamRelay(ContextFor(server, client), stream);
  relay->Start(StubFor(endpoint).get(), request);
}

}  // namespace kahve::table

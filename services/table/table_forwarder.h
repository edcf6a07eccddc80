#ifndef KAHVE_SERVICES_TABLE_TABLE_FORWARDER_H_
#define KAHVE_SERVICES_TABLE_TABLE_FORWARDER_H_

// One entry address (docs/table.md, "One entry address"): a host that gets a call about a table a
// live other host holds passes the call on to that host and relays its answer. The forwarded call
// carries the client's own credentials (every host checks them alike) and deadline, plus a marker
// naming the client's address, authenticated with the hosts' shared seat token secret: the holder
// then counts the stream against the client's connection budget, not the forwarding host's, and
// never forwards the call again (a call goes at most one hop).

#include <memory>
#include <optional>
#include <string>

#include "grpcpp/grpcpp.h"
#include "kahve/v1/table.grpc.pb.h"
#include "services/common/stub_cache.h"
#include "services/table/update_stream.h"

namespace kahve::table {

class TableForwarder {
 public:
  // `key`: the seat token secret every host shares.
  explicit TableForwarder(std::string key);

  // A stub for the host at `endpoint` (one channel per endpoint, kept).
  std::shared_ptr<v1::TableService::Stub> StubFor(const std::string& endpoint);
  // The status to give the client for a forwarded call's `status`: the holder's answer as it is,
  // except that a failure to reach the holder never names an address inside the cluster.
  static grpc::Status ForClient(const grpc::Status& status);
  // A context to forward the call `server` got: its authorization, deadline, request id, and the
  // marker naming `client`, the connection the call counts against (StreamBudget::ConnectionKey:
  // behind a trusted proxy, the client's forwarded address); empty: `server`'s peer.
  std::shared_ptr<grpc::ClientContext> ContextFor(const grpc::CallbackServerContext& server,
                                                  const std::string& client = "") const;
  // The client's address when `server`'s call was forwarded by another host (an authentic
  // marker); nullopt for a call straight from a client.
  std::optional<std::string> ForwardedFor(const grpc::CallbackServerContext& server) const;
  // Relays the Connect stream of `request` from the host at `endpoint` to `stream` until either
  // side ends. `stream` is held until the relay is over.
  void ForwardStream(const grpc::CallbackServerContext& server, const std::string& endpoint,
                     const v1::ConnectRequest& request, UpdateStream* stream,
                     const std::string& client);

 private:
  std::string MarkerFor(const std::string& peer) const;

  const std::string key_;
  common::StubCache<v1::TableService> stubs_;
};

}  // namespace kahve::table

#endif  // KAHVE_SERVICES_TABLE_TABLE_FORWARDER_H_

#ifndef KAHVE_SERVICES_COMMON_CONNECTION_GATE_H_
#define KAHVE_SERVICES_COMMON_CONNECTION_GATE_H_

// The door of a gRPC server: it listens and accepts the connections itself, and hands each one to
// gRPC only while the server's connection caps allow (in all, and per peer address); a connection
// past a cap is closed at once and counted. gRPC 1.51 has no cap of its own, and once the process
// runs out of file descriptors its acceptor stops for good (gRPC issues 16058 and 20418); here the
// caps are kept below the descriptor limit, so the cap refuses, never the kernel, and accepting
// goes on. How long a connection may then live (idle timeout, age, keepalive) is gRPC's to
// enforce, through channel arguments (server.cc).

#include <cstdint>
#include <memory>
#include <string>
#include <thread>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_map.h"
#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"
#include "grpcpp/grpcpp.h"
#include "prometheus/counter.h"
#include "prometheus/gauge.h"
#include "prometheus/registry.h"
#include "services/common/client_address.h"

namespace kahve::common {

struct ConnectionCaps {
  int64_t max_connections = 10000;         // open connections of this server
  int64_t max_connections_per_peer = 256;  // of one peer address (IP, any port)
  TrustedProxies trusted_proxies;          // exempt from the per-peer cap (client_address.h)
};

// --max_connections, --max_connections_per_peer and --trusted_proxies.
ConnectionCaps ConnectionCapsFromFlags();

// Raises the soft limit on open files to the hard one (containers often start at 1,024). Call once
// at start, before any thread.
void RaiseFileDescriptorLimit();
// The soft limit on open files now.
int64_t OpenFilesLimit();

// The address of the peer of a call: "ipv4:10.1.2.3:5678" or "ipv6:[::1]:5678". Connections the
// gate hands to gRPC are named "fd:N" by gRPC itself; this reads the socket's address instead.
std::string PeerAddress(const grpc::ServerContextBase& context);

class ConnectionGate {
 public:
  // Binds and listens on host:port (port 0: a free port); Internal when it cannot.
  static absl::StatusOr<std::unique_ptr<ConnectionGate>> Listen(const std::string& host, int port,
                                                                ConnectionCaps caps,
                                                                prometheus::Registry& registry);
  ~ConnectionGate();
  ConnectionGate(const ConnectionGate&) = delete;
  ConnectionGate& operator=(const ConnectionGate&) = delete;

  int port() const { return port_; }
  // Starts accepting into `server` (started, with no listening port of its own; it must outlive
  // the gate's Stop).
  void Start(grpc::Server* server);
  // Stops accepting and closes the listening socket; connections already handed over stay
  // gRPC's. Safe to call more than once.
  void Stop();
  // Connections open now (handed over and not yet closed).
  int64_t open_connections() const;

 private:
  ConnectionGate(int listen_fd, int port, ConnectionCaps caps, prometheus::Registry& registry);
  void AcceptLoop();
  void AcceptOne();
  // The handed-over connection watched through `watch` (a duplicate of its socket) is closed.
  void Closed(int watch);

  const int listen_fd_;
  const int port_;
  const ConnectionCaps caps_;
  int epoll_fd_ = -1;
  int wake_fd_ = -1;   // an eventfd: Stop wakes the loop through it
  int spare_fd_ = -1;  // kept open so that at the descriptor limit a connection can be refused
  grpc::Server* server_ = nullptr;
  std::thread thread_;
  bool stopped_ = false;

  mutable absl::Mutex mu_;
  // Per watched duplicate: the peer it counts against.
  absl::flat_hash_map<int, std::string> peer_of_watch_ ABSL_GUARDED_BY(mu_);
  absl::flat_hash_map<std::string, int64_t> per_peer_ ABSL_GUARDED_BY(mu_);

  prometheus::Gauge* open_gauge_;
  prometheus::Counter* refused_total_;
  prometheus::Counter* refused_per_peer_;
  prometheus::Counter* refused_descriptors_;
  prometheus::Counter* accepted_;
};

}  // namespace kahve::common

#endif  // KAHVE_SERVICES_COMMON_CONNECTION_GATE_H_

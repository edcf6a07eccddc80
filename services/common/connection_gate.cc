#include "services/common/connection_gate.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <utility>

#include "absl/flags/flag.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/strip.h"
#include "grpcpp/server_posix.h"
#include "services/common/logging.h"

ABSL_FLAG(int64_t, max_connections, 10000,
          "Open client connections one gRPC server holds; more are closed at once "
          "(kahve_connections_refused_total). Kept below the file descriptor limit.");
ABSL_FLAG(int64_t, max_connections_per_peer, 256,
          "Open connections one peer address (IP) may hold on one gRPC server; more are closed at "
          "once.");

namespace kahve::common {
namespace {

// Descriptors left for everything but client connections: database connections, /metrics,
// gRPC's own event and wakeup descriptors, channels to other services, files.
constexpr int64_t kReservedDescriptors = 512;
// One address may hold at most this fraction of the connections the descriptors allow.
constexpr int64_t kPeerShareOfDescriptors = 8;

// Descriptors client connections hold in this process, over every gate (a connection holds two:
// gRPC's socket and the gate's duplicate).
std::atomic<int64_t> descriptors_held{0};

}  // namespace

int64_t OpenFilesLimit() {
  rlimit limit{};
  if (getrlimit(RLIMIT_NOFILE, &limit) != 0 || limit.rlim_cur == RLIM_INFINITY) return 1 << 20;
  return static_cast<int64_t>(limit.rlim_cur);
}

namespace {

std::string FormatAddress(const sockaddr_storage& address, bool with_port) {
  char text[INET6_ADDRSTRLEN] = {};
  if (address.ss_family == AF_INET) {
    const auto& v4 = reinterpret_cast<const sockaddr_in&>(address);
    inet_ntop(AF_INET, &v4.sin_addr, text, sizeof(text));
    return with_port ? absl::StrCat("ipv4:", text, ":", ntohs(v4.sin_port)) : text;
  }
  if (address.ss_family == AF_INET6) {
    const auto& v6 = reinterpret_cast<const sockaddr_in6&>(address);
    if (IN6_IS_ADDR_V4MAPPED(&v6.sin6_addr)) {
      // A dual-stack socket shows IPv4 clients as ::ffff:a.b.c.d: one peer, one spelling.
      in_addr v4{};
      std::memcpy(&v4, &v6.sin6_addr.s6_addr[12], sizeof(v4));
      inet_ntop(AF_INET, &v4, text, sizeof(text));
      return with_port ? absl::StrCat("ipv4:", text, ":", ntohs(v6.sin6_port)) : text;
    }
    inet_ntop(AF_INET6, &v6.sin6_addr, text, sizeof(text));
    return with_port ? absl::StrCat("ipv6:[", text, "]:", ntohs(v6.sin6_port)) : text;
  }
  return "unknown";
}

// A listening socket on host:port; on the wildcard hosts a dual-stack one where IPv6 exists.
absl::StatusOr<int> ListenOn(const std::string& host, int port) {
  const bool wildcard = host.empty() || host == "0.0.0.0" || host == "::" || host == "[::]";
  addrinfo hints{};
  hints.ai_socktype = SOCK_STREAM;
  hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV;
  hints.ai_family = wildcard ? AF_INET6 : AF_UNSPEC;
  addrinfo* found = nullptr;
  const std::string service = absl::StrCat(port);
  std::string name(absl::StripSuffix(absl::StripPrefix(host, "["), "]"));
  int rc = getaddrinfo(wildcard ? nullptr : name.c_str(), service.c_str(), &hints, &found);
  if (rc != 0 && wildcard) {
    hints.ai_family = AF_INET;
    rc = getaddrinfo(nullptr, service.c_str(), &hints, &found);
  }
  if (rc != 0) {
    return absl::InternalError(absl::StrCat("cannot resolve ", host, ": ", gai_strerror(rc)));
  }
  std::string why = "no address";
  for (addrinfo* at = found; at != nullptr; at = at->ai_next) {
    const int fd = socket(at->ai_family, at->ai_socktype | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
    if (fd < 0) continue;
    const int on = 1;
    const int off = 0;
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, sizeof(on));
    if (at->ai_family == AF_INET6 && wildcard) {
      setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &off, sizeof(off));
    }
    if (bind(fd, at->ai_addr, at->ai_addrlen) == 0 && listen(fd, SOMAXCONN) == 0) {
      freeaddrinfo(found);
      return fd;
    }
    why = std::strerror(errno);
    close(fd);
  }
  freeaddrinfo(found);
  return absl::InternalError(absl::StrCat("cannot listen on ", host, ":", port, ": ", why));
}

}  // namespace

ConnectionCaps ConnectionCapsFromFlags() {
  ConnectionCaps caps;
  caps.max_connections = absl::GetFlag(FLAGS_max_connections);
  caps.max_connections_per_peer = absl::GetFlag(FLAGS_max_connections_per_peer);
  caps.trusted_proxies = TrustedProxiesFromFlags();
  return caps;
}

void RaiseFileDescriptorLimit() {
  rlimit limit{};
  if (getrlimit(RLIMIT_NOFILE, &limit) != 0 || limit.rlim_cur >= limit.rlim_max) return;
  limit.rlim_cur = limit.rlim_max;
  setrlimit(RLIMIT_NOFILE, &limit);
}

std::string PeerAddress(const grpc::ServerContextBase& context) {
  const std::string peer = context.peer();
  absl::string_view number = peer;
  int fd = -1;
  if (!absl::ConsumePrefix(&number, "fd:") || !absl::SimpleAtoi(number, &fd)) return peer;
  sockaddr_storage address{};
  socklen_t length = sizeof(address);
  if (getpeername(fd, reinterpret_cast<sockaddr*>(&address), &length) != 0) return peer;
  return FormatAddress(address, /*with_port=*/true);
}

absl::StatusOr<std::unique_ptr<ConnectionGate>> ConnectionGate::Listen(
    const std::string& host, int port, ConnectionCaps caps, prometheus::Registry& registry) {
  auto fd = ListenOn(host, port);
  if (!fd.ok()) return fd.status();
  sockaddr_storage bound{};
  socklen_t length = sizeof(bound);
  getsockname(*fd, reinterpret_cast<sockaddr*>(&bound), &length);
  const int bound_port = bound.ss_family == AF_INET6
                             ? ntohs(reinterpret_cast<sockaddr_in6&>(bound).sin6_port)
                             : ntohs(reinterpret_cast<sockaddr_in&>(bound).sin_port);
  return std::unique_ptr<ConnectionGate>(new ConnectionGate(*fd, bound_port, caps, registry));
}

ConnectionGate::ConnectionGate(int listen_fd, int port, ConnectionCaps caps,
                               prometheus::Registry& registry)
    : listen_fd_(listen_fd), port_(port), caps_(caps) {
  open_gauge_ = &prometheus::BuildGauge()
                     .Name("kahve_connections_open")
                     .Help("Client connections the gRPC server holds now.")
                     .Register(registry)
                     .Add({});
  auto& refused = prometheus::BuildCounter()
                      .Name("kahve_connections_refused_total")
                      .Help("Client connections closed at accept, by the cap they met.")
                      .Register(registry);
  refused_total_ = &refused.Add({{"cap", "max_connections"}});
  refused_per_peer_ = &refused.Add({{"cap", "max_connections_per_peer"}});
  refused_descriptors_ = &refused.Add({{"cap", "file_descriptors"}});
  accepted_ = &prometheus::BuildCounter()
                   .Name("kahve_connections_accepted_total")
                   .Help("Client connections handed to the gRPC server.")
                   .Register(registry)
                   .Add({});
  epoll_fd_ = epoll_create1(EPOLL_CLOEXEC);
  wake_fd_ = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
  spare_fd_ = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
  epoll_event listen_event{};
  listen_event.events = EPOLLIN;
  listen_event.data.fd = listen_fd_;
  epoll_ctl(epoll_fd_, EPOLL_CTL_ADD, listen_fd_, &listen_event);
  epoll_event wake_event{};
  wake_event.events = EPOLLIN;
  wake_event.data.fd = wake_fd_;
  epoll_ctl(epoll_fd_, EPOLL_CTL_ADD, wake_fd_, &wake_event);
}

ConnectionGate::~ConnectionGate() {
  Stop();
  absl::MutexLock lock(&mu_);
  for (const auto& [watch, peer] : peer_of_watch_) close(watch);
  descriptors_held.fetch_sub(2 * static_cast<int64_t>(peer_of_watch_.size()));
  peer_of_watch_.clear();
  close(epoll_fd_);
  close(wake_fd_);
  if (spare_fd_ >= 0) close(spare_fd_);
}

void ConnectionGate::Start(grpc::Server* server) {
  server_ = server;
  thread_ = std::thread([this] { AcceptLoop(); });
}

void ConnectionGate::Stop() {
  if (stopped_) return;
  stopped_ = true;
  const uint64_t one = 1;
  if (write(wake_fd_, &one, sizeof(one)) < 0) {
    LogError("connection gate: cannot wake the accept loop", {{"error", std::strerror(errno)}});
  }
  if (thread_.joinable()) thread_.join();
  close(listen_fd_);
}

int64_t ConnectionGate::open_connections() const {
  absl::MutexLock lock(&mu_);
  return static_cast<int64_t>(peer_of_watch_.size());
}

void ConnectionGate::AcceptLoop() {
  epoll_event events[64];
  for (;;) {
    const int ready = epoll_wait(epoll_fd_, events, 64, -1);
    if (ready < 0 && errno == EINTR) continue;
    for (int i = 0; i < ready; ++i) {
      const int fd = events[i].data.fd;
      if (fd == wake_fd_) return;
      if (fd == listen_fd_) {
        AcceptOne();
      } else {
        Closed(fd);
      }
    }
  }
}

void ConnectionGate::AcceptOne() {
  // Drain the backlog: the listening socket is level-triggered but accepting in a burst is cheaper.
  for (int round = 0; round < 64; ++round) {
    sockaddr_storage address{};
    socklen_t length = sizeof(address);
    const int fd = accept4(listen_fd_, reinterpret_cast<sockaddr*>(&address), &length,
                           SOCK_CLOEXEC | SOCK_NONBLOCK);
    if (fd < 0) {
      if (errno == EMFILE || errno == ENFILE) {
        // Out of descriptors all the same (something else used them): take the connection on the
        // spare descriptor and close it, so the backlog does not wake this loop without end.
        close(spare_fd_);
        const int refused = accept(listen_fd_, nullptr, nullptr);
        if (refused >= 0) close(refused);
        spare_fd_ = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
        refused_descriptors_->Increment();
        continue;
      }
      return;  // EAGAIN: the backlog is empty (or a transient error: the next wakeup retries)
    }
    const std::string peer = FormatAddress(address, /*with_port=*/false);
    // What the descriptors allow in all, and one address's share of it: where descriptors are
    // few (nofile=1024 leaves room for 256 connections), one address must not take them all.
    const int64_t room = (OpenFilesLimit() - kReservedDescriptors) / 2;
    int64_t per_peer = std::max<int64_t>(1, room / kPeerShareOfDescriptors);
    if (caps_.max_connections_per_peer > 0) {
      per_peer = std::min(per_peer, caps_.max_connections_per_peer);
    }
    prometheus::Counter* refusal = nullptr;
    {
      absl::MutexLock lock(&mu_);
      const auto open_now = static_cast<int64_t>(peer_of_watch_.size());
      const auto found = per_peer_.find(peer);
      if (caps_.max_connections > 0 && open_now >= caps_.max_connections) {
        refusal = refused_total_;
      } else if (found != per_peer_.end() && found->second >= per_peer &&
                 !caps_.trusted_proxies.Contains(peer)) {
        // A trusted proxy carries many clients' connections: it meets only the total caps.
        refusal = refused_per_peer_;
      } else if (descriptors_held.load() + 2 + kReservedDescriptors > OpenFilesLimit()) {
        refusal = refused_descriptors_;
      }
    }
    if (refusal != nullptr) {
      close(fd);
      refusal->Increment();
      continue;
    }
    // gRPC owns `fd` from here and closes it with shutdown() first, which the duplicate sees as a
    // hang-up: that is how the gate learns the connection is gone.
    const int watch = fcntl(fd, F_DUPFD_CLOEXEC, 0);
    if (watch < 0) {
      close(fd);
      refused_descriptors_->Increment();
      continue;
    }
    {
      absl::MutexLock lock(&mu_);
      peer_of_watch_[watch] = peer;
      ++per_peer_[peer];
    }
    descriptors_held.fetch_add(2);
    epoll_event event{};
    event.events = EPOLLRDHUP;  // EPOLLHUP and EPOLLERR are always reported; no EPOLLIN
    event.data.fd = watch;
    epoll_ctl(epoll_fd_, EPOLL_CTL_ADD, watch, &event);
    open_gauge_->Increment();
    accepted_->Increment();
    grpc::AddInsecureChannelFromFd(server_, fd);
  }
}

void ConnectionGate::Closed(int watch) {
  epoll_ctl(epoll_fd_, EPOLL_CTL_DEL, watch, nullptr);
  close(watch);
  descriptors_held.fetch_sub(2);
  open_gauge_->Decrement();
  absl::MutexLock lock(&mu_);
  const auto found = peer_of_watch_.find(watch);
  if (found == peer_of_watch_.end()) return;
  const auto count = per_peer_.find(found->second);
  if (count != per_peer_.end() && --count->second == 0) per_peer_.erase(count);
  peer_of_watch_.erase(found);
}

}  // namespace kahve::common

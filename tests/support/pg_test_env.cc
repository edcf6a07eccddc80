#include "tests/support/pg_test_env.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <grp.h>
#include <netinet/in.h>
#include <pwd.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <system_error>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "pqxx/pqxx"
#include "services/common/migrations.h"
#include "services/common/pg_pool.h"

namespace kahve::testing {
namespace {

namespace fs = std::filesystem;

constexpr char kPgBin[] = "/usr/lib/postgresql/15/bin";
// Marks a folder as a test server's, so StartServerIn never wipes anything else.
constexpr char kMarkerFile[] = "kahve_pgtest";
constexpr char kLogFile[] = "server.log";
constexpr char kInitdbLog[] = "initdb.log";
// Data folders go to memory when it has 1 GiB free: cloning a test database there takes ~11 ms,
// against 30 to 130 ms on this machine's disk.
constexpr char kMemoryFolder[] = "/dev/shm";
constexpr uintmax_t kMemoryFolderMinFree = uintmax_t{1} << 30;
constexpr char kDataHolderPrefix[] = "kahve-pgdata-";
// Folders of the servers a test process starts for itself.
constexpr char kPrivateDirPrefix[] = "kahve-pg-";
// In such folders and in data holders: the pid of the process that made them.
constexpr char kOwnerFile[] = "owner";
constexpr int kPortAttempts = 5;
constexpr absl::Duration kStartTimeout = absl::Seconds(60);
constexpr absl::Duration kStopTimeout = absl::Seconds(60);
constexpr absl::Duration kPollInterval = absl::Milliseconds(2);
// Longest unix socket path (sun_path holds 108 bytes with the NUL).
constexpr size_t kMaxSocketPath = 107;
// Settings for test speed: durability off (a crash loses a disposable database), no autovacuum
// (it could also hold the template open while a test clones it).
constexpr const char* kServerSettings[] = {
    "listen_addresses=127.0.0.1", "fsync=off",      "synchronous_commit=off",
    "full_page_writes=off",       "autovacuum=off", "max_connections=200",
    "shared_buffers=32MB",
};

[[noreturn]] void Throw(const absl::Status& status) { throw std::runtime_error(status.ToString()); }

void ThrowIfError(const absl::Status& status) {
  if (!status.ok()) Throw(status);
}

std::string ReadFile(const fs::path& path, std::streamoff from = 0) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return "";
  in.seekg(from);
  std::ostringstream contents;
  contents << in.rdbuf();
  return contents.str();
}

std::streamoff FileSize(const fs::path& path) {
  std::error_code error;
  const auto size = fs::file_size(path, error);
  return error ? 0 : static_cast<std::streamoff>(size);
}

// The last lines of a log, for error messages.
std::string Tail(const std::string& text) {
  constexpr size_t kTail = 1500;
  return text.size() <= kTail ? text : text.substr(text.size() - kTail);
}

// The account PostgreSQL runs as: the postgres user when we are root (it refuses root), else us.
struct Account {
  bool switch_user = false;
  uid_t uid = 0;
  gid_t gid = 0;
};

absl::StatusOr<Account> ServerAccount() {
  Account account;
  if (geteuid() != 0) return account;
  const passwd* user = getpwnam("postgres");
  if (user == nullptr) {
    return absl::FailedPreconditionError(
        "running as root, but there is no postgres user to run "
        "PostgreSQL as");
  }
  account.switch_user = true;
  account.uid = user->pw_uid;
  account.gid = user->pw_gid;
  return account;
}

// Makes `path` the server account's, so initdb and the server can write there.
absl::Status HandOver(const fs::path& path, const Account& account) {
  if (account.switch_user && chown(path.c_str(), account.uid, account.gid) != 0) {
    return absl::InternalError(absl::StrCat("chown ", path.string(), ": ", std::strerror(errno)));
  }
  return absl::OkStatus();
}

// Starts `argv` as a child process under the server account, stdin from /dev/null, stdout and
// stderr appended to `log`. With `die_with_parent` the child gets SIGQUIT (PostgreSQL's immediate
// shutdown) when the calling thread ends, so a crashed test leaves no server behind; callers ask
// for it only on the main thread, whose end is the process's.
absl::StatusOr<pid_t> Spawn(const std::vector<std::string>& argv, const fs::path& log,
                            bool die_with_parent) {
  auto account = ServerAccount();
  if (!account.ok()) return account.status();
  std::vector<char*> args;
  for (const std::string& arg : argv) args.push_back(const_cast<char*>(arg.c_str()));
  args.push_back(nullptr);
  const std::string log_path = log.string();
  const pid_t parent = getpid();

  const pid_t pid = fork();
  if (pid < 0) return absl::InternalError(absl::StrCat("fork: ", std::strerror(errno)));
  if (pid == 0) {
    // The child of a possibly multithreaded process: async-signal-safe calls only.
    const int in = open("/dev/null", O_RDONLY);
    const int out = open(log_path.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0644);
    if (in < 0 || out < 0 || dup2(in, 0) < 0 || dup2(out, 1) < 0 || dup2(out, 2) < 0) _exit(126);
    close_range(3, ~0U, 0);
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, nullptr);
    if (account->switch_user) {
      if (setgroups(1, &account->gid) != 0 || setgid(account->gid) != 0 ||
          setuid(account->uid) != 0) {
        _exit(126);
      }
    }
    // Set after the user switch, which clears it.
    if (die_with_parent) {
      prctl(PR_SET_PDEATHSIG, SIGQUIT);
      if (getppid() != parent) _exit(126);
    }
    execv(args[0], args.data());
    _exit(127);
  }
  return pid;
}

// Waits for a child to exit; its exit code, or DeadlineExceeded.
absl::StatusOr<int> WaitChild(pid_t pid, absl::Duration timeout) {
  const absl::Time deadline = absl::Now() + timeout;
  while (true) {
    int wait_status = 0;
    const pid_t done = waitpid(pid, &wait_status, WNOHANG);
    if (done == pid) return WIFEXITED(wait_status) ? WEXITSTATUS(wait_status) : 128;
    if (done < 0 && errno != EINTR) {
      return absl::InternalError(absl::StrCat("waitpid: ", std::strerror(errno)));
    }
    if (absl::Now() > deadline) {
      return absl::DeadlineExceededError(absl::StrCat("process ", pid, " still running"));
    }
    absl::SleepFor(kPollInterval);
  }
}

absl::Status Run(const std::vector<std::string>& argv, const fs::path& log) {
  auto pid = Spawn(argv, log, /*die_with_parent=*/false);
  if (!pid.ok()) return pid.status();
  auto code = WaitChild(*pid, absl::Minutes(2));
  if (!code.ok()) return code.status();
  if (*code != 0) {
    return absl::InternalError(absl::StrCat(argv[0], " failed (exit ", *code, "); ", log.string(),
                                            ":\n", Tail(ReadFile(log))));
  }
  return absl::OkStatus();
}

absl::StatusOr<int> FreePort() {
  const int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return absl::InternalError(absl::StrCat("socket: ", std::strerror(errno)));
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  address.sin_port = 0;
  socklen_t length = sizeof(address);
  const bool ok = bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof(address)) == 0 &&
                  getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length) == 0;
  close(fd);
  if (!ok) return absl::InternalError(absl::StrCat("picking a port: ", std::strerror(errno)));
  return static_cast<int>(ntohs(address.sin_port));
}

std::string QuoteIdentifier(const std::string& name) {
  std::string quoted = "\"";
  for (char c : name) {
    if (c == '"') quoted += '"';
    quoted += c;
  }
  return quoted + "\"";
}

// postgresql://postgres@127.0.0.1:PORT/postgres -> the same server's database `name`.
std::string DatabaseUrl(const std::string& admin_url, const std::string& name) {
  return admin_url.substr(0, admin_url.rfind('/') + 1) + name;
}

// Runs one statement outside a transaction (CREATE / DROP DATABASE need that).
absl::Status Execute(const std::string& url, const std::string& sql) {
  try {
    pqxx::connection connection(common::WithConnectTimeout(url, 5));
    pqxx::nontransaction tx(connection);
    tx.exec0(sql);
    return absl::OkStatus();
  } catch (const pqxx::sql_error& e) {
    return absl::InternalError(
        absl::StrCat("SQLSTATE ", e.sqlstate(), ": ", e.what(), " in ", sql));
  } catch (const std::exception& e) {
    return absl::UnavailableError(absl::StrCat(e.what(), " in ", sql));
  }
}

// Runs statements on a server's maintenance database over one kept connection: opening one costs
// ~25 ms here, as much as the statements tests need.
class AdminSession {
 public:
  explicit AdminSession(std::string url) : url_(std::move(url)) {}

  const std::string& url() const { return url_; }

  // Runs `sql` outside a transaction; reconnects once if the kept connection broke (the server
  // restarted).
  absl::Status Execute(const std::string& sql) {
    absl::MutexLock lock(&mu_);
    for (int attempt = 0;; ++attempt) {
      try {
        if (connection_ == nullptr) {
          connection_ = std::make_unique<pqxx::connection>(common::WithConnectTimeout(url_, 5));
        }
        pqxx::nontransaction tx(*connection_);
        tx.exec0(sql);
        return absl::OkStatus();
      } catch (const pqxx::broken_connection& e) {
        connection_.reset();
        if (attempt > 0) return absl::UnavailableError(absl::StrCat(e.what(), " in ", sql));
      } catch (const pqxx::sql_error& e) {
        return absl::InternalError(
            absl::StrCat("SQLSTATE ", e.sqlstate(), ": ", e.what(), " in ", sql));
      } catch (const std::exception& e) {
        connection_.reset();
        return absl::InternalError(absl::StrCat(e.what(), " in ", sql));
      }
    }
  }

 private:
  const std::string url_;
  absl::Mutex mu_;
  std::unique_ptr<pqxx::connection> connection_ ABSL_GUARDED_BY(mu_);
};

absl::StatusOr<std::string> CloneTemplate(AdminSession& admin, const std::string& name) {
  // FILE_COPY copies the template's files (plus two checkpoints, cheap with fsync off): about half
  // the time of PostgreSQL 15's default, which writes every page to the WAL.
  const std::string sql = absl::StrCat("CREATE DATABASE ", QuoteIdentifier(name), " TEMPLATE ",
                                       kTemplateDatabase, " STRATEGY FILE_COPY");
  // The server itself waits up to 5 s for sessions on the template to leave; those are rare
  // (connections to it are off), so a few more tries are plenty.
  constexpr int kAttempts = 5;
  absl::Status status;
  for (int attempt = 0; attempt < kAttempts; ++attempt) {
    status = admin.Execute(sql);
    if (status.ok()) return DatabaseUrl(admin.url(), name);
    if (!absl::StrContains(status.message(), "55006") &&
        !absl::StrContains(status.message(), "is being accessed by other users")) {
      break;
    }
    absl::SleepFor(absl::Milliseconds(20));
  }
  return status;
}

absl::Status DropDatabaseAt(AdminSession& admin, const std::string& name) {
  return admin.Execute(
      absl::StrCat("DROP DATABASE IF EXISTS ", QuoteIdentifier(name), " WITH (FORCE)"));
}

// Creates the template: a database with every embedded migration applied, then closed to
// connections so nothing can hold it open while tests clone it.
absl::Status CreateTemplate(const std::string& admin_url) {
  absl::Status status = Execute(
      admin_url, absl::StrCat("CREATE DATABASE ", kTemplateDatabase, " STRATEGY FILE_COPY"));
  if (!status.ok()) return status;
  auto migrated =
      common::Migrate(DatabaseUrl(admin_url, kTemplateDatabase), common::EmbeddedMigrations());
  if (!migrated.ok()) return migrated.status();
  status = Execute(admin_url, absl::StrCat("ALTER DATABASE ", kTemplateDatabase,
                                           " WITH IS_TEMPLATE true ALLOW_CONNECTIONS false"));
  if (!status.ok()) return status;
  // The migrator's session may still be ending; cloning waits for it, in 100 ms steps.
  try {
    pqxx::connection connection(common::WithConnectTimeout(admin_url, 5));
    const absl::Time deadline = absl::Now() + absl::Seconds(10);
    while (absl::Now() < deadline) {
      pqxx::nontransaction tx(connection);
      const pqxx::row row = tx.exec1(absl::StrCat(
          "SELECT count(*) FROM pg_stat_activity WHERE datname = '", kTemplateDatabase, "'"));
      if (row[0].as<int>() == 0) break;
      absl::SleepFor(kPollInterval);
    }
  } catch (const std::exception& e) {
    return absl::UnavailableError(e.what());
  }
  return absl::OkStatus();
}

// Removes the in-memory data folder `dir`/data links to, if any.
void RemoveDataHolder(const fs::path& dir) {
  std::error_code error;
  const fs::path link = dir / "data";
  if (!fs::is_symlink(link, error)) return;
  const fs::path holder = fs::read_symlink(link, error).parent_path();
  // Only ever a folder made by InitDb.
  if (error || !absl::StartsWith(holder.filename().string(), kDataHolderPrefix)) return;
  fs::remove_all(holder, error);
}

// A PostgreSQL server whose files (the log, the socket, data/ or a link to it) live in one folder.
class LocalServer final : public PgTestServer {
 public:
  // Sets up a fresh server in the existing, empty folder `dir` and starts it. An `owned` server
  // is stopped, and its folder removed, by the destructor; otherwise it outlives this object.
  static absl::StatusOr<std::unique_ptr<LocalServer>> Create(const fs::path& dir, bool owned);

  ~LocalServer() override;

  std::string AdminUrl() const override {
    return absl::StrCat("postgresql://postgres@127.0.0.1:", port_, "/postgres");
  }
  std::string CreateDatabase(const std::string& name) override {
    auto url = CloneTemplate(*admin_, name);
    ThrowIfError(url.status());
    return *url;
  }
  void DropDatabase(const std::string& name) override {
    ThrowIfError(DropDatabaseAt(*admin_, name));
  }
  void Stop() override { ThrowIfError(Shutdown(SIGINT)); }
  void Start() override {
    if (pid_ <= 0) ThrowIfError(Launch());
  }

 private:
  LocalServer(fs::path dir, bool owned) : dir_(std::move(dir)), owned_(owned) {}

  fs::path log() const { return dir_ / kLogFile; }

  absl::Status InitDb();
  // Starts the server on port_ and waits until it accepts connections.
  absl::Status Launch();
  // Signals the server (SIGINT: fast shutdown, SIGQUIT: immediate) and waits for it to exit.
  absl::Status Shutdown(int signal);

  const fs::path dir_;
  const bool owned_;
  // dir_/data, or a folder in memory that dir_/data links to.
  fs::path data_;
  int port_ = 0;
  pid_t pid_ = -1;
  std::unique_ptr<AdminSession> admin_;  // once the port is known
};

absl::StatusOr<std::unique_ptr<LocalServer>> LocalServer::Create(const fs::path& dir, bool owned) {
  std::unique_ptr<LocalServer> server(new LocalServer(dir, owned));
  absl::Status status = server->InitDb();
  if (!status.ok()) return status;
  for (int attempt = 0; attempt < kPortAttempts; ++attempt) {
    auto port = FreePort();
    if (!port.ok()) return port.status();
    server->port_ = *port;
    const std::streamoff log_start = FileSize(server->log());
    status = server->Launch();
    if (status.ok()) break;
    // Another process may have taken the port between our probe and the server's bind.
    const std::string log = ReadFile(server->log(), log_start);
    if (!absl::StrContains(log, "could not bind") && !absl::StrContains(log, "already in use")) {
      return status;
    }
  }
  if (!status.ok()) return status;
  status = CreateTemplate(server->AdminUrl());
  if (!status.ok()) return status;
  server->admin_ = std::make_unique<AdminSession>(server->AdminUrl());
  return server;
}

LocalServer::~LocalServer() {
  if (!owned_) return;
  if (pid_ > 0) Shutdown(SIGQUIT).IgnoreError();
  RemoveDataHolder(dir_);
  std::error_code ignored;
  fs::remove_all(dir_, ignored);
}

absl::Status LocalServer::InitDb() {
  auto account = ServerAccount();
  if (!account.ok()) return account.status();
  absl::Status status = HandOver(dir_, *account);
  if (!status.ok()) return status;
  std::ofstream(dir_ / kMarkerFile)
      << "a kahve test PostgreSQL; kahve_pg_harness stop removes it\n";
  std::ofstream(dir_ / kOwnerFile) << getpid() << "\n";
  data_ = dir_ / "data";
  std::error_code error;
  const fs::space_info memory = fs::space(kMemoryFolder, error);
  if (!error && memory.available >= kMemoryFolderMinFree) {
    std::string holder = (fs::path(kMemoryFolder) / kDataHolderPrefix).string() + "XXXXXX";
    if (mkdtemp(holder.data()) != nullptr) {
      std::ofstream(fs::path(holder) / kOwnerFile) << getpid() << "\n";
      status = HandOver(holder, *account);
      if (!status.ok()) return status;
      data_ = fs::path(holder) / "data";
      // Found through the link by StopForeignServer and RemoveDataHolder.
      fs::create_directory_symlink(data_, dir_ / "data", error);
      if (error) return absl::InternalError(absl::StrCat("linking the data: ", error.message()));
    }
  }
  status = Run({absl::StrCat(kPgBin, "/initdb"), "-D", data_.string(), "-A", "trust", "-U",
                "postgres", "-E", "UTF8", "--locale=C", "--no-sync", "--no-instructions"},
               dir_ / kInitdbLog);
  if (!status.ok()) {
    return absl::Status(status.code(),
                        absl::StrCat(status.message(), "\n(", dir_.string(),
                                     " and its parents must be reachable by the user running "
                                     "PostgreSQL)"));
  }
  return absl::OkStatus();
}

absl::Status LocalServer::Launch() {
  std::vector<std::string> argv = {absl::StrCat(kPgBin, "/postgres"), "-D", data_.string(), "-p",
                                   absl::StrCat(port_)};
  // The socket goes beside the data; tests connect over TCP, so a folder too deep for a socket
  // path simply gets none.
  const std::string socket_dir = dir_.string();
  const bool socket_fits = socket_dir.size() + std::strlen("/.s.PGSQL.65535") <= kMaxSocketPath;
  argv.push_back("-c");
  argv.push_back(absl::StrCat("unix_socket_directories=", socket_fits ? socket_dir : ""));
  for (const char* setting : kServerSettings) {
    argv.push_back("-c");
    argv.push_back(setting);
  }
  const bool main_thread = syscall(SYS_gettid) == getpid();
  auto pid = Spawn(argv, log(), /*die_with_parent=*/owned_ && main_thread);
  if (!pid.ok()) return pid.status();
  pid_ = *pid;

  const std::string url = common::WithConnectTimeout(AdminUrl(), 2);
  const absl::Time deadline = absl::Now() + kStartTimeout;
  while (true) {
    int wait_status = 0;
    if (waitpid(pid_, &wait_status, WNOHANG) == pid_) {
      pid_ = -1;
      return absl::UnavailableError(absl::StrCat("postgres exited while starting; ", log().string(),
                                                 ":\n", Tail(ReadFile(log()))));
    }
    try {
      pqxx::connection connection(url);
      return absl::OkStatus();
    } catch (const std::exception& e) {
      if (absl::Now() > deadline) {
        Shutdown(SIGQUIT).IgnoreError();
        return absl::DeadlineExceededError(absl::StrCat(
            "postgres not ready after ", absl::FormatDuration(kStartTimeout), ": ", e.what()));
      }
    }
    absl::SleepFor(kPollInterval);
  }
}

absl::Status LocalServer::Shutdown(int signal) {
  if (pid_ <= 0) return absl::OkStatus();
  if (kill(pid_, signal) != 0 && errno != ESRCH) {
    return absl::InternalError(absl::StrCat("kill: ", std::strerror(errno)));
  }
  auto code = WaitChild(pid_, kStopTimeout);
  if (!code.ok()) {
    kill(pid_, SIGKILL);
    WaitChild(pid_, kStopTimeout).IgnoreError();
  }
  pid_ = -1;
  return code.status();
}

// Whether process `pid` has ended (gone, or a zombie nobody reaped yet).
bool ProcessEnded(pid_t pid) {
  const std::string stat = ReadFile(absl::StrCat("/proc/", pid, "/stat"));
  const size_t paren = stat.rfind(')');
  if (stat.empty() || paren == std::string::npos || paren + 2 >= stat.size()) return true;
  const char state = stat[paren + 2];
  return state == 'Z' || state == 'X';
}

// The postmaster running on data folder `data`, if any. Its pid file may be stale and the pid
// reused since: only a live process whose working folder is `data` (a postmaster chdirs there)
// counts.
std::optional<pid_t> LivePostmaster(const fs::path& data) {
  const std::string pid_file = ReadFile(data / "postmaster.pid");
  int pid = 0;
  if (pid_file.empty() || !absl::SimpleAtoi(pid_file.substr(0, pid_file.find('\n')), &pid) ||
      pid <= 0 || ProcessEnded(pid)) {
    return std::nullopt;
  }
  std::error_code error;
  const fs::path cwd = fs::read_symlink(absl::StrCat("/proc/", pid, "/cwd"), error);
  if (error || cwd != fs::weakly_canonical(data, error)) return std::nullopt;
  return pid;
}

// Stops a server running on `dir`/data that is not our child (one the harness started, or one an
// aborted run left behind).
absl::Status StopForeignServer(const fs::path& dir) {
  const std::optional<pid_t> live = LivePostmaster(dir / "data");
  if (!live.has_value()) return absl::OkStatus();
  const pid_t pid = *live;
  if (kill(pid, SIGQUIT) != 0) return absl::OkStatus();
  const absl::Time deadline = absl::Now() + kStopTimeout;
  while (!ProcessEnded(pid)) {
    if (absl::Now() > deadline) {
      kill(pid, SIGKILL);
      return absl::DeadlineExceededError(absl::StrCat("postgres ", pid, " did not stop"));
    }
    absl::SleepFor(kPollInterval);
  }
  return absl::OkStatus();
}

// Stops a leftover server in `dir` and empties the folder, refusing folders that are not a test
// server's (no marker file) unless empty.
absl::Status ResetDir(const fs::path& dir) {
  std::error_code error;
  if (fs::exists(dir, error)) {
    const bool ours = fs::exists(dir / kMarkerFile, error);
    if (!ours && !fs::is_empty(dir, error)) {
      return absl::FailedPreconditionError(absl::StrCat(
          "refusing to wipe ", dir.string(), ": not empty and not a kahve test server's folder"));
    }
    absl::Status status = StopForeignServer(dir);
    if (!status.ok()) return status;
    RemoveDataHolder(dir);
    fs::remove_all(dir, error);
    if (error) {
      return absl::InternalError(absl::StrCat("removing ", dir.string(), ": ", error.message()));
    }
  }
  fs::create_directories(dir, error);
  if (error) {
    return absl::InternalError(absl::StrCat("creating ", dir.string(), ": ", error.message()));
  }
  return absl::OkStatus();
}

absl::Status WriteFileAtomically(const fs::path& path, const std::string& contents) {
  const fs::path temporary = path.string() + ".tmp";
  {
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    out << contents;
    if (!out) return absl::InternalError(absl::StrCat("writing ", temporary.string()));
  }
  std::error_code error;
  fs::rename(temporary, path, error);
  if (error) return absl::InternalError(absl::StrCat("renaming to ", path.string()));
  return absl::OkStatus();
}

// The shared server of a ctest run, started by the harness.
class ExternalServer final : public PgTestServer {
 public:
  explicit ExternalServer(const std::string& admin_url) : admin_(admin_url) {}
  std::string AdminUrl() const override { return admin_.url(); }
  std::string CreateDatabase(const std::string& name) override {
    auto url = CloneTemplate(admin_, name);
    ThrowIfError(url.status());
    return *url;
  }
  void DropDatabase(const std::string& name) override {
    ThrowIfError(DropDatabaseAt(admin_, name));
  }
  void Stop() override {
    throw std::logic_error("the shared test server cannot be stopped; use StartPrivate()");
  }
  void Start() override {}

 private:
  AdminSession admin_;
};

// $TMPDIR, or /tmp.
fs::path TemporaryFolder() {
  std::error_code error;
  const fs::path folder = fs::temp_directory_path(error);
  return error ? fs::path("/tmp") : folder;
}

// Removes what servers of crashed test processes left: the folders (in memory and in the temporary
// folder) whose creating process is gone and whose server, if any, is not running. Bounded memory
// use even when tests abort (a data folder holds ~40 MB).
void SweepLeftovers() {
  const std::pair<fs::path, std::string> places[] = {{kMemoryFolder, kDataHolderPrefix},
                                                     {TemporaryFolder(), kPrivateDirPrefix}};
  for (const auto& [place, prefix] : places) {
    std::error_code error;
    for (const auto& entry : fs::directory_iterator(place, error)) {
      const fs::path folder = entry.path();
      if (!absl::StartsWith(folder.filename().string(), prefix)) continue;
      int owner = 0;
      const std::string owner_file = ReadFile(folder / kOwnerFile);
      // No owner file yet: being set up right now.
      if (!absl::SimpleAtoi(absl::StripAsciiWhitespace(owner_file), &owner) || owner <= 0) continue;
      if (!ProcessEnded(owner) || LivePostmaster(folder / "data").has_value()) continue;
      RemoveDataHolder(folder);
      std::error_code ignored;
      fs::remove_all(folder, ignored);
    }
  }
}

std::unique_ptr<PgTestServer> StartInTemporaryDir() {
  SweepLeftovers();
  const fs::path parent = TemporaryFolder();
  std::string pattern = (parent / kPrivateDirPrefix).string() + "XXXXXX";
  if (mkdtemp(pattern.data()) == nullptr) {
    throw std::runtime_error(
        absl::StrCat("mkdtemp in ", parent.string(), ": ", std::strerror(errno)));
  }
  auto server = LocalServer::Create(pattern, /*owned=*/true);
  if (!server.ok()) {
    std::error_code ignored;
    fs::remove_all(pattern, ignored);
    Throw(server.status());
  }
  return std::move(server).value();
}

// A database name unique to this process and test: lower case letters, digits and _, at most 63
// bytes (PostgreSQL's limit; longer names would be cut).
std::string UniqueDatabaseName() {
  static std::atomic<int> counter{0};
  const ::testing::TestInfo* test = ::testing::UnitTest::GetInstance()->current_test_info();
  std::string name = absl::StrCat("t_", getpid(), "_", counter.fetch_add(1), "_");
  if (test != nullptr) {
    for (char c : absl::StrCat(test->test_suite_name(), "_", test->name())) {
      name += absl::ascii_isalnum(c) ? absl::ascii_tolower(c) : '_';
    }
  }
  constexpr size_t kMaxName = 63;
  return name.substr(0, kMaxName);
}

}  // namespace

PgTestServer& PgTestServer::Get() {
  static const std::unique_ptr<PgTestServer> server = []() -> std::unique_ptr<PgTestServer> {
    const char* url_file = std::getenv("KAHVE_TEST_PG_URL_FILE");
    std::error_code error;
    if (url_file != nullptr && *url_file != '\0' && fs::exists(url_file, error)) {
      const std::string url(absl::StripAsciiWhitespace(ReadFile(url_file)));
      if (url.empty()) throw std::runtime_error(absl::StrCat(url_file, " is empty"));
      return std::make_unique<ExternalServer>(url);
    }
    return StartInTemporaryDir();
  }();
  return *server;
}

std::unique_ptr<PgTestServer> PgTestServer::StartPrivate() { return StartInTemporaryDir(); }

absl::StatusOr<std::string> StartServerIn(const std::string& dir) {
  SweepLeftovers();
  const fs::path folder = fs::absolute(dir);
  absl::Status status = ResetDir(folder);
  if (!status.ok()) return status;
  auto server = LocalServer::Create(folder, /*owned=*/false);
  if (!server.ok()) {
    StopForeignServer(folder).IgnoreError();
    RemoveDataHolder(folder);
    return server.status();
  }
  const std::string url = (*server)->AdminUrl();
  status = WriteFileAtomically(folder / kAdminUrlFile, url + "\n");
  if (!status.ok()) return status;
  return url;
}

absl::Status StopServerIn(const std::string& dir) {
  const fs::path folder = fs::absolute(dir);
  std::error_code error;
  if (!fs::exists(folder / kMarkerFile, error)) return absl::OkStatus();
  absl::Status status = StopForeignServer(folder);
  if (!status.ok()) return status;
  RemoveDataHolder(folder);
  for (const auto& entry : fs::directory_iterator(folder, error)) {
    const fs::path name = entry.path().filename();
    if (name == kLogFile || name == kMarkerFile) continue;
    fs::remove_all(entry.path(), error);
  }
  return absl::OkStatus();
}

void PgTest::SetUp() {
  name_ = UniqueDatabaseName();
  try {
    url_ = PgTestServer::Get().CreateDatabase(name_);
  } catch (const std::exception& e) {
    GTEST_FAIL() << "no test database: " << e.what();
  }
}

void PgTest::TearDown() {
  if (url_.empty()) return;
  try {
    PgTestServer::Get().DropDatabase(name_);
  } catch (const std::exception& e) {
    ADD_FAILURE() << "dropping test database " << name_ << ": " << e.what();
  }
}

}  // namespace kahve::testing

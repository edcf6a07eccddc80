#include "tests/abuse/served_stack.h"

#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "gtest/gtest.h"
#include "services/common/auth.h"
#include "tests/services/service_testing.h"

namespace kahve::abuse {
namespace {

// The number after `key` in a JSON log line (0 when absent).
int NumberAfter(const std::string& line, const std::string& key) {
  const size_t at = line.find(key);
  return at == std::string::npos ? 0 : std::atoi(line.c_str() + at + key.size());
}

std::string ReadFile(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace

ServedStack::ServedStack(const std::string& database_url,
                         const std::vector<std::string>& extra_flags, int open_files_limit) {
  char path[] = "/tmp/kahve-abuse-XXXXXX";
  const int fd = mkstemp(path);
  log_path_ = path;
  std::vector<std::string> args = {KAHVE_CLI_PATH,
                                   "serve",
                                   "--all",
                                   "--port=0",
                                   "--metrics_port=0",
                                   "--host=127.0.0.1",
                                   "--drain_seconds=0",
                                   "--host_id=abuse",
                                   "--pass_interval_ms=100",
                                   absl::StrCat("--database=", database_url),
                                   absl::StrCat("--jwt_hs256_secret=", testing::kTestSecret)};
  args.insert(args.end(), extra_flags.begin(), extra_flags.end());
  pid_ = fork();
  if (pid_ == 0) {
    dup2(fd, STDOUT_FILENO);
    dup2(fd, STDERR_FILENO);
    if (open_files_limit > 0) {
      const rlimit limit{.rlim_cur = static_cast<rlim_t>(open_files_limit),
                         .rlim_max = static_cast<rlim_t>(open_files_limit)};
      if (setrlimit(RLIMIT_NOFILE, &limit) != 0) _exit(126);
    }
    std::vector<char*> argv;
    for (std::string& arg : args) argv.push_back(arg.data());
    argv.push_back(nullptr);
    execv(argv[0], argv.data());
    _exit(127);
  }
  close(fd);
  const absl::Time deadline = absl::Now() + absl::Seconds(60);
  std::string log;
  while (absl::Now() < deadline && Alive()) {
    log = ReadFile(log_path_);
    if (log.find("\"msg\":\"kahve serve ready\"") != std::string::npos) break;
    absl::SleepFor(absl::Milliseconds(20));
  }
  if (log.find("\"msg\":\"kahve serve ready\"") == std::string::npos) {
    ADD_FAILURE() << "kahve serve did not start:\n" << log;
    return;
  }
  // "server started" lines pair each gRPC port with its /metrics port; "<name> serving" lines
  // name the service on a port.
  std::map<int, int> metrics_of;
  std::istringstream lines(log);
  std::string line;
  while (std::getline(lines, line)) {
    if (line.find("\"msg\":\"server started\"") != std::string::npos) {
      metrics_of[NumberAfter(line, "\"port\":")] = NumberAfter(line, "\"metrics_port\":");
    }
    for (const auto& [name, port] : {std::pair<const char*, int*>{"kahve-table", &table_port_},
                                     {"kahve-matchmaking", &matchmaking_port_},
                                     {"kahve-rating", &rating_port_}}) {
      if (line.find(absl::StrCat("\"msg\":\"", name, " serving\"")) != std::string::npos) {
        *port = NumberAfter(line, "\"port\":");
      }
    }
  }
  table_metrics_port_ = metrics_of[table_port_];
  matchmaking_metrics_port_ = metrics_of[matchmaking_port_];
  rating_metrics_port_ = metrics_of[rating_port_];
  if (!table_port_ || !matchmaking_port_ || !rating_port_) {
    ADD_FAILURE() << "a service's port is missing from the log:\n" << log;
    return;
  }
  table_ = v1::TableService::NewStub(testing::LocalChannel(table_port_));
  matchmaking_ = v1::MatchmakingService::NewStub(testing::LocalChannel(matchmaking_port_));
  rating_ = v1::RatingService::NewStub(testing::LocalChannel(rating_port_));
  started_ = true;
}

ServedStack::~ServedStack() {
  if (pid_ > 0 && exit_status_ < 0) Stop();
  unlink(log_path_.c_str());
}

bool ServedStack::Alive() const { return pid_ > 0 && kill(pid_, 0) == 0 && exit_status_ < 0; }

int ServedStack::Stop() {
  if (exit_status_ >= 0) return exit_status_;
  kill(pid_, SIGTERM);
  int status = 0;
  const absl::Time deadline = absl::Now() + absl::Seconds(60);
  while (waitpid(pid_, &status, WNOHANG) == 0) {
    if (absl::Now() > deadline) {
      kill(pid_, SIGKILL);
      waitpid(pid_, &status, 0);
      break;
    }
    absl::SleepFor(absl::Milliseconds(20));
  }
  exit_status_ = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  if (exit_status_ != 0) ADD_FAILURE() << "kahve serve exited " << exit_status_ << ":\n"
                                       << ReadFile(log_path_);
  return exit_status_;
}

double ServedStack::RssMib() const {
  std::ifstream status(absl::StrCat("/proc/", pid_, "/status"));
  std::string line;
  while (std::getline(status, line)) {
    if (line.rfind("VmRSS:", 0) == 0) return std::strtod(line.c_str() + 6, nullptr) / 1024;
  }
  return -1;
}

bool ServedStack::AllServing() const {
  for (int port : {table_port_, matchmaking_port_, rating_port_}) {
    if (testing::HealthStatus(port, "").value_or("") != "SERVING") return false;
  }
  return true;
}

std::string ServedStack::Metrics(const std::string& service) const {
  const int port = service == "table"         ? table_metrics_port_
                   : service == "matchmaking" ? matchmaking_metrics_port_
                                              : rating_metrics_port_;
  return testing::HttpGet(port, "/metrics").value_or("");
}

std::unique_ptr<grpc::ClientContext> ContextFor(const std::string& player, absl::Duration deadline,
                                                const std::string& role) {
  auto context = std::make_unique<grpc::ClientContext>();
  context->AddMetadata("authorization", testing::Bearer(player, role));
  context->set_deadline(absl::ToChronoTime(absl::Now() + deadline));
  return context;
}

HonestPlayer::HonestPlayer(ServedStack& stack) : stack_(stack) {
  v1::CreateTableRequest request;
  request.set_match_id("honest-match");
  request.mutable_settings()->mutable_liars_dice()->set_players(2);
  request.mutable_options()->set_turn_seconds(3600);
  request.add_seats()->set_player_id("honest-a");
  request.add_seats()->set_player_id("honest-b");
  v1::CreateTableResponse response;
  auto context = ContextFor("matchmaker", absl::Seconds(10), common::kRoleService);
  const grpc::Status status = stack_.table().CreateTable(context.get(), request, &response);
  EXPECT_TRUE(status.ok()) << status.error_message();
  table_id_ = response.table_id();
  if (response.seats_size() > 0) token_ = response.seats(0).seat_token();
}

absl::StatusOr<absl::Duration> HonestPlayer::Round(absl::Duration deadline) {
  absl::Duration slowest;
  {
    const absl::Time start = absl::Now();
    auto context = ContextFor("honest-a", deadline);
    v1::GetViewRequest request;
    request.set_table_id(table_id_);
    request.set_seat_token(token_);
    v1::GetViewResponse view;
    const grpc::Status status = stack_.table().GetView(context.get(), request, &view);
    if (!status.ok()) return absl::UnavailableError(absl::StrCat("GetView: ", status.error_message()));
    slowest = std::max(slowest, absl::Now() - start);
  }
  {
    const absl::Time start = absl::Now();
    auto context = ContextFor("honest-a", deadline);
    v1::GetRatingsRequest request;
    request.add_player_ids("honest-a");
    request.set_ruleset("liars_dice");
    v1::GetRatingsResponse ratings;
    const grpc::Status status = stack_.rating().GetRatings(context.get(), request, &ratings);
    if (!status.ok()) {
      return absl::UnavailableError(absl::StrCat("GetRatings: ", status.error_message()));
    }
    slowest = std::max(slowest, absl::Now() - start);
  }
  return slowest;
}

}  // namespace kahve::abuse

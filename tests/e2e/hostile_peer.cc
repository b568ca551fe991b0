#include "tests/e2e/hostile_peer.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <utility>

#include "absl/time/clock.h"
#include "gtest/gtest.h"

namespace npud::testing {

Usage UsageOf(pid_t pid) {
  Usage usage;
  std::ifstream status("/proc/" + std::to_string(pid) + "/status");
  for (std::string line; std::getline(status, line);) {
    if (line.rfind("VmRSS:", 0) == 0) usage.rss_mib = std::stoull(line.substr(6)) >> 10;
    if (line.rfind("Threads:", 0) == 0) usage.threads = std::stoi(line.substr(8));
  }
  std::error_code error;
  for (auto it = std::filesystem::directory_iterator("/proc/" + std::to_string(pid) + "/fd", error);
       !error && it != std::filesystem::directory_iterator(); it.increment(error)) {
    ++usage.fds;
  }
  return usage;
}

std::string Describe(const Usage& u) {
  return std::to_string(u.rss_mib) + " MiB, " + std::to_string(u.fds) + " fds, " +
         std::to_string(u.threads) + " threads";
}

void HostilePeerFixture::SetUpTestSuite() {
  rlimit limit{};
  getrlimit(RLIMIT_NOFILE, &limit);
  limit.rlim_cur = limit.rlim_max;
  setrlimit(RLIMIT_NOFILE, &limit);
}

void HostilePeerFixture::Start(std::vector<std::string> flags, NpudProcess::Transport transport) {
  // One file per test process: the two suites may run at the same time.
  token_file_ = ::testing::TempDir() + "/hostile_peer_token." + std::to_string(getpid());
  std::ofstream(token_file_) << kToken << "\n";
  flags.push_back("--auth_token_file=" + token_file_);
  ASSERT_NO_FATAL_FAILURE(StartDaemon(flags, transport));
  if (transport == NpudProcess::Transport::kUnix) {
    path_ = daemon_->address().substr(7) + ".local";
  } else {
    port_ = std::stoi(daemon_->address().substr(daemon_->address().rfind(':') + 1));
  }
  // An honest client first, so that lazily made state is in the baseline.
  HonestClientSeconds();
  before_ = UsageOf(daemon_->pid());
}

void HostilePeerFixture::TearDown() {
  DaemonTest::TearDown();
  if (!token_file_.empty()) std::remove(token_file_.c_str());
}

int HostilePeerFixture::Connect() {
  const int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  std::strncpy(addr.sun_path, path_.c_str(), sizeof(addr.sun_path) - 1);
  if (connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) != 0) {
    close(fd);
    return -1;
  }
  return fd;
}

int HostilePeerFixture::ConnectTcp() {
  const int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(static_cast<uint16_t>(port_));
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) != 0) {
    close(fd);
    return -1;
  }
  return fd;
}

std::vector<std::string> HostilePeerFixture::ClientEnv() const {
  return {"NPUD_ADDRESS=" + daemon_->address(), std::string("NPUD_TOKEN=") + kToken};
}

double HostilePeerFixture::HonestClientSeconds() {
  const auto start = std::chrono::steady_clock::now();
  EXPECT_EQ(RunProcess({ACL_TEST_CLIENT, "flows"},
                       {"NPUD_ADDRESS=" + daemon_->address(), std::string("NPUD_TOKEN=") + kToken}),
            0)
      << daemon_->Log();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

Usage HostilePeerFixture::WaitForFds(int fds, absl::Duration timeout) {
  const absl::Time end = absl::Now() + timeout;
  Usage now = UsageOf(daemon_->pid());
  while (now.fds > fds && absl::Now() < end) {
    absl::SleepFor(absl::Milliseconds(50));
    now = UsageOf(daemon_->pid());
  }
  return now;
}

void HostilePeerFixture::Report(const char* attack, const Usage& during, const Usage& after,
                                double honest) {
  std::printf("[figures] %s: before %s; during %s; after %s; honest client %.3f s\n", attack,
              Describe(before_).c_str(), Describe(during).c_str(), Describe(after).c_str(), honest);
}

}  // namespace npud::testing

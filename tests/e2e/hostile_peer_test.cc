// npud against peers that attack the local protocol before they have
// authenticated, against a daemon that requires a token: frame headers
// announcing huge frames, descriptors before the hello, thousands of idle
// connections, connection floods past the limits and past the daemon's
// descriptor limit. Each attack checks the daemon's resident memory,
// descriptors and threads from /proc against a bound, and that an honest
// client is served correctly (its time is printed with the figures).

#include <signal.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/strip.h"
#include "absl/time/clock.h"
#include "common/frame_io.h"
#include "common/protocol_version.h"
#include "gtest/gtest.h"
#include "npud/v1/npud.pb.h"
#include "tests/e2e/npud_process.h"

namespace {

using npud::testing::NpudProcess;
using npud::testing::RunProcess;

constexpr char kToken[] = "hostile-peer-test-token";

// What /proc says about the daemon.
struct Usage {
  uint64_t rss_mib = 0;
  int threads = 0;
  int fds = 0;
};

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

class HostilePeerTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    // The attacks hold thousands of sockets on this side.
    rlimit limit{};
    getrlimit(RLIMIT_NOFILE, &limit);
    limit.rlim_cur = limit.rlim_max;
    setrlimit(RLIMIT_NOFILE, &limit);
  }

  void Start(std::vector<std::string> flags) {
    token_file_ = ::testing::TempDir() + "/hostile_peer_token";
    std::ofstream(token_file_) << kToken << "\n";
    flags.push_back("--auth_token_file=" + token_file_);
    auto started = NpudProcess::Start(NpudProcess::Transport::kUnix, flags);
    ASSERT_TRUE(started.ok()) << started.status();
    daemon_ = *std::move(started);
    path_ = daemon_->address().substr(7) + ".local";
    // An honest client first, so that lazily made state is in the baseline.
    HonestClientSeconds();
    before_ = UsageOf(daemon_->pid());
  }
  void TearDown() override {
    if (daemon_ == nullptr) return;
    const absl::Status stopped = daemon_->Stop();
    EXPECT_TRUE(stopped.ok()) << stopped << "\n" << daemon_->Log();
  }

  int Connect() {
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

  // Runs a client that checks its own results; fails the test if it fails.
  double HonestClientSeconds() {
    const auto start = std::chrono::steady_clock::now();
    EXPECT_EQ(RunProcess({ACL_TEST_CLIENT, "flows"}, {"NPUD_ADDRESS=" + daemon_->address(),
                                                      std::string("NPUD_TOKEN=") + kToken}),
              0)
        << daemon_->Log();
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  }

  // Waits up to `timeout` for the daemon's descriptors to fall to `fds`.
  Usage WaitForFds(int fds, absl::Duration timeout) {
    const absl::Time end = absl::Now() + timeout;
    Usage now = UsageOf(daemon_->pid());
    while (now.fds > fds && absl::Now() < end) {
      absl::SleepFor(absl::Milliseconds(50));
      now = UsageOf(daemon_->pid());
    }
    return now;
  }

  void Report(const char* attack, const Usage& during, const Usage& after, double honest) {
    std::printf("[figures] %s: before %s; during %s; after %s; honest client %.3f s\n", attack,
                Describe(before_).c_str(), Describe(during).c_str(), Describe(after).c_str(),
                honest);
  }

  // The daemon answers a refusal and closes `fd`.
  static bool RefusedThenClosed(int fd) {
    timeval timeout{10, 0};
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof(timeout));
    npud::FrameReader reader(fd);
    std::string payload;
    std::vector<int> fds;
    npud::v1::ServerMessage message;
    if (!reader.Read(&payload, &fds).ok() || !message.ParseFromString(payload) ||
        !message.has_refused()) {
      return false;
    }
    char byte;
    return read(fd, &byte, 1) == 0;
  }

  std::unique_ptr<NpudProcess> daemon_;
  std::string token_file_;
  std::string path_;
  Usage before_;
};

TEST_F(HostilePeerTest, HeadersAnnouncingHugeFramesCostNothing) {
  Start({});
  std::vector<int> attackers;
  for (int i = 0; i < 16; ++i) {
    const int fd = Connect();
    ASSERT_GE(fd, 0);
    const char header[8] = {0, 0, 0, 0x10, 0, 0, 0, 0};  // 256 MiB, no descriptors
    ASSERT_EQ(write(fd, header, sizeof(header)), 8);
    attackers.push_back(fd);
  }
  absl::SleepFor(absl::Milliseconds(300));
  const Usage during = UsageOf(daemon_->pid());
  const double honest = HonestClientSeconds();
  for (int fd : attackers) {
    EXPECT_TRUE(RefusedThenClosed(fd));
    close(fd);
  }
  const Usage after = WaitForFds(before_.fds, absl::Seconds(5));
  Report("16 pre-hello headers announcing 256 MiB", during, after, honest);
  EXPECT_LT(during.rss_mib, before_.rss_mib + 16);
  EXPECT_LE(after.fds, before_.fds);
}

TEST_F(HostilePeerTest, DescriptorsBeforeTheHelloAreClosed) {
  Start({});
  const int fd = Connect();
  ASSERT_GE(fd, 0);
  const int memfd = memfd_create("attack", MFD_CLOEXEC);
  ASSERT_GE(memfd, 0);
  std::vector<int> sixteen(16, memfd);
  int sent = 0;
  for (int i = 0; i < 1300; ++i) {
    char byte = 0;
    iovec iov{&byte, 1};
    alignas(cmsghdr) char control[CMSG_SPACE(sizeof(int) * 16)];
    msghdr msg{};
    msg.msg_iov = &iov;
    msg.msg_iovlen = 1;
    msg.msg_control = control;
    msg.msg_controllen = sizeof(control);
    cmsghdr* cmsg = CMSG_FIRSTHDR(&msg);
    cmsg->cmsg_level = SOL_SOCKET;
    cmsg->cmsg_type = SCM_RIGHTS;
    cmsg->cmsg_len = CMSG_LEN(sizeof(int) * 16);
    std::memcpy(CMSG_DATA(cmsg), sixteen.data(), sizeof(int) * 16);
    if (sendmsg(fd, &msg, MSG_NOSIGNAL) != 1) break;  // the daemon hung up
    ++sent;
  }
  close(memfd);
  const Usage during = UsageOf(daemon_->pid());
  const double honest = HonestClientSeconds();
  close(fd);
  const Usage after = WaitForFds(before_.fds, absl::Seconds(5));
  Report("one-byte writes with 16 descriptors each before the hello", during, after, honest);
  EXPECT_LT(sent, 1300) << "the daemon never hung up";
  EXPECT_LE(during.fds, before_.fds + 16 + 1);
  EXPECT_LE(after.fds, before_.fds);
  EXPECT_TRUE(absl::StrContains(daemon_->Log(), "descriptors before the hello")) << daemon_->Log();
}

TEST_F(HostilePeerTest, IdleConnectionsCostNoThreadsAndExpire) {
  Start({"--hello_timeout_ms=1500", "--max_connections=0", "--max_connections_per_uid=0"});
  constexpr int kIdle = 3000;
  std::vector<int> idle;
  for (int i = 0; i < kIdle; ++i) {
    const int fd = Connect();
    ASSERT_GE(fd, 0) << "connection " << i << ": " << std::strerror(errno);
    idle.push_back(fd);
  }
  absl::SleepFor(absl::Milliseconds(300));
  const Usage during = UsageOf(daemon_->pid());
  const double honest = HonestClientSeconds();
  // The daemon closes them (its descriptors return) while this side still
  // holds every one.
  const Usage after = WaitForFds(before_.fds, absl::Seconds(10));
  Report("3000 idle connections without a hello", during, after, honest);
  for (int fd : idle) close(fd);
  EXPECT_LE(during.threads, before_.threads + 2);
  EXPECT_GE(during.fds, before_.fds + kIdle / 2) << "the connections were not accepted";
  EXPECT_LT(during.rss_mib, before_.rss_mib + 64);
  EXPECT_LE(after.fds, before_.fds);
}

TEST_F(HostilePeerTest, ConnectionsPastTheLimitsAreRefused) {
  Start({"--max_connections_per_uid=8"});
  std::vector<int> held;
  for (int i = 0; i < 8; ++i) held.push_back(Connect());
  absl::SleepFor(absl::Milliseconds(200));
  const int ninth = Connect();
  ASSERT_GE(ninth, 0);
  EXPECT_TRUE(RefusedThenClosed(ninth));
  close(ninth);
  const Usage during = UsageOf(daemon_->pid());
  for (int fd : held) close(fd);
  WaitForFds(before_.fds, absl::Seconds(5));
  const double honest = HonestClientSeconds();
  const Usage after = UsageOf(daemon_->pid());
  Report("connections past --max_connections_per_uid=8", during, after, honest);
  EXPECT_TRUE(absl::StrContains(daemon_->Log(), "holds its limit of 8 connections"))
      << daemon_->Log();
}

TEST_F(HostilePeerTest, ListenerSurvivesTheDescriptorLimit) {
  Start({"--max_connections=0", "--max_connections_per_uid=0", "--hello_timeout_ms=60000"});
  // Leave the daemon 64 descriptors of headroom, then flood it.
  rlimit tight{static_cast<rlim_t>(before_.fds + 64), static_cast<rlim_t>(before_.fds + 64)};
  rlimit old{};
  ASSERT_EQ(prlimit(daemon_->pid(), RLIMIT_NOFILE, &tight, &old), 0) << std::strerror(errno);
  std::vector<int> flood;
  for (int i = 0; i < 400; ++i) {
    const int fd = Connect();
    if (fd >= 0) flood.push_back(fd);
  }
  absl::SleepFor(absl::Milliseconds(500));
  const Usage during = UsageOf(daemon_->pid());
  for (int fd : flood) close(fd);
  const Usage after = WaitForFds(before_.fds, absl::Seconds(10));
  // Serving again once the load has left, with the same tight limit.
  const double honest = HonestClientSeconds();
  Report("400 connections against a limit of 64 spare descriptors", during, after, honest);
  EXPECT_LE(during.fds, before_.fds + 64);
  EXPECT_LE(after.fds, before_.fds);
  EXPECT_TRUE(absl::StrContains(daemon_->Log(), "out of descriptors")) << daemon_->Log();
  EXPECT_TRUE(daemon_->Alive());
}

TEST_F(HostilePeerTest, TheKernelsCredentialsOverrideTheHello) {
  Start({});
  const int fd = Connect();
  ASSERT_GE(fd, 0);
  npud::v1::ClientMessage hello;
  hello.mutable_hello()->set_protocol_version(npud::protocol_version::kCurrent);
  hello.mutable_hello()->set_pid(1);  // a lie
  hello.mutable_hello()->set_uid(4242);
  hello.mutable_hello()->set_auth_token(kToken);
  ASSERT_TRUE(npud::WriteFrame(fd, hello.SerializeAsString()).ok());
  npud::FrameReader reader(fd);
  std::string payload;
  std::vector<int> fds;
  ASSERT_TRUE(reader.Read(&payload, &fds).ok());
  npud::v1::ServerMessage reply;
  ASSERT_TRUE(reply.ParseFromString(payload));
  ASSERT_TRUE(reply.has_hello()) << reply.DebugString();
  EXPECT_EQ(reply.hello().peer_pid(), getpid());
  EXPECT_TRUE(absl::StrContains(daemon_->Log(), "pid " + std::to_string(getpid()) + " uid " +
                                                    std::to_string(getuid()) +
                                                    " (from the kernel)"))
      << daemon_->Log();
  close(fd);
}

// One client allocating on every device cannot take the host's memory: past
// --host_memory_limit_mib its allocation fails, another client's fits once
// the first has gone, and npud stays up.
TEST_F(HostilePeerTest, OneClientCannotTakeTheHostsMemory) {
  Start({"--host_memory_limit_mib=256", "--memory_gib=1"});
  const std::vector<std::string> env = {"NPUD_ADDRESS=" + daemon_->address(),
                                        std::string("NPUD_TOKEN=") + kToken};
  auto holder = npud::testing::ChildProcess::Spawn({ACL_TEST_CLIENT, "hold", "200000000"}, env);
  ASSERT_TRUE(holder.ok()) << holder.status();
  ASSERT_TRUE(absl::StartsWith((*holder)->ReadLine(absl::Seconds(20)), "ADDR "));
  const Usage during = UsageOf(daemon_->pid());
  // 200 MB held: another 100 MB does not fit under 256 MiB.
  auto second = npud::testing::ChildProcess::Spawn({ACL_TEST_CLIENT, "hold", "100000000"}, env);
  ASSERT_TRUE(second.ok());
  (*second)->CloseStdin();
  EXPECT_EQ((*second)->Wait(), 3) << "the second allocation should have failed";
  EXPECT_TRUE(absl::StrContains(daemon_->Log(), "host memory limit")) << daemon_->Log();
  (*holder)->CloseStdin();
  EXPECT_EQ((*holder)->Wait(), 0);
  // The holder's session ends a moment after its process.
  int third = -1;
  for (const absl::Time end = absl::Now() + absl::Seconds(10); third != 0 && absl::Now() < end;) {
    auto child = npud::testing::ChildProcess::Spawn({ACL_TEST_CLIENT, "hold", "100000000"}, env);
    ASSERT_TRUE(child.ok());
    (*child)->CloseStdin();
    third = (*child)->Wait();
    if (third != 0) absl::SleepFor(absl::Milliseconds(100));
  }
  EXPECT_EQ(third, 0) << "the memory did not come back";
  // Once every client has gone, the daemon gives its memory back.
  Usage after = UsageOf(daemon_->pid());
  for (const absl::Time end = absl::Now() + absl::Seconds(5);
       after.rss_mib > before_.rss_mib + 64 && absl::Now() < end;) {
    absl::SleepFor(absl::Milliseconds(100));
    after = UsageOf(daemon_->pid());
  }
  Report("200 MB held under --host_memory_limit_mib=256, then 100 MB more", during, after,
         HonestClientSeconds());
  EXPECT_LE(after.rss_mib, before_.rss_mib + 64);
  EXPECT_TRUE(daemon_->Alive());
}

// Four clients copying 32 MiB both ways over the local protocol for two
// seconds, then killed: the daemon's memory returns to within 64 MiB of
// what it was. (Over gRPC it does not yet: see docs/design.md, Known gaps.)
TEST_F(HostilePeerTest, MemoryReturnsAfterTheLoad) {
  if (NPUD_ADDRESS_SANITIZER) GTEST_SKIP() << "ASan's quarantine keeps freed memory resident";
  Start({});
  std::vector<std::unique_ptr<npud::testing::ChildProcess>> load;
  for (int i = 0; i < 4; ++i) {
    auto child = npud::testing::ChildProcess::Spawn(
        {ACL_TEST_CLIENT, "copy-loop"},
        {"NPUD_ADDRESS=" + daemon_->address(), std::string("NPUD_TOKEN=") + kToken});
    ASSERT_TRUE(child.ok()) << child.status();
    ASSERT_EQ((*child)->ReadLine(absl::Seconds(20)), "READY");
    load.push_back(*std::move(child));
  }
  Usage peak = UsageOf(daemon_->pid());
  for (int i = 0; i < 20; ++i) {
    absl::SleepFor(absl::Milliseconds(100));
    const Usage now = UsageOf(daemon_->pid());
    if (now.rss_mib > peak.rss_mib) peak = now;
  }
  const double honest = HonestClientSeconds();
  for (auto& child : load) {
    child->Kill(SIGKILL);
    child->Wait();
  }
  Usage after = UsageOf(daemon_->pid());
  for (const absl::Time end = absl::Now() + absl::Seconds(10);
       after.rss_mib > before_.rss_mib + 64 && absl::Now() < end;) {
    absl::SleepFor(absl::Milliseconds(100));
    after = UsageOf(daemon_->pid());
  }
  Report("4 clients copying 32 MiB both ways for 2 s, then killed (peak shown as during)", peak,
         after, honest);
  EXPECT_LE(after.rss_mib, before_.rss_mib + 64);
}

// Two tokens with different limits: a session holding the limited one gets
// 207001 past its share, one holding the other allocates the same freely.
TEST_F(HostilePeerTest, EachTokenHasItsOwnLimits) {
  Start({});
  ASSERT_TRUE(daemon_->Stop().ok());
  std::ofstream(token_file_) << "limited memory_mib=64\n" << kToken << "\n";
  auto started =
      NpudProcess::Start(NpudProcess::Transport::kUnix, {"--auth_token_file=" + token_file_});
  ASSERT_TRUE(started.ok()) << started.status();
  daemon_ = *std::move(started);
  auto hold = [&](const char* token) {
    auto child = npud::testing::ChildProcess::Spawn(
        {ACL_TEST_CLIENT, "hold", "100000000"},
        {"NPUD_ADDRESS=" + daemon_->address(), std::string("NPUD_TOKEN=") + token});
    EXPECT_TRUE(child.ok());
    (*child)->CloseStdin();
    return (*child)->Wait();
  };
  EXPECT_EQ(hold("limited"), 3) << "100 MB should not fit in 64 MiB";
  EXPECT_EQ(hold(kToken), 0);
  EXPECT_TRUE(absl::StrContains(daemon_->Log(), "session memory limit")) << daemon_->Log();
}

// A daemon that accepts connections but never answers: clients give up
// after their connect timeout with 507033 instead of hanging.
TEST(SilentDaemonTest, ClientsGiveUpWithTheSetupError) {
  char dir_template[] = "/tmp/npud-silent-XXXXXX";
  ASSERT_NE(mkdtemp(dir_template), nullptr);
  const std::string path = std::string(dir_template) + "/npud.sock";
  std::vector<int> listeners;
  for (const std::string& p : {path, path + ".local"}) {
    const int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_un addr{};
    addr.sun_family = AF_UNIX;
    std::strncpy(addr.sun_path, p.c_str(), sizeof(addr.sun_path) - 1);
    ASSERT_EQ(bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)), 0);
    ASSERT_EQ(listen(fd, 16), 0);  // and never accept
    listeners.push_back(fd);
  }
  for (const char* transport : {"local", "grpc"}) {
    std::string out;
    const auto start = std::chrono::steady_clock::now();
    EXPECT_EQ(RunProcess({ACL_TEST_CLIENT, "set-device"},
                         {"NPUD_ADDRESS=unix://" + path, "NPUD_CONNECT_TIMEOUT_MS=1000",
                          std::string("NPUD_TRANSPORT=") + transport},
                         &out),
              0);
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::printf("[figures] silent daemon, %s transport: %s after %.2f s\n", transport,
                std::string(absl::StripTrailingAsciiWhitespace(out)).c_str(), seconds);
    EXPECT_TRUE(absl::StrContains(out, "CODE 507033")) << transport << ": " << out;
    EXPECT_LT(seconds, 8.0) << transport;
  }
  for (int fd : listeners) close(fd);
  std::filesystem::remove_all(dir_template);
}

}  // namespace

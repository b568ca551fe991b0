// npud against hostile and broken peers, against a daemon that requires a
// token: on the local protocol before authentication, frame headers
// announcing huge frames, descriptors before the hello, thousands of idle
// connections, connection floods past the limits and past the daemon's
// descriptor limit; on gRPC over TCP, idle and garbage connections and
// sessions past the per-peer limit; on both, clients killed at random
// moments, many clients at once, and the memory a copy load leaves behind.
// Each attack checks the daemon's resident memory, descriptors and threads
// from /proc against a bound, and that an honest client is served correctly
// (its time is printed with the figures).

#include <arpa/inet.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <chrono>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/strip.h"
#include "absl/time/clock.h"
#include "common/bulk_frame.h"
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

// What each of the daemon's descriptors is, one per line.
std::string OpenFilesOf(pid_t pid) {
  std::string out;
  std::error_code error;
  const std::string dir = "/proc/" + std::to_string(pid) + "/fd";
  for (auto it = std::filesystem::directory_iterator(dir, error);
       !error && it != std::filesystem::directory_iterator(); it.increment(error)) {
    std::error_code unreadable;
    out += it->path().filename().string() + " -> " +
           std::filesystem::read_symlink(it->path(), unreadable).string() + "\n";
  }
  return out;
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

  void Start(std::vector<std::string> flags,
             NpudProcess::Transport transport = NpudProcess::Transport::kUnix) {
    token_file_ = ::testing::TempDir() + "/hostile_peer_token";
    std::ofstream(token_file_) << kToken << "\n";
    flags.push_back("--auth_token_file=" + token_file_);
    auto started = NpudProcess::Start(transport, flags);
    ASSERT_TRUE(started.ok()) << started.status();
    daemon_ = *std::move(started);
    if (transport == NpudProcess::Transport::kUnix) {
      path_ = daemon_->address().substr(7) + ".local";
    } else {
      port_ = std::stoi(daemon_->address().substr(daemon_->address().rfind(':') + 1));
    }
    // An honest client first, so that lazily made state is in the baseline.
    HonestClientSeconds();
    before_ = UsageOf(daemon_->pid());
  }
  void TearDown() override {
    if (daemon_ == nullptr) return;
    const absl::Status stopped = daemon_->Stop();
    EXPECT_TRUE(stopped.ok()) << stopped << "\n" << daemon_->Log();
  }

  // A TCP connection to the daemon's gRPC port, or -1.
  int ConnectTcp() {
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

  std::vector<std::string> ClientEnv() const {
    return {"NPUD_ADDRESS=" + daemon_->address(), std::string("NPUD_TOKEN=") + kToken};
  }

  // Device 0's free memory as a client sees it.
  size_t FreeDeviceMemory() {
    auto child = npud::testing::ChildProcess::Spawn({ACL_TEST_CLIENT, "meminfo"}, ClientEnv());
    EXPECT_TRUE(child.ok()) << child.status();
    const std::string line = (*child)->ReadLine(absl::Seconds(20));
    EXPECT_EQ((*child)->Wait(), 0);
    return absl::StartsWith(line, "FREE ") ? std::stoull(line.substr(5)) : 0;
  }

  // Waits up to 10 s for the daemon's RSS to come within `slack_mib` of
  // its figure before the attack, and its descriptors within `fd_slack`.
  Usage WaitForUsage(uint64_t slack_mib, int fd_slack = 1 << 20) {
    Usage now = UsageOf(daemon_->pid());
    for (const absl::Time end = absl::Now() + absl::Seconds(10);
         (now.rss_mib > before_.rss_mib + slack_mib || now.fds > before_.fds + fd_slack) &&
         absl::Now() < end;) {
      absl::SleepFor(absl::Milliseconds(100));
      now = UsageOf(daemon_->pid());
    }
    return now;
  }

  // The daemon's usage at its highest RSS, sampled every 100 ms for `duration`.
  Usage PeakOver(absl::Duration duration) {
    Usage peak = UsageOf(daemon_->pid());
    for (const absl::Time end = absl::Now() + duration; absl::Now() < end;) {
      absl::SleepFor(absl::Milliseconds(100));
      const Usage now = UsageOf(daemon_->pid());
      if (now.rss_mib > peak.rss_mib) peak = now;
    }
    return peak;
  }

  std::string OpenFiles() const { return OpenFilesOf(daemon_->pid()); }

  void CopyLoadThenKill(int clients, absl::Duration duration);
  void KilledClientsLeaveNothing(NpudProcess::Transport transport);

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
  int port_ = 0;
  Usage before_;
};

// `clients` processes copying 32 MiB both ways, SIGKILLed after `duration`:
// the daemon's memory then returns to within 64 MiB of its idle figure.
void HostilePeerTest::CopyLoadThenKill(int clients, absl::Duration duration) {
  std::vector<std::unique_ptr<npud::testing::ChildProcess>> load;
  for (int i = 0; i < clients; ++i) {
    auto child = npud::testing::ChildProcess::Spawn({ACL_TEST_CLIENT, "copy-loop"}, ClientEnv());
    ASSERT_TRUE(child.ok()) << child.status();
    ASSERT_EQ((*child)->ReadLine(absl::Seconds(20)), "READY");
    load.push_back(*std::move(child));
  }
  const Usage peak = PeakOver(duration);
  const double honest = HonestClientSeconds();
  for (auto& child : load) {
    child->Kill(SIGKILL);
    child->Wait();
  }
  const Usage after = WaitForUsage(64);
  Report((std::to_string(clients) + " clients copying 32 MiB both ways, then killed (peak shown " +
          "as during)")
             .c_str(),
         peak, after, honest);
  EXPECT_LE(after.rss_mib, before_.rss_mib + 64);
}

// Clients SIGKILLed at random moments, 8 at a time, while they copy: every
// byte of device memory they held comes back, and the daemon serves on.
void HostilePeerTest::KilledClientsLeaveNothing(NpudProcess::Transport transport) {
  Start({}, transport);
  const size_t free_before = FreeDeviceMemory();
  ASSERT_GT(free_before, 0u);
  std::srand(42);
  Usage peak = UsageOf(daemon_->pid());
  constexpr int kClients = 48;
  for (int started = 0; started < kClients; started += 8) {
    std::vector<std::unique_ptr<npud::testing::ChildProcess>> wave;
    for (int i = 0; i < 8; ++i) {
      auto child = npud::testing::ChildProcess::Spawn({ACL_TEST_CLIENT, "copy-loop"}, ClientEnv());
      ASSERT_TRUE(child.ok()) << child.status();
      wave.push_back(*std::move(child));
    }
    // Each dies somewhere between its start-up and its copies.
    for (auto& child : wave) {
      absl::SleepFor(absl::Milliseconds(13 + std::rand() % 480 / 8));
      child->Kill(SIGKILL);
    }
    for (auto& child : wave) child->Wait();
    const Usage now = UsageOf(daemon_->pid());
    if (now.rss_mib > peak.rss_mib) peak = now;
  }
  size_t free_after = FreeDeviceMemory();
  for (const absl::Time end = absl::Now() + absl::Seconds(10);
       free_after != free_before && absl::Now() < end;) {
    absl::SleepFor(absl::Milliseconds(100));
    free_after = FreeDeviceMemory();
  }
  // Sessions of killed clients end on their own threads, so their
  // descriptors may take a moment longer than their device memory.
  const Usage after = WaitForUsage(64, /*fd_slack=*/2);
  Report((std::to_string(kClients) + " clients killed at random moments (peak shown as during)")
             .c_str(),
         peak, after, HonestClientSeconds());
  EXPECT_EQ(free_after, free_before) << "device memory of killed clients was not released";
  EXPECT_LE(after.fds, before_.fds + 2) << "the daemon's descriptors now:\n" << OpenFiles();
  EXPECT_TRUE(daemon_->Alive());
}

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
  Start({"--hello_timeout_ms=1500", "--max_connections=0", "--max_connections_per_peer=0"});
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
  Start({"--max_connections_per_peer=8"});
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
  Report("connections past --max_connections_per_peer=8", during, after, honest);
  EXPECT_TRUE(absl::StrContains(daemon_->Log(), "holds its limit of 8 connections"))
      << daemon_->Log();
}

TEST_F(HostilePeerTest, ListenerSurvivesTheDescriptorLimit) {
  // Not in the checked build (run_checked_tests.sh sets UBSAN_OPTIONS):
  // UBSan's vptr check reads an object's vtable through a pipe
  // (sanitizer_common's IsAccessibleMemoryRange), so in a daemon without
  // descriptors it reports valid objects as having an invalid vptr ("memory
  // cannot be printed"), and the build makes every report fatal.
  if (std::getenv("UBSAN_OPTIONS") != nullptr) {
    GTEST_SKIP() << "UBSan's vptr check needs descriptors this test takes away";
  }
  Start({"--max_connections=0", "--max_connections_per_peer=0", "--hello_timeout_ms=60000"});
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

// A session on the local protocol spoken by hand, as a hostile client would.
class RawSession {
 public:
  // Says hello on the connected socket `fd` (owned).
  explicit RawSession(int fd) : fd_(fd), reader_(fd) {
    npud::v1::ClientMessage hello;
    hello.mutable_hello()->set_protocol_version(npud::protocol_version::kCurrent);
    hello.mutable_hello()->set_pid(getpid());
    hello.mutable_hello()->set_auth_token(kToken);
    std::string payload;
    std::vector<int> fds;
    ok_ =
        npud::WriteFrame(fd_, hello.SerializeAsString()).ok() && reader_.Read(&payload, &fds).ok();
  }
  ~RawSession() { close(fd_); }
  bool ok() const { return ok_; }

  // Sends `call` (with `file` riding along) and returns its reply (empty
  // once the connection is gone).
  npud::v1::Reply Call(npud::v1::Call call, int file = -1) {
    call.set_call_id(++next_id_);
    npud::v1::ClientMessage message;
    *message.mutable_batch()->add_calls() = call;
    std::vector<int> files;
    if (file >= 0) files.push_back(file);
    if (!npud::WriteFrame(fd_, message.SerializeAsString(), files).ok()) return {};
    while (true) {
      std::string payload;
      std::vector<int> fds;
      npud::v1::ServerMessage reply;
      if (!reader_.Read(&payload, &fds).ok() || !reply.ParseFromString(payload)) return {};
      for (int received : fds) close(received);
      if (reply.has_reply() && reply.reply().call_id() == next_id_) return reply.reply();
    }
  }

 private:
  const int fd_;
  npud::FrameReader reader_;
  bool ok_ = false;
  uint64_t next_id_ = 0;
};

// A client shares host memory it can still shrink, then has npud copy from
// it. npud seals the file against shrinking before it maps it (a file that
// cannot be sealed is refused), so the shrink fails, the copy works and npud
// lives; before, the copy was a SIGBUS that ended every session.
TEST_F(HostilePeerTest, SharedMemoryTheClientShrinksCannotCrashNpud) {
  Start({});
  RawSession session(Connect());
  ASSERT_TRUE(session.ok());
  npud::v1::Call open;
  open.mutable_open_device()->set_device_id(0);
  ASSERT_EQ(session.Call(open).acl_error(), 0);
  constexpr uint64_t kBytes = 1 << 20;
  npud::v1::Call malloc;
  malloc.mutable_malloc()->set_device_id(0);
  malloc.mutable_malloc()->set_size(kBytes);
  const npud::v1::Reply allocated = session.Call(malloc);
  ASSERT_EQ(allocated.acl_error(), 0) << allocated.error_message();

  // A memory file that cannot be sealed is refused.
  const int unsealable = memfd_create("unsealable", MFD_CLOEXEC);
  ASSERT_EQ(ftruncate(unsealable, kBytes), 0);
  npud::v1::Call share;
  share.mutable_register_host_memory()->set_window_id(7);
  share.mutable_register_host_memory()->set_size(kBytes);
  EXPECT_EQ(session.Call(share, unsealable).acl_error(), 107000);
  close(unsealable);

  // One that can be is sealed by npud: the client can no longer shrink it.
  const int shared = memfd_create("shared", MFD_CLOEXEC | MFD_ALLOW_SEALING);
  ASSERT_EQ(ftruncate(shared, kBytes), 0);
  share.mutable_register_host_memory()->set_window_id(8);
  ASSERT_EQ(session.Call(share, shared).acl_error(), 0);
  EXPECT_NE(ftruncate(shared, 0), 0);
  EXPECT_EQ(errno, EPERM);
  npud::v1::Call copy;
  copy.mutable_host_copy()->set_device_address(allocated.malloc().address());
  copy.mutable_host_copy()->set_window_id(8);
  copy.mutable_host_copy()->set_size(kBytes);
  copy.mutable_host_copy()->set_to_device(true);
  EXPECT_EQ(session.Call(copy).acl_error(), 0);
  close(shared);
  EXPECT_TRUE(daemon_->Alive());
  HonestClientSeconds();
}

// Kernel binary chunks that never say "last" are bounded by the session's
// memory limit: the upload fails with 207001 and npud's memory stays put.
TEST_F(HostilePeerTest, BinaryUploadsThatNeverEndAreBounded) {
  Start({"--session_memory_mib=64"});
  RawSession session(Connect());
  ASSERT_TRUE(session.ok());
  npud::v1::Call chunk;
  chunk.mutable_load_binary()->set_binary_id(5);
  chunk.mutable_load_binary()->set_data(std::string(1 << 20, 'x'));
  int accepted = 0;
  int32_t refused = 0;
  for (int i = 0; i < 256 && refused == 0; ++i) {
    refused = session.Call(chunk).acl_error();
    if (refused == 0) ++accepted;
  }
  EXPECT_EQ(refused, 207001);  // ACL_ERROR_RT_MEMORY_ALLOCATION
  EXPECT_LE(accepted, 64);
  const Usage after = UsageOf(daemon_->pid());
  EXPECT_LT(after.rss_mib, before_.rss_mib + 96) << Describe(after);
  EXPECT_TRUE(daemon_->Alive());
  HonestClientSeconds();
}

// Slowloris on npud's own port (npud://): connections that send their
// session header one byte at a time, each byte well within the per-read
// timeout, are closed at the hello deadline all the same, so they cannot
// hold the peer's connection slots; an honest framed client from the same
// address is served meanwhile. Before, they held every slot for as long as
// they trickled and honest clients got 507033.
TEST_F(HostilePeerTest, TricklingConnectionsLoseTheirSlotsAtTheHelloDeadline) {
  Start({"--hello_timeout_ms=1000", "--max_connections_per_peer=8"},
        NpudProcess::Transport::kFramed);
  std::vector<int> tricklers;
  for (int i = 0; i < 8; ++i) {
    tricklers.push_back(ConnectTcp());
    ASSERT_GE(tricklers.back(), 0);
  }
  npud::bulk::FrameHeader header;
  header.type = npud::bulk::FrameType::kSession;
  const npud::bulk::EncodedHeader bytes = npud::bulk::EncodeHeader(header);
  const absl::Time start = absl::Now();
  std::vector<absl::Duration> closed_after(tricklers.size(), absl::InfiniteDuration());
  std::thread trickle([&] {
    // A byte every 300 ms for 4.5 s: each read on npud's side waits 300 ms.
    for (size_t sent = 0; sent < 15; ++sent) {
      for (size_t i = 0; i < tricklers.size(); ++i) {
        if (closed_after[i] != absl::InfiniteDuration()) continue;
        char byte;
        if (send(tricklers[i], &bytes[sent], 1, MSG_NOSIGNAL) != 1 ||
            recv(tricklers[i], &byte, 1, MSG_DONTWAIT) == 0) {
          closed_after[i] = absl::Now() - start;
        }
      }
      absl::SleepFor(absl::Milliseconds(300));
    }
  });
  absl::SleepFor(absl::Seconds(2));
  const double honest = HonestClientSeconds();
  trickle.join();
  for (size_t i = 0; i < tricklers.size(); ++i) {
    EXPECT_LT(closed_after[i], absl::Seconds(2.5)) << "trickling connection " << i;
    close(tricklers[i]);
  }
  std::printf("[figures] trickling connections closed after %s; honest client %.3f s\n",
              absl::FormatDuration(closed_after[0]).c_str(), honest);
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
  CopyLoadThenKill(4, absl::Seconds(2));
}

TEST_F(HostilePeerTest, MemoryReturnsAfterTheLoadOverGrpc) {
  if (NPUD_ADDRESS_SANITIZER) GTEST_SKIP() << "ASan's quarantine keeps freed memory resident";
  Start({}, NpudProcess::Transport::kTcp);
  CopyLoadThenKill(2, absl::Seconds(3));
}

TEST_F(HostilePeerTest, KilledClientsLeaveNothingLocally) {
  KilledClientsLeaveNothing(NpudProcess::Transport::kUnix);
}

TEST_F(HostilePeerTest, KilledClientsLeaveNothingOverTcp) {
  KilledClientsLeaveNothing(NpudProcess::Transport::kTcp);
}

// Many clients at once, each launching kernels and copying with checked
// results: every one is served right, and the daemon's memory comes back.
TEST_F(HostilePeerTest, ManyClientsAtOnceAreAllServedRight) {
  Start({});
  constexpr int kClients = 16;
  std::vector<std::unique_ptr<npud::testing::ChildProcess>> clients;
  for (int i = 0; i < kClients; ++i) {
    // Half over the local protocol, half over gRPC on the same socket.
    std::vector<std::string> env = ClientEnv();
    if (i % 2 == 1) env.push_back("NPUD_TRANSPORT=grpc");
    auto child =
        npud::testing::ChildProcess::Spawn({ACL_TEST_CLIENT, "add-loop", E2E_KERNELS_PATH}, env);
    ASSERT_TRUE(child.ok()) << child.status();
    clients.push_back(*std::move(child));
  }
  for (auto& child : clients) ASSERT_EQ(child->ReadLine(absl::Seconds(60)), "READY");
  const Usage peak = PeakOver(absl::Seconds(4));
  const double honest = HonestClientSeconds();
  uint64_t rounds = 0;
  for (auto& child : clients) {
    child->WriteLine("stop");
    const std::string summary = child->ReadLine(absl::Seconds(60));
    uint64_t r = 0, bad = 1;
    ASSERT_EQ(std::sscanf(summary.c_str(), "ROUNDS %" SCNu64 " BAD %" SCNu64, &r, &bad), 2)
        << summary;
    EXPECT_GT(r, 0u) << summary;
    EXPECT_EQ(bad, 0u) << summary;
    rounds += r;
    EXPECT_EQ(child->Wait(), 0);
  }
  const Usage after = WaitForUsage(64);
  Report((std::to_string(kClients) + " clients launching and copying for 4 s, " +
          std::to_string(rounds) + " checked rounds (peak shown as during)")
             .c_str(),
         peak, after, honest);
  // ASan's quarantine keeps freed memory resident.
  if (!NPUD_ADDRESS_SANITIZER) {
    EXPECT_LE(after.rss_mib, before_.rss_mib + 64);
  }
}

// gRPC over TCP: connections that never finish the HTTP/2 handshake, or
// send garbage, are closed after the hello timeout, like the local
// protocol's.
TEST_F(HostilePeerTest, GrpcConnectionsWithoutCallsAreClosed) {
  Start({"--hello_timeout_ms=1500"}, NpudProcess::Transport::kTcp);
  std::vector<int> attackers;
  for (int i = 0; i < 300; ++i) {
    const int fd = ConnectTcp();
    ASSERT_GE(fd, 0) << std::strerror(errno);
    if (i % 3 == 0) {
      const char garbage[] = "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n\x01\x02\x03";
      (void)!write(fd, garbage, sizeof(garbage));
    }
    attackers.push_back(fd);
  }
  absl::SleepFor(absl::Milliseconds(300));
  const Usage during = UsageOf(daemon_->pid());
  const double honest = HonestClientSeconds();
  // The daemon closes them while this side still holds every one.
  const Usage after = WaitForFds(before_.fds, absl::Seconds(10));
  Report("300 gRPC connections without a call (a third sending garbage)", during, after, honest);
  for (int fd : attackers) close(fd);
  EXPECT_GE(during.fds, before_.fds + 100) << "the connections were not accepted";
  EXPECT_LT(during.rss_mib, before_.rss_mib + 64);
  EXPECT_LE(after.fds, before_.fds);
}

// gRPC over TCP: one peer address holds at most --max_connections_per_peer
// sessions; the next is refused, and served once one of them has gone.
TEST_F(HostilePeerTest, GrpcSessionsPastThePeerLimitAreRefused) {
  Start({"--max_connections_per_peer=2"}, NpudProcess::Transport::kTcp);
  std::vector<std::unique_ptr<npud::testing::ChildProcess>> held;
  for (int i = 0; i < 2; ++i) {
    auto child = npud::testing::ChildProcess::Spawn({ACL_TEST_CLIENT, "hold", "4096"}, ClientEnv());
    ASSERT_TRUE(child.ok()) << child.status();
    ASSERT_TRUE(absl::StartsWith((*child)->ReadLine(absl::Seconds(20)), "ADDR "));
    held.push_back(*std::move(child));
  }
  EXPECT_NE(RunProcess({ACL_TEST_CLIENT, "flows"}, ClientEnv()), 0);
  EXPECT_TRUE(absl::StrContains(daemon_->Log(), "holds its limit of 2 connections"))
      << daemon_->Log();
  const Usage during = UsageOf(daemon_->pid());
  held[0]->CloseStdin();
  EXPECT_EQ(held[0]->Wait(), 0);
  // The held session ends a moment after its process.
  int served = -1;
  for (const absl::Time end = absl::Now() + absl::Seconds(10); served != 0 && absl::Now() < end;) {
    served = RunProcess({ACL_TEST_CLIENT, "flows"}, ClientEnv());
    if (served != 0) absl::SleepFor(absl::Milliseconds(100));
  }
  EXPECT_EQ(served, 0);
  held[1]->CloseStdin();
  EXPECT_EQ(held[1]->Wait(), 0);
  Report("a third gRPC session from one address past --max_connections_per_peer=2", during,
         UsageOf(daemon_->pid()), HonestClientSeconds());
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

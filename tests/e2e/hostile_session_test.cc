// npud against clients that hold a session and abuse it: host memory the
// client shrinks under npud, kernel binary uploads that never end, frames
// announced large and sent in part or slowly, one client
// after the host's memory, copy loads and clients SIGKILLed at random moments
// over the local protocol and gRPC (the memory and descriptors they leave
// behind), many clients at once, and tokens with limits of their own, against
// a daemon that requires a token. Each attack checks the daemon's resident
// memory, descriptors and threads from /proc against a bound, and that an
// honest client is served correctly (its time is printed with the figures).
// hostile_connection_test attacks connections before and around the hello.

#include <poll.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/time/clock.h"
#include "common/bulk_frame.h"
#include "gtest/gtest.h"
#include "npud/v1/npud.pb.h"
#include "tests/e2e/hostile_peer.h"
#include "tests/e2e/npud_process.h"
#include "tests/e2e/raw_session.h"

namespace {

using npud::testing::Describe;
using npud::testing::NpudProcess;
using npud::testing::RawSession;
using npud::testing::Usage;
using npud::testing::UsageOf;

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

class HostilePeerTest : public npud::testing::HostilePeerFixture {
 protected:
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

// A client shares host memory it can still shrink, then has npud copy from
// it. npud seals the file against shrinking before it maps it (a file that
// cannot be sealed is refused), so the shrink fails, the copy works and npud
// lives; before, the copy was a SIGBUS that ended every session.
TEST_F(HostilePeerTest, SharedMemoryTheClientShrinksCannotCrashNpud) {
  Start({});
  RawSession session(Connect(), kToken);
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
  RawSession session(Connect(), kToken);
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

// One client allocating on every device cannot take the host's memory: past
// --host_memory_limit_mib its allocation fails, another client's fits once
// the first has gone, and npud stays up.
// Sends a frame header announcing `length` bytes, then up to `bytes` of
// them; returns how many went before the connection broke.
size_t SendPartOfAFrame(int fd, uint32_t length, size_t bytes) {
  const char header[8] = {static_cast<char>(length & 0xff),
                          static_cast<char>((length >> 8) & 0xff),
                          static_cast<char>((length >> 16) & 0xff),
                          static_cast<char>(length >> 24),
                          0,
                          0,
                          0,
                          0};
  if (send(fd, header, sizeof(header), MSG_NOSIGNAL) != 8) return 0;
  const std::string chunk(1 << 20, 'f');
  size_t sent = 0;
  while (sent < bytes) {
    const ssize_t n = send(fd, chunk.data(), std::min(chunk.size(), bytes - sent), MSG_NOSIGNAL);
    if (n <= 0) break;
    sent += n;
  }
  return sent;
}

// How long until npud closes `fd` (at most `limit`; infinite if it did not).
absl::Duration TimeUntilClosed(int fd, absl::Duration limit) {
  const absl::Time start = absl::Now();
  while (absl::Now() - start < limit) {
    pollfd p{fd, POLLIN, 0};
    if (poll(&p, 1, 50) > 0) {
      char byte;
      if (recv(fd, &byte, 1, MSG_DONTWAIT) <= 0) return absl::Now() - start;
    }
  }
  return absl::InfiniteDuration();
}

// A session announcing a 256 MiB frame and sending it: the frame counts
// toward the session's memory while it arrives, so npud closes the
// connection once it passes the limit and the overdraft (64 + 32 MiB), and
// its memory stays put. Before, npud took every byte of it (256 per
// address, 1024 sessions in all).
TEST_F(HostilePeerTest, UnfinishedFramesCountTowardTheSessionsMemory) {
  Start({"--session_memory_mib=64"});
  RawSession session(Connect(), kToken);
  ASSERT_TRUE(session.ok());
  const size_t sent = SendPartOfAFrame(session.fd(), 256u << 20, 200u << 20);
  const Usage during = UsageOf(daemon_->pid());
  EXPECT_LT(sent, 150u << 20) << "npud took " << (sent >> 20) << " MiB of one frame";
  EXPECT_NE(TimeUntilClosed(session.fd(), absl::Seconds(5)), absl::InfiniteDuration());
  EXPECT_LT(during.rss_mib, before_.rss_mib + 150) << Describe(during);
  EXPECT_NE(daemon_->Log().find("session memory limit"), std::string::npos) << daemon_->Log();
  EXPECT_TRUE(daemon_->Alive());
  HonestClientSeconds();
}

// A framed session on npud's TCP port announcing a 2 MiB frame and sending
// half of it: the frame must be whole within the hello timeout plus 1 s per
// MiB announced (here 1 + 2 s), then npud closes the connection. Before, a
// session could hold a partial frame for as long as it liked.
TEST_F(HostilePeerTest, StalledFramesAreCutAtTheirDeadline) {
  Start({"--hello_timeout_ms=1000"}, NpudProcess::Transport::kFramed);
  const int fd = ConnectTcp();
  ASSERT_GE(fd, 0);
  npud::bulk::FrameHeader header;
  header.type = npud::bulk::FrameType::kSession;
  const npud::bulk::EncodedHeader bytes = npud::bulk::EncodeHeader(header);
  ASSERT_EQ(send(fd, bytes.data(), bytes.size(), MSG_NOSIGNAL), static_cast<ssize_t>(bytes.size()));
  RawSession session(fd, kToken);
  ASSERT_TRUE(session.ok()) << daemon_->Log();
  ASSERT_EQ(SendPartOfAFrame(fd, 2u << 20, 1u << 20), 1u << 20);
  const absl::Duration closed = TimeUntilClosed(fd, absl::Seconds(10));
  std::printf("[figures] a stalled 2 MiB frame was cut after %s\n",
              absl::FormatDuration(closed).c_str());
  EXPECT_GE(closed, absl::Seconds(2));
  EXPECT_LE(closed, absl::Seconds(6));
  EXPECT_NE(daemon_->Log().find("did not arrive within"), std::string::npos) << daemon_->Log();
  HonestClientSeconds();
}

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

}  // namespace

// npud against peers that attack its connections rather than a session:
// against a daemon that requires a token, on the local protocol before the
// hello, frame headers announcing huge frames, descriptors, thousands of
// idle connections, connection floods past the limits and past the daemon's
// descriptor limit, a hello that lies about its sender; on npud's own port,
// connections trickling their header past the hello deadline; on gRPC over
// TCP, idle and garbage connections and sessions past the per-peer limit;
// and a daemon that never answers, against the clients. Each attack checks
// the daemon's resident memory, descriptors and threads from /proc against
// a bound, and that an honest client is served correctly (its time is
// printed with the figures). hostile_session_test attacks from inside a
// session.

#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
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
#include "tests/e2e/hostile_peer.h"
#include "tests/e2e/npud_process.h"

namespace {

using npud::testing::NpudProcess;
using npud::testing::RunProcess;
using npud::testing::Usage;
using npud::testing::UsageOf;

class HostilePeerTest : public npud::testing::HostilePeerFixture {
 protected:
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

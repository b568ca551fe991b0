#include "daemon/frame_guard.h"

#include <sys/socket.h>
#include <unistd.h>

#include <string>
#include <thread>
#include <vector>

#include "absl/synchronization/notification.h"
#include "absl/time/clock.h"
#include "common/frame_io.h"
#include "gtest/gtest.h"

namespace npud::daemon {
namespace {

constexpr size_t kMiB = 1 << 20;

// A connected pair: the test writes raw bytes on `client`, a FrameReader
// reads `server` with a FrameGuard charging `quota`.
class FrameGuardTest : public ::testing::Test {
 protected:
  void SetUp() override {
    int fds[2];
    ASSERT_EQ(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds), 0);
    client_ = fds[0];
    server_ = fds[1];
  }
  void TearDown() override {
    close(client_);
    close(server_);
  }

  // Writes a header announcing `length` bytes, then `sent` of them, from a
  // thread (the socket buffer is smaller than a frame).
  std::thread Send(uint32_t length, size_t sent) {
    return std::thread([this, length, sent] {
      std::string bytes(kFrameHeaderBytes + sent, 'x');
      for (int i = 0; i < 4; ++i) bytes[i] = static_cast<char>((length >> (8 * i)) & 0xff);
      bytes[4] = bytes[5] = bytes[6] = bytes[7] = 0;
      size_t at = 0;
      while (at < bytes.size()) {
        const ssize_t n = send(client_, bytes.data() + at, bytes.size() - at, MSG_NOSIGNAL);
        if (n <= 0) return;  // the reader gave up
        at += n;
      }
    });
  }

  int client_ = -1;
  int server_ = -1;
  DelayedExecutor timers_;
};

TEST_F(FrameGuardTest, ALargeFrameIsChargedWhileReadAndGivenBackWhenDone) {
  auto quota = std::make_shared<MemoryQuota>(4 * kMiB);
  FrameGuard guard(&timers_, absl::Seconds(10), [] {});
  guard.ChargeTo(quota);
  FrameReader reader(server_);
  reader.set_allowance(&guard);
  std::thread sender = Send(3 * kMiB, 3 * kMiB);
  std::string payload;
  std::vector<int> fds;
  ASSERT_TRUE(reader.Read(&payload, &fds).ok());
  sender.join();
  EXPECT_EQ(payload.size(), 3 * kMiB);
  EXPECT_TRUE(guard.large());
  EXPECT_EQ(quota->used(), 3 * kMiB - kFrameFirstStep);
  guard.FrameDone(&payload);
  EXPECT_EQ(quota->used(), 0u);
}

TEST_F(FrameGuardTest, SmallFramesAreNeitherChargedNorTimed) {
  auto quota = std::make_shared<MemoryQuota>(1);
  FrameGuard guard(&timers_, absl::Seconds(10), [] {});
  guard.ChargeTo(quota);
  FrameReader reader(server_);
  reader.set_allowance(&guard);
  std::thread sender = Send(kFrameFirstStep, kFrameFirstStep);
  std::string payload;
  std::vector<int> fds;
  EXPECT_TRUE(reader.Read(&payload, &fds).ok());
  sender.join();
  EXPECT_FALSE(guard.large());
  EXPECT_EQ(quota->used(), 0u);
}

// A session at its limit may still send frames of up to kOverdraft (its
// calls are then answered, with 207001 where they need memory); larger ones
// end the read.
TEST_F(FrameGuardTest, AFramePastTheQuotaAndItsOverdraftEndsTheReadWithoutKeepingTheCharge) {
  auto quota = std::make_shared<MemoryQuota>(1 * kMiB);
  ASSERT_TRUE(quota->Charge(kMiB / 2).ok());  // the session's own memory
  FrameGuard guard(&timers_, absl::Seconds(10), [] {});
  guard.ChargeTo(quota);
  FrameReader reader(server_);
  reader.set_allowance(&guard);
  std::thread sender = Send(128 * kMiB, 128 * kMiB);
  std::string payload;
  std::vector<int> fds;
  const absl::Status read = reader.Read(&payload, &fds);
  EXPECT_TRUE(absl::IsResourceExhausted(read)) << read;
  // The buffer grew to the limit and its overdraft at most.
  EXPECT_LE(payload.size(), 1 * kMiB + FrameGuard::kOverdraft + kFrameFirstStep);
  guard.FrameDone(&payload);
  EXPECT_EQ(quota->used(), kMiB / 2);
  shutdown(server_, SHUT_RDWR);
  sender.join();
}

TEST_F(FrameGuardTest, AFrameWithinTheOverdraftIsReadAtTheLimit) {
  auto quota = std::make_shared<MemoryQuota>(1 * kMiB);
  ASSERT_TRUE(quota->Charge(1 * kMiB).ok());
  FrameGuard guard(&timers_, absl::Seconds(10), [] {});
  guard.ChargeTo(quota);
  FrameReader reader(server_);
  reader.set_allowance(&guard);
  std::thread sender = Send(16 * kMiB, 16 * kMiB);
  std::string payload;
  std::vector<int> fds;
  EXPECT_TRUE(reader.Read(&payload, &fds).ok());
  sender.join();
  guard.FrameDone(&payload);
  EXPECT_EQ(quota->used(), 1 * kMiB);
}

TEST_F(FrameGuardTest, AStalledLargeFrameIsCutAtItsDeadline) {
  auto quota = std::make_shared<MemoryQuota>(0);
  absl::Notification cut;
  const absl::Time start = absl::Now();
  FrameGuard guard(&timers_, absl::Milliseconds(100), [&] {
    cut.Notify();
    shutdown(server_, SHUT_RDWR);
  });
  guard.ChargeTo(quota);
  FrameReader reader(server_);
  reader.set_allowance(&guard);
  // 1 MiB announced (deadline 100 ms + 1 s), half of it sent, then nothing.
  std::thread sender = Send(1 * kMiB, kMiB / 2);
  std::string payload;
  std::vector<int> fds;
  EXPECT_FALSE(reader.Read(&payload, &fds).ok());
  sender.join();
  ASSERT_TRUE(cut.WaitForNotificationWithTimeout(absl::Seconds(10)));
  EXPECT_GE(absl::Now() - start, absl::Milliseconds(1100));
}

TEST_F(FrameGuardTest, AFrameDoneInTimeOrAGuardGoneIsNeverCut) {
  auto quota = std::make_shared<MemoryQuota>(0);
  std::atomic<int> cuts{0};
  {
    FrameGuard guard(&timers_, absl::Milliseconds(50), [&] { ++cuts; });
    guard.ChargeTo(quota);
    FrameReader reader(server_);
    reader.set_allowance(&guard);
    std::thread sender = Send(kMiB / 2, kMiB / 2);
    std::string payload;
    std::vector<int> fds;
    ASSERT_TRUE(reader.Read(&payload, &fds).ok());
    sender.join();
    guard.FrameDone(&payload);
    // The next frame grows and is left unfinished, then the guard goes.
    std::thread stalled = Send(kMiB / 2, 3 * kFrameFirstStep);
    absl::SleepFor(absl::Milliseconds(20));
    shutdown(client_, SHUT_WR);
    stalled.join();
    EXPECT_FALSE(reader.Read(&payload, &fds).ok());
  }
  absl::SleepFor(absl::Milliseconds(300));  // past both deadlines
  EXPECT_EQ(cuts.load(), 0);
}

}  // namespace
}  // namespace npud::daemon

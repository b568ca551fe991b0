// Host<->device copies on every path the transports offer, checked byte for
// byte: pinned memory (shared with a local daemon), pageable memory (through
// the staging ring when local, inline otherwise), odd sizes and sizes around
// chunk and slot boundaries, unaligned pointers, several threads at once.
// Runs over the local protocol, gRPC on the unix socket and TCP.

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <memory>
#include <thread>
#include <vector>

#include <unistd.h>

#include <cstdlib>
#include <string>

#include "acl/acl.h"
#include "google/protobuf/util/json_util.h"
#include "gtest/gtest.h"
#include "npud/v1/npud.pb.h"
#include "tests/e2e/daemon_environment.h"

namespace {

const auto* const kEnvironment =
    ::testing::AddGlobalTestEnvironment(new npud::testing::DaemonEnvironment);

constexpr size_t kMiB = 1 << 20;

// Sizes around the 64 KiB inline/ring threshold, the 1 MiB wire chunk and
// the 4 MiB ring slot, and one larger than the whole 32 MiB ring.
const size_t kSizes[] = {
    1,        4095,         4096,     65535,        65536,        65537,        kMiB - 1,
    kMiB + 1, 4 * kMiB - 1, 4 * kMiB, 4 * kMiB + 1, 9 * kMiB + 7, 33 * kMiB + 5};

void Fill(uint8_t* p, size_t n, uint32_t seed) {
  for (size_t i = 0; i < n; ++i) p[i] = static_cast<uint8_t>((i * 2654435761u + seed) >> 13);
}

// Host memory of one kind.
class HostBuffer {
 public:
  HostBuffer(bool pinned, size_t size) : pinned_(pinned) {
    if (pinned) {
      EXPECT_EQ(aclrtMallocHost(&data_, size + 1), ACL_SUCCESS);
    } else {
      storage_.resize(size + 1);
      data_ = storage_.data();
    }
  }
  ~HostBuffer() {
    if (pinned_) {
      EXPECT_EQ(aclrtFreeHost(data_), ACL_SUCCESS);
    }
  }
  // One byte in, so pageable copies also start unaligned.
  uint8_t* get() { return static_cast<uint8_t*>(data_) + (pinned_ ? 0 : 1); }

 private:
  bool pinned_;
  void* data_ = nullptr;
  std::vector<uint8_t> storage_;
};

class TransferTest : public ::testing::TestWithParam<bool> {
 protected:
  void SetUp() override {
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    ASSERT_EQ(aclrtCreateStream(&stream_), ACL_SUCCESS);
  }
  void TearDown() override { EXPECT_EQ(aclrtDestroyStream(stream_), ACL_SUCCESS); }
  bool pinned() const { return GetParam(); }

  aclrtStream stream_ = nullptr;
};

INSTANTIATE_TEST_SUITE_P(PinnedAndPageable, TransferTest, ::testing::Bool(),
                         [](const ::testing::TestParamInfo<bool>& info) {
                           return info.param ? "Pinned" : "Pageable";
                         });

TEST_P(TransferTest, SynchronousRoundTrips) {
  for (size_t size : kSizes) {
    SCOPED_TRACE(size);
    HostBuffer in(pinned(), size), out(pinned(), size);
    Fill(in.get(), size, static_cast<uint32_t>(size));
    std::memset(out.get(), 0, size);
    void* device = nullptr;
    ASSERT_EQ(aclrtMalloc(&device, size, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    ASSERT_EQ(aclrtMemcpy(device, size, in.get(), size, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
    ASSERT_EQ(aclrtMemcpy(out.get(), size, device, size, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
    EXPECT_EQ(std::memcmp(in.get(), out.get(), size), 0);
    ASSERT_EQ(aclrtFree(device), ACL_SUCCESS);
  }
}

TEST_P(TransferTest, AsynchronousRoundTripsOnAStream) {
  for (size_t size : kSizes) {
    SCOPED_TRACE(size);
    HostBuffer in(pinned(), size), out(pinned(), size);
    Fill(in.get(), size, static_cast<uint32_t>(size) * 7);
    std::memset(out.get(), 0, size);
    void* device = nullptr;
    ASSERT_EQ(aclrtMalloc(&device, size, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    ASSERT_EQ(aclrtMemcpyAsync(device, size, in.get(), size, ACL_MEMCPY_HOST_TO_DEVICE, stream_),
              ACL_SUCCESS);
    ASSERT_EQ(aclrtMemcpyAsync(out.get(), size, device, size, ACL_MEMCPY_DEVICE_TO_HOST, stream_),
              ACL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
    EXPECT_EQ(std::memcmp(in.get(), out.get(), size), 0);
    ASSERT_EQ(aclrtFree(device), ACL_SUCCESS);
  }
}

TEST_P(TransferTest, PartsOfABufferAtOffsets) {
  const size_t size = 6 * kMiB + 123;
  HostBuffer host(pinned(), size);
  Fill(host.get(), size, 99);
  void* device = nullptr;
  ASSERT_EQ(aclrtMalloc(&device, size, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemset(device, size, 0, size), ACL_SUCCESS);
  // Copy the middle part, then read everything back.
  const size_t offset = kMiB + 17, length = 3 * kMiB + 5;
  auto* d = static_cast<uint8_t*>(device);
  ASSERT_EQ(aclrtMemcpy(d + offset, length, host.get() + offset, length, ACL_MEMCPY_HOST_TO_DEVICE),
            ACL_SUCCESS);
  std::vector<uint8_t> back(size);
  ASSERT_EQ(aclrtMemcpy(back.data(), size, device, size, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
  EXPECT_TRUE(std::all_of(back.begin(), back.begin() + offset, [](uint8_t b) { return b == 0; }));
  EXPECT_EQ(std::memcmp(back.data() + offset, host.get() + offset, length), 0);
  EXPECT_TRUE(
      std::all_of(back.begin() + offset + length, back.end(), [](uint8_t b) { return b == 0; }));
  ASSERT_EQ(aclrtFree(device), ACL_SUCCESS);
}

TEST_P(TransferTest, ManyThreadsCopyAtOnce) {
  constexpr int kThreads = 6;
  constexpr size_t kSize = 10 * kMiB + 3;
  std::vector<std::thread> threads;
  std::vector<int> bad(kThreads, 0);
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      if (aclrtSetDevice(0) != ACL_SUCCESS) {
        bad[t] = -1;
        return;
      }
      HostBuffer in(pinned(), kSize), out(pinned(), kSize);
      void* device = nullptr;
      if (aclrtMalloc(&device, kSize, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS) {
        bad[t] = -2;
        return;
      }
      for (int round = 0; round < 5; ++round) {
        Fill(in.get(), kSize, static_cast<uint32_t>(t * 100 + round));
        if (aclrtMemcpy(device, kSize, in.get(), kSize, ACL_MEMCPY_HOST_TO_DEVICE) != 0 ||
            aclrtMemcpy(out.get(), kSize, device, kSize, ACL_MEMCPY_DEVICE_TO_HOST) != 0 ||
            std::memcmp(in.get(), out.get(), kSize) != 0) {
          ++bad[t];
        }
      }
      aclrtFree(device);
    });
  }
  for (std::thread& thread : threads) thread.join();
  for (int t = 0; t < kThreads; ++t) EXPECT_EQ(bad[t], 0) << "thread " << t;
}

TEST(PinnedMemoryTest, FreedPinnedMemoryIsRefusedAndForeignPointersToo) {
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  void* host = nullptr;
  ASSERT_EQ(aclrtMallocHost(&host, 8192), ACL_SUCCESS);
  std::memset(host, 0x11, 8192);
  ASSERT_EQ(aclrtFreeHost(host), ACL_SUCCESS);
  EXPECT_EQ(aclrtFreeHost(host), ACL_ERROR_RT_PARAM_INVALID);
  int on_stack = 0;
  EXPECT_EQ(aclrtFreeHost(&on_stack), ACL_ERROR_RT_PARAM_INVALID);
}

// --- Which path a copy takes ----------------------------------------------

// This process's copy counters, as the daemon's admin service reports them.
npud::v1::SessionStatus OwnCounters() {
  npud::testing::NpudProcess* daemon = npud::testing::DaemonEnvironment::daemon();
  std::string out;
  EXPECT_EQ(
      npud::testing::RunProcess(
          {NPUCTL_BINARY, "--address=" + daemon->grpc_address(), "--json", "sessions"}, {}, &out),
      0);
  npud::v1::ListSessionsReply reply;
  EXPECT_TRUE(google::protobuf::util::JsonStringToMessage(out, &reply).ok()) << out;
  for (const auto& session : reply.sessions()) {
    if (session.pid() == getpid()) return session;
  }
  ADD_FAILURE() << "no session of pid " << getpid() << " in\n" << out;
  return {};
}

// Each copy takes the path it is meant to: over the local protocol,
// aclrtMallocHost memory is copied in place and other host memory through
// the staging ring, with no bytes inside messages; over TCP, plain or TLS,
// the bytes of large copies travel on the bulk channel; over gRPC on the
// socket inside messages. A copy that silently
// falls back to a slower path fails here, however correct its bytes.
TEST(CopyPathTest, CopiesTakeTheirFastPath) {
  if (npud::testing::InprocFromEnv()) GTEST_SKIP() << "no daemon process to ask";
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  constexpr size_t kSize = 8 * kMiB;
  void* device = nullptr;
  ASSERT_EQ(aclrtMalloc(&device, kSize, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  HostBuffer pageable(false, kSize), pinned(true, kSize);
  const npud::v1::SessionStatus before = OwnCounters();
  for (HostBuffer* host : {&pageable, &pinned}) {
    ASSERT_EQ(aclrtMemcpy(device, kSize, host->get(), kSize, ACL_MEMCPY_HOST_TO_DEVICE),
              ACL_SUCCESS);
    ASSERT_EQ(aclrtMemcpy(host->get(), kSize, device, kSize, ACL_MEMCPY_DEVICE_TO_HOST),
              ACL_SUCCESS);
  }
  const npud::v1::SessionStatus after = OwnCounters();
  const uint64_t inline_bytes = after.inline_copy_bytes() - before.inline_copy_bytes();
  const uint64_t window_bytes = after.window_copy_bytes() - before.window_copy_bytes();
  const uint64_t staging_bytes = after.staging_copy_bytes() - before.staging_copy_bytes();
  const uint64_t bulk_bytes = after.bulk_copy_bytes() - before.bulk_copy_bytes();
  const char* transport = std::getenv("NPUD_TRANSPORT");
  const std::string test_transport = std::getenv("NPUD_TEST_TRANSPORT");
  const bool local =
      test_transport == "unix" && (transport == nullptr || std::string(transport) != "grpc");
  if (local) {
    EXPECT_EQ(staging_bytes, 2 * kSize);
    EXPECT_EQ(window_bytes, 2 * kSize);
    EXPECT_EQ(inline_bytes, 0u);
    EXPECT_EQ(bulk_bytes, 0u);
  } else if (test_transport == "tcp" || test_transport == "tls" || test_transport == "framed" ||
             test_transport == "framed_tls") {
    EXPECT_EQ(bulk_bytes, 4 * kSize);
    EXPECT_EQ(inline_bytes, 0u);
    EXPECT_EQ(window_bytes + staging_bytes, 0u);
  } else {
    EXPECT_EQ(inline_bytes, 4 * kSize);
    EXPECT_EQ(window_bytes + staging_bytes + bulk_bytes, 0u);
  }
  EXPECT_EQ(aclrtFree(device), ACL_SUCCESS);
}

}  // namespace

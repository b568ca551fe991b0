#include "simdevice/memory_tasks.h"

#include <cmath>
#include <cstring>
#include <functional>
#include <memory>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "absl/synchronization/mutex.h"
#include "absl/synchronization/notification.h"
#include "absl/time/clock.h"
#include "absl/types/span.h"
#include "common/acl_status.h"
#include "gtest/gtest.h"
#include "simdevice/detached_task.h"
#include "simdevice/device_set.h"
#include "simdevice/event.h"
#include "simdevice/event_tasks.h"
#include "simdevice/random_task.h"
#include "simdevice/reduce_task.h"
#include "simdevice/stream.h"
#include "tests/simdevice/test_util.h"

namespace npud::sim {
namespace {

using ::npud::sim::testing::CodeOf;
using ::npud::sim::testing::Gate;

constexpr uint64_t kMiB = 1ull << 20;
constexpr uint64_t kPage = DeviceMemory::kPageSize;
// Reads arrive in pieces of this size (not a divisor of the test sizes).
constexpr size_t kChunk = 3000;

std::string Pattern(size_t size, int seed) {
  std::string bytes(size, '\0');
  for (size_t i = 0; i < size; ++i) bytes[i] = static_cast<char>((i * 131 + seed * 17 + 5) & 0xff);
  return bytes;
}

// Collects what a read task hands over; reads() counts completed reads.
class ReadResult : public ReadConsumer {
 public:
  void Deliver(uint64_t offset, absl::Span<const uint8_t> bytes, bool last) override {
    absl::MutexLock lock(&mu_);
    if (offset == 0) bytes_.clear();
    EXPECT_EQ(offset, bytes_.size());
    bytes_.append(reinterpret_cast<const char*>(bytes.data()), bytes.size());
    if (last) ++reads_;
  }
  bool ReadyOrWake(const Waker&) override { return true; }
  std::string bytes() const {
    absl::MutexLock lock(&mu_);
    return bytes_;
  }
  int reads() const {
    absl::MutexLock lock(&mu_);
    return reads_;
  }

 private:
  mutable absl::Mutex mu_;
  std::string bytes_ ABSL_GUARDED_BY(mu_);
  int reads_ ABSL_GUARDED_BY(mu_) = 0;
};

class MemoryTasksTest : public ::testing::Test {
 protected:
  void SetUp() override {
    DeviceSet::Options options;
    options.device_count = 2;
    options.device.hbm_bytes = 64 * kMiB;
    options.scheduler_threads = 2;
    auto set = DeviceSet::Create(options);
    ASSERT_TRUE(set.ok()) << set.status();
    set_ = *std::move(set);
  }

  DeviceMemory& memory(int device) { return (*set_->Get(device))->memory(); }

  std::shared_ptr<Stream> NewStream(int device) {
    auto stream = std::make_shared<Stream>(device, next_id_++, &set_->scheduler());
    streams_.push_back(stream);
    return stream;
  }

  // Resolves a range that must be valid.
  DeviceRange Range(uint64_t address, uint64_t size) {
    auto range = set_->Resolve(address, size);
    EXPECT_TRUE(range.ok()) << range.status();
    return range.ok() ? *std::move(range) : DeviceRange{};
  }

  std::unique_ptr<DeviceSet> set_;
  // Declared after the set: destroyed (tasks cancelled) before it.
  std::vector<std::shared_ptr<Stream>> streams_;
  uint64_t next_id_ = 1;
};

TEST_F(MemoryTasksTest, WriteThenReadRoundTrips) {
  constexpr uint64_t kSize = 10000;
  SIM_ASSERT_OK_AND_ASSIGN(uint64_t a, memory(0).Allocate(kSize));
  auto stream = NewStream(0);
  const std::string data = Pattern(kSize, 1);
  auto result = std::make_shared<ReadResult>();
  stream->Submit(MakeWriteTask(Range(a, kSize), data));
  stream->Submit(MakeReadTask(Range(a, kSize), kChunk, result));
  SIM_ASSERT_DRAINS_OK(*stream);
  EXPECT_EQ(result->reads(), 1);
  EXPECT_EQ(result->bytes(), data);
  EXPECT_EQ(std::memcmp(reinterpret_cast<const void*>(a), data.data(), kSize), 0);
}

TEST_F(MemoryTasksTest, ReadAndWriteSubrangesAtAnOffset) {
  SIM_ASSERT_OK_AND_ASSIGN(uint64_t a, memory(1).Allocate(2 * kPage));
  auto stream = NewStream(1);
  const std::string data = Pattern(300, 2);
  auto result = std::make_shared<ReadResult>();
  stream->Submit(MakeWriteTask(Range(a + 4000, 300), data));  // crosses a page boundary
  stream->Submit(MakeReadTask(Range(a + 3990, 320), kChunk, result));
  SIM_ASSERT_DRAINS_OK(*stream);
  EXPECT_EQ(result->bytes(), std::string(10, '\0') + data + std::string(10, '\0'));
}

TEST_F(MemoryTasksTest, CopiesBetweenTwoDevices) {
  constexpr uint64_t kSize = 3 * kPage + 17;
  SIM_ASSERT_OK_AND_ASSIGN(uint64_t src, memory(0).Allocate(kSize));
  SIM_ASSERT_OK_AND_ASSIGN(uint64_t dst, memory(1).Allocate(kSize));
  auto stream = NewStream(0);
  const std::string data = Pattern(kSize, 3);
  auto on_dev1 = std::make_shared<ReadResult>();
  auto back_on_dev0 = std::make_shared<ReadResult>();

  stream->Submit(MakeWriteTask(Range(src, kSize), data));
  stream->Submit(MakeCopyTask(Range(dst, kSize), Range(src, kSize)));
  stream->Submit(MakeReadTask(Range(dst, kSize), kChunk, on_dev1));
  // And back from device 1 into the middle of the device 0 buffer.
  stream->Submit(MakeCopyTask(Range(src + 1000, 500), Range(dst, 500)));
  stream->Submit(MakeReadTask(Range(src, kSize), kChunk, back_on_dev0));
  SIM_ASSERT_DRAINS_OK(*stream);

  EXPECT_EQ(on_dev1->bytes(), data);
  std::string expected = data;
  expected.replace(1000, 500, data.substr(0, 500));
  EXPECT_EQ(back_on_dev0->bytes(), expected);
}

TEST_F(MemoryTasksTest, CopyHandlesOverlappingRanges) {
  constexpr uint64_t kSize = 4096;
  SIM_ASSERT_OK_AND_ASSIGN(uint64_t a, memory(0).Allocate(kSize));
  auto stream = NewStream(0);
  const std::string data = Pattern(kSize, 4);
  auto result = std::make_shared<ReadResult>();
  stream->Submit(MakeWriteTask(Range(a, kSize), data));
  // Shift the first kSize-100 bytes up by 100 (destination overlaps source).
  stream->Submit(MakeCopyTask(Range(a + 100, kSize - 100), Range(a, kSize - 100)));
  stream->Submit(MakeReadTask(Range(a, kSize), kChunk, result));
  SIM_ASSERT_DRAINS_OK(*stream);
  EXPECT_EQ(result->bytes(), data.substr(0, 100) + data.substr(0, kSize - 100));
}

TEST_F(MemoryTasksTest, MemsetFillsExactlyItsRange) {
  constexpr uint64_t kSize = 3 * kPage;
  SIM_ASSERT_OK_AND_ASSIGN(uint64_t a, memory(1).Allocate(kSize));
  auto stream = NewStream(1);
  const std::string data = Pattern(kSize, 5);
  auto result = std::make_shared<ReadResult>();
  stream->Submit(MakeWriteTask(Range(a, kSize), data));
  stream->Submit(MakeMemsetTask(Range(a + 100, 5000), 0xAB));
  stream->Submit(MakeReadTask(Range(a, kSize), kChunk, result));
  SIM_ASSERT_DRAINS_OK(*stream);
  std::string expected = data;
  expected.replace(100, 5000, std::string(5000, '\xAB'));
  EXPECT_EQ(result->bytes(), expected);
}

TEST_F(MemoryTasksTest, CopyAcrossStreamsAndDevicesOrderedByAnEvent) {
  constexpr uint64_t kSize = 64 * 1024;
  SIM_ASSERT_OK_AND_ASSIGN(uint64_t src, memory(0).Allocate(kSize));
  SIM_ASSERT_OK_AND_ASSIGN(uint64_t dst, memory(1).Allocate(kSize));
  auto producer = NewStream(0);
  auto consumer = NewStream(1);
  auto event = std::make_shared<Event>(0, 1, 0);
  auto gate = std::make_shared<Gate>();
  const std::string data = Pattern(kSize, 6);
  auto result = std::make_shared<ReadResult>();

  producer->Submit(gate->NewTask());
  producer->Submit(MakeWriteTask(Range(src, kSize), data));
  producer->Submit(MakeRecordEventTask(event));
  consumer->Submit(MakeWaitEventTask(event));
  consumer->Submit(MakeCopyTask(Range(dst, kSize), Range(src, kSize)));
  consumer->Submit(MakeReadTask(Range(dst, kSize), kChunk, result));
  gate->Open();
  SIM_ASSERT_DRAINS_OK(*consumer);
  EXPECT_EQ(result->bytes(), data);
  SIM_ASSERT_DRAINS_OK(*producer);
}

TEST_F(MemoryTasksTest, QueuedTaskPinsMemoryFreedBeforeItRuns) {
  DeviceMemory& mem = memory(0);
  SIM_ASSERT_OK_AND_ASSIGN(uint64_t a, mem.Allocate(kPage));
  auto stream = NewStream(0);
  auto gate = std::make_shared<Gate>();
  auto result = std::make_shared<ReadResult>();
  stream->Submit(gate->NewTask());
  stream->Submit(MakeWriteTask(Range(a, kPage), Pattern(kPage, 7)));
  stream->Submit(MakeReadTask(Range(a, kPage), kChunk, result));

  SIM_ASSERT_OK(mem.Free(a));  // the client frees while the tasks are queued
  EXPECT_EQ(CodeOf(set_->Resolve(a, 1)), kRtParamInvalid);
  EXPECT_EQ(mem.used_bytes(), kPage) << "freed memory released under queued tasks";

  gate->Open();
  SIM_ASSERT_DRAINS_OK(*stream);  // would fault if the pages were gone
  EXPECT_EQ(result->bytes(), Pattern(kPage, 7));
  // The tasks are destroyed before the drain notification runs.
  EXPECT_EQ(mem.used_bytes(), 0u);
}

// Every kind of memory task pins each range it was given, on its own.
TEST_F(MemoryTasksTest, EachTaskKindPinsItsRanges) {
  enum Kind { kWrite, kRead, kMemset, kCopyDst, kCopySrc };
  for (Kind kind : {kWrite, kRead, kMemset, kCopyDst, kCopySrc}) {
    SCOPED_TRACE(::testing::Message() << "kind " << kind);
    DeviceMemory& freed_mem = memory(0);
    DeviceMemory& kept_mem = memory(1);
    SIM_ASSERT_OK_AND_ASSIGN(uint64_t freed, freed_mem.Allocate(kPage));
    SIM_ASSERT_OK_AND_ASSIGN(uint64_t kept, kept_mem.Allocate(kPage));
    auto stream = NewStream(0);
    auto gate = std::make_shared<Gate>();
    auto result = std::make_shared<ReadResult>();
    stream->Submit(gate->NewTask());
    switch (kind) {
      case kWrite:
        stream->Submit(MakeWriteTask(Range(freed, kPage), Pattern(kPage, 8)));
        break;
      case kRead:
        stream->Submit(MakeReadTask(Range(freed, kPage), kChunk, result));
        break;
      case kMemset:
        stream->Submit(MakeMemsetTask(Range(freed, kPage), 0x77));
        break;
      case kCopyDst:
        stream->Submit(MakeCopyTask(Range(freed, kPage), Range(kept, kPage)));
        break;
      case kCopySrc:
        stream->Submit(MakeCopyTask(Range(kept, kPage), Range(freed, kPage)));
        break;
    }
    SIM_ASSERT_OK(freed_mem.Free(freed));
    EXPECT_EQ(freed_mem.used_bytes(), kPage) << "the queued task does not pin its range";
    gate->Open();
    SIM_ASSERT_DRAINS_OK(*stream);
    EXPECT_EQ(freed_mem.used_bytes(), 0u);
    if (kind == kRead) {
      EXPECT_EQ(result->bytes(), std::string(kPage, '\0'));
    }
    SIM_ASSERT_OK(kept_mem.Free(kept));
    EXPECT_EQ(kept_mem.used_bytes(), 0u);
  }
}

TEST_F(MemoryTasksTest, DiscardedTasksReleaseTheirPins) {
  DeviceMemory& mem = memory(1);
  SIM_ASSERT_OK_AND_ASSIGN(uint64_t a, mem.Allocate(2 * kPage));
  auto stream = NewStream(1);
  auto gate = std::make_shared<Gate>();
  stream->Submit(gate->NewTask());
  stream->Submit(MakeMemsetTask(Range(a, 2 * kPage), 1));
  SIM_ASSERT_OK(mem.Free(a));
  EXPECT_EQ(mem.used_bytes(), 2 * kPage);
  ASSERT_TRUE(gate->WaitPolled());
  stream->Discard(absl::CancelledError("discarded"));
  EXPECT_EQ(mem.used_bytes(), 0u);
}

}  // namespace
}  // namespace npud::sim

namespace npud::sim {
namespace {

// Takes one chunk, then has no room until the test allows the next.
class SlowReader : public ReadConsumer {
 public:
  void Deliver(uint64_t offset, absl::Span<const uint8_t> bytes, bool last) override {
    absl::MutexLock lock(&mu_);
    EXPECT_EQ(offset, bytes_.size());
    bytes_.append(reinterpret_cast<const char*>(bytes.data()), bytes.size());
    ++chunks_;
    done_ = last;
    room_ = false;
  }
  bool ReadyOrWake(const Waker& wake) override {
    absl::MutexLock lock(&mu_);
    if (room_) return true;
    waker_ = wake;
    return false;
  }
  // Makes room for one more chunk and wakes the parked read.
  void Allow() {
    Waker wake;
    {
      absl::MutexLock lock(&mu_);
      room_ = true;
      std::swap(wake, waker_);
    }
    if (wake) wake();
  }
  // Waits until `n` chunks have arrived (or gives up after 10 s).
  bool WaitForChunks(int n) {
    absl::MutexLock lock(&mu_);
    auto reached = [this, n]() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) { return chunks_ >= n; };
    return mu_.AwaitWithTimeout(absl::Condition(&reached), absl::Seconds(10));
  }
  int chunks() const {
    absl::MutexLock lock(&mu_);
    return chunks_;
  }
  bool parked() const {
    absl::MutexLock lock(&mu_);
    return waker_ != nullptr;
  }
  std::string bytes() const {
    absl::MutexLock lock(&mu_);
    return bytes_;
  }

 private:
  mutable absl::Mutex mu_;
  std::string bytes_ ABSL_GUARDED_BY(mu_);
  int chunks_ ABSL_GUARDED_BY(mu_) = 0;
  bool done_ ABSL_GUARDED_BY(mu_) = false;
  bool room_ ABSL_GUARDED_BY(mu_) = true;
  Waker waker_ ABSL_GUARDED_BY(mu_);
};

TEST_F(MemoryTasksTest, ReadsParkTheStreamUntilTheConsumerHasRoom) {
  constexpr uint64_t kSize = 3 * kChunk;
  SIM_ASSERT_OK_AND_ASSIGN(uint64_t address, memory(0).Allocate(kSize));
  const std::string data = Pattern(kSize, 7);
  std::memcpy(reinterpret_cast<void*>(address), data.data(), kSize);
  auto reader = std::make_shared<SlowReader>();
  auto stream = NewStream(0);
  stream->Submit(MakeReadTask(Range(address, kSize), kChunk, reader));
  ASSERT_TRUE(reader->WaitForChunks(1));
  // Parked: no worker spins or blocks on it, the stream is not idle.
  absl::SleepFor(absl::Milliseconds(50));
  EXPECT_EQ(reader->chunks(), 1);
  EXPECT_TRUE(reader->parked());
  EXPECT_FALSE(stream->Idle());
  reader->Allow();
  ASSERT_TRUE(reader->WaitForChunks(2));
  reader->Allow();
  SIM_ASSERT_DRAINS_OK(*stream);
  EXPECT_EQ(reader->chunks(), 3);
  EXPECT_EQ(reader->bytes(), data);
}

TEST_F(MemoryTasksTest, DetachedReadsFinishOnTheWakingThread) {
  constexpr uint64_t kSize = 2 * kChunk + 1;
  SIM_ASSERT_OK_AND_ASSIGN(uint64_t address, memory(0).Allocate(kSize));
  auto reader = std::make_shared<SlowReader>();
  absl::Notification done;
  absl::Status outcome = absl::UnknownError("not done");
  RunDetached(MakeReadTask(Range(address, kSize), kChunk, reader), [&](const absl::Status& status) {
    outcome = status;
    done.Notify();
  });
  EXPECT_EQ(reader->chunks(), 1);  // ran on this thread until it parked
  EXPECT_FALSE(done.HasBeenNotified());
  std::thread other([&] { reader->Allow(); });
  other.join();
  EXPECT_EQ(reader->chunks(), 2);
  reader->Allow();
  ASSERT_TRUE(done.WaitForNotificationWithTimeout(absl::Seconds(10)));
  EXPECT_TRUE(outcome.ok()) << outcome;
  EXPECT_EQ(reader->chunks(), 3);
}

// The built-in reduce: each element of dst becomes dst op src, in the
// element's own arithmetic (fp16 rounds to nearest even, int8 wraps).
TEST_F(MemoryTasksTest, ReduceCombinesElementwise) {
  SIM_ASSERT_OK_AND_ASSIGN(uint64_t dst, memory(0).Allocate(kPage));
  SIM_ASSERT_OK_AND_ASSIGN(uint64_t src, memory(0).Allocate(kPage));
  auto stream = NewStream(0);
  auto* d = reinterpret_cast<float*>(dst);
  auto* s = reinterpret_cast<float*>(src);
  for (int i = 0; i < 4; ++i) {
    d[i] = static_cast<float>(i + 1);
    s[i] = static_cast<float>(4 - i);
  }
  stream->Submit(
      MakeReduceTask(Range(dst, 16), Range(src, 16), ReduceOp::kSum, ReduceType::kFloat32));
  SIM_ASSERT_DRAINS_OK(*stream);
  EXPECT_EQ(std::vector<float>(d, d + 4), (std::vector<float>{5, 5, 5, 5}));
  d[0] = 1, d[1] = 7, d[2] = -3, d[3] = 0.5f;
  stream->Submit(
      MakeReduceTask(Range(dst, 16), Range(src, 16), ReduceOp::kMax, ReduceType::kFloat32));
  SIM_ASSERT_DRAINS_OK(*stream);
  EXPECT_EQ(std::vector<float>(d, d + 4), (std::vector<float>{4, 7, 2, 1}));
  stream->Submit(
      MakeReduceTask(Range(dst, 12), Range(src, 12), ReduceOp::kMin, ReduceType::kFloat32));
  SIM_ASSERT_DRAINS_OK(*stream);
  EXPECT_EQ(std::vector<float>(d, d + 4), (std::vector<float>{4, 3, 2, 1})) << "only 3 elements";

  // fp16: 2048 + 1 is not representable; ties go to even (2048).
  auto* h = reinterpret_cast<uint16_t*>(dst);
  auto* g = reinterpret_cast<uint16_t*>(src);
  h[0] = 0x6800;  // 2048
  g[0] = 0x3C00;  // 1
  h[1] = 0x3C00;  // 1
  g[1] = 0x3800;  // 0.5
  stream->Submit(
      MakeReduceTask(Range(dst, 4), Range(src, 4), ReduceOp::kSum, ReduceType::kFloat16));
  SIM_ASSERT_DRAINS_OK(*stream);
  EXPECT_EQ(h[0], 0x6800);
  EXPECT_EQ(h[1], 0x3E00);  // 1.5

  auto* b = reinterpret_cast<int8_t*>(dst);
  auto* c = reinterpret_cast<int8_t*>(src);
  b[0] = 120, c[0] = 10;
  b[1] = -5, c[1] = 3;
  stream->Submit(MakeReduceTask(Range(dst, 2), Range(src, 2), ReduceOp::kSum, ReduceType::kInt8));
  SIM_ASSERT_DRAINS_OK(*stream);
  EXPECT_EQ(b[0], -126);
  EXPECT_EQ(b[1], -2);
}

// Random numbers: each distribution's figures over many draws, the counter
// advancing (fresh numbers) and a reset counter repeating them.
TEST_F(MemoryTasksTest, RandomNumbersFollowTheirDistribution) {
  constexpr uint64_t kCount = 20000;
  SIM_ASSERT_OK_AND_ASSIGN(uint64_t out, memory(0).Allocate(kCount * 8));
  SIM_ASSERT_OK_AND_ASSIGN(uint64_t counter, memory(0).Allocate(kPage));
  std::memset(reinterpret_cast<void*>(counter), 0, 16);
  auto stream = NewStream(0);
  auto run = [&](RandomDistribution distribution, RandomType type, uint64_t a, uint64_t b,
                 uint32_t size) {
    RandomSpec spec;
    spec.distribution = distribution;
    spec.type = type;
    spec.a = RandomParam{a, size, std::nullopt};
    spec.b = RandomParam{b, size, std::nullopt};
    spec.seed = RandomParam{42, 8, std::nullopt};
    spec.count = kCount;
    spec.result = Range(out, kCount * 8);
    spec.counter = Range(counter, 16);
    stream->Submit(MakeRandomTask(std::move(spec)));
    return ::npud::sim::testing::Drain(*stream);
  };
  auto bits = [](float f) {
    uint32_t b;
    std::memcpy(&b, &f, 4);
    return uint64_t{b};
  };

  // Uniform int32 in [-5, 10).
  ASSERT_TRUE(
      run(RandomDistribution::kUniform, RandomType::kInt32, static_cast<uint32_t>(-5), 10, 4)
          ->ok());
  const auto* ints = reinterpret_cast<const int32_t*>(out);
  std::vector<int> seen(15);
  for (uint64_t i = 0; i < kCount; ++i) {
    ASSERT_GE(ints[i], -5);
    ASSERT_LT(ints[i], 10);
    ++seen[ints[i] + 5];
  }
  for (int n : seen) EXPECT_GT(n, static_cast<int>(kCount / 15 * 0.8));
  const std::vector<int32_t> first(ints, ints + 100);

  // Normal float, mean 3, deviation 2.
  ASSERT_TRUE(run(RandomDistribution::kNormal, RandomType::kFloat32, bits(3), bits(2), 4)->ok());
  const auto* floats = reinterpret_cast<const float*>(out);
  double sum = 0, squares = 0;
  for (uint64_t i = 0; i < kCount; ++i) sum += floats[i];
  const double mean = sum / kCount;
  for (uint64_t i = 0; i < kCount; ++i) squares += (floats[i] - mean) * (floats[i] - mean);
  EXPECT_NEAR(mean, 3.0, 0.1);
  EXPECT_NEAR(std::sqrt(squares / kCount), 2.0, 0.1);

  // Truncated normal stays within two deviations.
  ASSERT_TRUE(
      run(RandomDistribution::kTruncatedNormal, RandomType::kFloat32, bits(0), bits(1), 4)->ok());
  for (uint64_t i = 0; i < kCount; ++i) ASSERT_LE(std::fabs(floats[i]), 2.0f);

  // fp16 uniform in [1, 2): half-precision bit patterns 0x3C00..0x3FFF.
  ASSERT_TRUE(run(RandomDistribution::kUniform, RandomType::kFloat16, 0x3C00, 0x4000, 2)->ok());
  const auto* halves = reinterpret_cast<const uint16_t*>(out);
  for (uint64_t i = 0; i < kCount; ++i) {
    ASSERT_GE(halves[i], 0x3C00);
    ASSERT_LT(halves[i], 0x4000);
  }

  // Dropout: about 60% of the bits kept at ratio 0.4; bytes past the mask
  // untouched.
  reinterpret_cast<uint8_t*>(out)[kCount / 8] = 0xAB;
  ASSERT_TRUE(
      run(RandomDistribution::kDropoutBitmask, RandomType::kFloat32, bits(0.4f), 0, 4)->ok());
  int kept = 0;
  for (uint64_t i = 0; i < kCount / 8; ++i)
    kept += __builtin_popcount(reinterpret_cast<uint8_t*>(out)[i]);
  EXPECT_NEAR(static_cast<double>(kept) / kCount, 0.6, 0.02);
  EXPECT_EQ(reinterpret_cast<uint8_t*>(out)[kCount / 8], 0xAB);

  // The counter moved on: the same task gives new numbers; from a reset
  // counter the first ones again.
  ASSERT_TRUE(
      run(RandomDistribution::kUniform, RandomType::kInt32, static_cast<uint32_t>(-5), 10, 4)
          ->ok());
  EXPECT_NE(std::vector<int32_t>(ints, ints + 100), first);
  std::memset(reinterpret_cast<void*>(counter), 0, 16);
  ASSERT_TRUE(
      run(RandomDistribution::kUniform, RandomType::kInt32, static_cast<uint32_t>(-5), 10, 4)
          ->ok());
  EXPECT_EQ(std::vector<int32_t>(ints, ints + 100), first);

  // Bad parameters fail the task.
  EXPECT_EQ(CodeOf(*run(RandomDistribution::kUniform, RandomType::kInt32, 10, 10, 4)),
            kRtParamInvalid);
  EXPECT_EQ(
      CodeOf(*run(RandomDistribution::kDropoutBitmask, RandomType::kFloat32, bits(1.5f), 0, 4)),
      kRtParamInvalid);
}

}  // namespace
}  // namespace npud::sim

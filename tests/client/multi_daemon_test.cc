// The client core with two fake daemons behind it (NPUD_ADDRESS=a,b): one
// device list, each call at the daemon that owns what it touches, device ids
// in each daemon's own numbering, copies between the daemons through the
// client, and calls spanning two daemons refused.

#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "client/core/context_ops.h"
#include "client/core/event_ops.h"
#include "client/core/kernel_ops.h"
#include "client/core/memory_ops.h"
#include "client/core/runtime.h"
#include "client/core/stream_ops.h"
#include "common/acl_status.h"
#include "gtest/gtest.h"
#include "tests/client/fake_transport.h"

namespace npud::client {
namespace {

using testing::FakeTransport;

constexpr uint64_t kSpan = 1ull << 20;

// One fake daemon: `devices` devices of kSpan bytes from `base`, memory that
// keeps what is written, every other call answered with success.
struct FakeDaemon {
  FakeDaemon(uint64_t base, int devices) : base(base), memory(kSpan * devices) {}

  std::unique_ptr<FakeTransport> MakeTransport() {
    auto transport = std::make_unique<FakeTransport>();
    fake = transport.get();
    v1::HelloReply hello;
    hello.set_session_id(1);
    for (int i = 0; i < static_cast<int>(memory.size() / kSpan); ++i) {
      v1::DeviceDescription* device = hello.add_devices();
      device->set_device_id(i);
      device->set_soc_name("Ascend910B1");
      device->set_va_base(base + i * kSpan);
      device->set_va_size(kSpan);
    }
    transport->set_hello(hello);
    transport->set_responder([this](const v1::Call& call) { return Answer(call); });
    return transport;
  }

  std::vector<v1::ServerMessage> Answer(const v1::Call& call) {
    std::vector<v1::ServerMessage> messages;
    v1::ServerMessage reply;
    reply.mutable_reply()->set_call_id(call.call_id());
    if (call.has_malloc()) {
      // Device d's allocations start at its own base.
      const uint64_t at =
          base + call.malloc().device_id() * kSpan + next[call.malloc().device_id()];
      next[call.malloc().device_id()] += 4096;
      reply.mutable_reply()->mutable_malloc()->set_address(at);
    } else if (call.has_write_device()) {
      const std::string& data = call.write_device().data();
      std::memcpy(&memory[call.write_device().address() - base], data.data(), data.size());
    } else if (call.has_read_device()) {
      v1::ServerMessage chunk;
      chunk.mutable_data()->set_transfer_id(call.read_device().transfer_id());
      chunk.mutable_data()->set_data(&memory[call.read_device().address() - base],
                                     call.read_device().size());
      chunk.mutable_data()->set_last(true);
      messages.push_back(std::move(chunk));
    }
    messages.push_back(std::move(reply));
    return messages;
  }

  std::vector<v1::Call> CallsOf(v1::Call::OpCase kind) const {
    std::vector<v1::Call> found;
    for (const v1::Call& call : fake->calls()) {
      if (call.op_case() == kind) found.push_back(call);
    }
    return found;
  }

  const uint64_t base;
  std::vector<char> memory;
  uint64_t next[4] = {};
  FakeTransport* fake = nullptr;
};

class MultiDaemonTest : public ::testing::Test {
 protected:
  // Daemon a: one device (program device 0); daemon b: two (1 and 2).
  void Start(uint64_t b_base = 48ull << 40) {
    a_ = std::make_unique<FakeDaemon>(32ull << 40, 1);
    b_ = std::make_unique<FakeDaemon>(b_base, 2);
    runtime_ = std::make_unique<Runtime>(
        [this]() -> absl::StatusOr<std::vector<std::unique_ptr<Transport>>> {
          std::vector<std::unique_ptr<Transport>> transports;
          transports.push_back(a_->MakeTransport());
          transports.push_back(b_->MakeTransport());
          return transports;
        });
    scope_ = std::make_unique<ScopedRuntime>(runtime_.get());
  }
  void TearDown() override {
    scope_.reset();
    runtime_.reset();
  }

  std::unique_ptr<FakeDaemon> a_;
  std::unique_ptr<FakeDaemon> b_;
  std::unique_ptr<Runtime> runtime_;
  std::unique_ptr<ScopedRuntime> scope_;
};

TEST_F(MultiDaemonTest, TheProgramSeesBothDaemonsDevicesAsOneList) {
  Start();
  auto devices = runtime_->Devices();
  ASSERT_TRUE(devices.ok()) << devices.status();
  ASSERT_EQ(devices->size(), 3u);
  for (int i = 0; i < 3; ++i) EXPECT_EQ((*devices)[i].device_id(), i);
  EXPECT_EQ((*devices)[1].va_base(), 48ull << 40);
  EXPECT_TRUE(runtime_->CheckDevice(2).ok());
  EXPECT_EQ(ToAclCode(runtime_->CheckDevice(3)), kRtInvalidDeviceId);
  EXPECT_EQ(runtime_->daemon_count(), 2u);
}

TEST_F(MultiDaemonTest, CallsGoToTheDaemonOfTheirDeviceInItsNumbering) {
  Start();
  ASSERT_TRUE(SetDevice(2).ok());
  auto memory = MallocDevice(64, 0);
  ASSERT_TRUE(memory.ok()) << memory.status();
  // Daemon b's device 1 is the program's device 2.
  EXPECT_EQ(reinterpret_cast<uint64_t>(*memory), (48ull << 40) + kSpan);
  ASSERT_EQ(b_->CallsOf(v1::Call::kMalloc).size(), 1u);
  EXPECT_EQ(b_->CallsOf(v1::Call::kMalloc)[0].malloc().device_id(), 1);
  EXPECT_TRUE(a_->CallsOf(v1::Call::kMalloc).empty());
  ASSERT_EQ(b_->CallsOf(v1::Call::kOpenDevice).size(), 1u);
  EXPECT_EQ(b_->CallsOf(v1::Call::kOpenDevice)[0].open_device().device_id(), 1);

  // A stream of device 2 and what runs on it go to b as well.
  auto stream = CreateStream(0, 0);
  ASSERT_TRUE(stream.ok());
  ASSERT_TRUE(SynchronizeStream(*stream, -1).ok());
  EXPECT_EQ(b_->CallsOf(v1::Call::kSynchronizeStream).size(), 1u);
  EXPECT_TRUE(a_->CallsOf(v1::Call::kSynchronizeStream).empty());
  ASSERT_TRUE(FreeDevice(*memory).ok());
  EXPECT_EQ(b_->CallsOf(v1::Call::kFree).size(), 1u);

  // Back on device 0: daemon a, device 0.
  ASSERT_TRUE(SetDevice(0).ok());
  auto other = MallocDevice(64, 0);
  ASSERT_TRUE(other.ok());
  EXPECT_EQ(reinterpret_cast<uint64_t>(*other), 32ull << 40);
  ASSERT_EQ(a_->CallsOf(v1::Call::kMalloc).size(), 1u);
  EXPECT_EQ(a_->CallsOf(v1::Call::kMalloc)[0].malloc().device_id(), 0);
}

TEST_F(MultiDaemonTest, CopiesBetweenDevicesOfTwoDaemonsGoThroughTheClient) {
  Start();
  ASSERT_TRUE(SetDevice(0).ok());
  auto on_a = MallocDevice(256, 0);
  ASSERT_TRUE(SetDevice(1).ok());
  auto on_b = MallocDevice(256, 0);
  ASSERT_TRUE(on_a.ok() && on_b.ok());
  std::vector<char> pattern(256);
  for (size_t i = 0; i < pattern.size(); ++i) pattern[i] = static_cast<char>(i * 7);
  ASSERT_TRUE(Memcpy(*on_a, 256, pattern.data(), 256, /*host to device*/ 1, false, nullptr).ok());
  ASSERT_TRUE(Memcpy(*on_b, 256, *on_a, 256, /*device to device*/ 3, false, nullptr).ok());
  EXPECT_EQ(a_->CallsOf(v1::Call::kReadDevice).size(), 1u);
  EXPECT_TRUE(a_->CallsOf(v1::Call::kCopyDevice).empty());
  EXPECT_TRUE(b_->CallsOf(v1::Call::kCopyDevice).empty());
  EXPECT_EQ(std::memcmp(&b_->memory[reinterpret_cast<uint64_t>(*on_b) - b_->base], pattern.data(),
                        pattern.size()),
            0);

  // Asynchronously on a stream of device 1 (daemon b): the stream is
  // synchronized first, then the bytes move back.
  auto stream = CreateStream(0, 0);
  ASSERT_TRUE(stream.ok());
  std::vector<char> zeros(256, 0);
  ASSERT_TRUE(Memcpy(*on_a, 256, zeros.data(), 256, 1, false, nullptr).ok());
  ASSERT_TRUE(Memcpy(*on_a, 256, *on_b, 256, 3, /*async=*/true, *stream).ok());
  EXPECT_EQ(b_->CallsOf(v1::Call::kSynchronizeStream).size(), 1u);
  EXPECT_EQ(std::memcmp(&a_->memory[reinterpret_cast<uint64_t>(*on_a) - a_->base], pattern.data(),
                        pattern.size()),
            0);

  // Within one daemon a copy stays a device-side copy.
  auto also_on_b = MallocDevice(256, 0);
  ASSERT_TRUE(also_on_b.ok());
  ASSERT_TRUE(Memcpy(*also_on_b, 256, *on_b, 256, 3, false, nullptr).ok());
  EXPECT_EQ(b_->CallsOf(v1::Call::kCopyDevice).size(), 1u);
}

TEST_F(MultiDaemonTest, WorkSpanningTwoDaemonsIsRefused) {
  Start();
  ASSERT_TRUE(SetDevice(0).ok());
  auto event = CreateEvent(EventApi::kCreateEvent, 0);
  ASSERT_TRUE(event.ok());
  ASSERT_TRUE(SetDevice(1).ok());
  auto stream = CreateStream(0, 0);
  ASSERT_TRUE(stream.ok());
  EXPECT_EQ(ToAclCode(StreamWaitEvent(*stream, *event)), kRtFeatureNotSupport);
  // A copy into daemon a's memory on a stream of daemon b.
  ASSERT_TRUE(SetDevice(0).ok());
  auto on_a = MallocDevice(64, 0);
  ASSERT_TRUE(on_a.ok());
  EXPECT_EQ(ToAclCode(Memcpy(*on_a, 64, "x", 1, 1, /*async=*/true, *stream)), kRtFeatureNotSupport);
}

TEST_F(MultiDaemonTest, KernelBinariesReachEveryDaemon) {
  Start();
  ASSERT_TRUE(SetDevice(0).ok());
  auto binary = LoadBinary("not really an ELF", "test");
  ASSERT_TRUE(binary.ok()) << binary.status();
  EXPECT_EQ(a_->CallsOf(v1::Call::kLoadBinary).size(), 1u);
  EXPECT_EQ(b_->CallsOf(v1::Call::kLoadBinary).size(), 1u);
  EXPECT_EQ(a_->CallsOf(v1::Call::kLoadBinary)[0].load_binary().binary_id(),
            b_->CallsOf(v1::Call::kLoadBinary)[0].load_binary().binary_id());
}

TEST_F(MultiDaemonTest, DaemonsWithOverlappingAddressesAreRefused) {
  // Both in the same address slot.
  Start(/*b_base=*/32ull << 40);
  auto devices = runtime_->Devices();
  ASSERT_FALSE(devices.ok());
  EXPECT_EQ(ToAclCode(devices.status()), kRtDevSetupError);
  EXPECT_NE(devices.status().message().find("--address_slot"), std::string::npos)
      << devices.status();
}

}  // namespace
}  // namespace npud::client

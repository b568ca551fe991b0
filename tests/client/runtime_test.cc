// The client core on a fake daemon: a Runtime built on a FakeTransport and
// installed with ScopedRuntime, driven through the same functions the ACL
// entry points call. Checks what the client sends and when.

#include "client/core/runtime.h"

#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "client/core/context_ops.h"
#include "client/core/memory_ops.h"
#include "client/core/stream_ops.h"
#include "common/acl_status.h"
#include "gtest/gtest.h"
#include "tests/client/fake_transport.h"

namespace npud::client {
namespace {

using testing::FakeTransport;

constexpr uint64_t kDeviceBase = 0x200000000000ull;
constexpr uint64_t kDeviceSpan = 1ull << 30;

class RuntimeTest : public ::testing::Test {
 protected:
  void SetUp() override {
    runtime_ = std::make_unique<Runtime>(
        [this]() -> absl::StatusOr<std::vector<std::unique_ptr<Transport>>> {
          auto transport = std::make_unique<FakeTransport>();
          fake_ = transport.get();
          v1::HelloReply hello;
          hello.set_session_id(1);
          v1::DeviceDescription* device = hello.add_devices();
          device->set_device_id(0);
          device->set_soc_name("Ascend910B1");
          device->set_va_base(kDeviceBase);
          device->set_va_size(kDeviceSpan);
          transport->set_hello(hello);
          transport->set_responder([this](const v1::Call& call) { return Answer(call); });
          ++connections_;
          std::vector<std::unique_ptr<Transport>> transports;
          transports.push_back(std::move(transport));
          return transports;
        });
    scope_ = std::make_unique<ScopedRuntime>(runtime_.get());
  }
  void TearDown() override {
    scope_.reset();
    runtime_.reset();
  }

  // The fake daemon: device memory from a bump allocator, OK for the rest.
  std::vector<v1::ServerMessage> Answer(const v1::Call& call) {
    v1::ServerMessage message;
    message.mutable_reply()->set_call_id(call.call_id());
    if (call.has_malloc()) {
      message.mutable_reply()->mutable_malloc()->set_address(kDeviceBase + next_address_);
      next_address_ += (call.malloc().size() + 4095) / 4096 * 4096;
    }
    return {message};
  }

  std::vector<v1::Call> CallsOf(v1::Call::OpCase kind) {
    std::vector<v1::Call> found;
    for (const v1::Call& call : fake_->calls()) {
      if (call.op_case() == kind) found.push_back(call);
    }
    return found;
  }

  std::unique_ptr<Runtime> runtime_;
  std::unique_ptr<ScopedRuntime> scope_;
  FakeTransport* fake_ = nullptr;
  int connections_ = 0;
  uint64_t next_address_ = 0;
};

TEST_F(RuntimeTest, TheSessionOpensOnFirstUseOnly) {
  EXPECT_EQ(connections_, 0);
  ASSERT_TRUE(SetDevice(0).ok());
  ASSERT_TRUE(MallocDevice(4096, 0).ok());
  EXPECT_EQ(connections_, 1);
  EXPECT_EQ(runtime_->SocName(), "Ascend910B1");
  EXPECT_TRUE(runtime_->IsDevicePointer(reinterpret_cast<void*>(kDeviceBase + 10)));
  EXPECT_FALSE(runtime_->IsDevicePointer(reinterpret_cast<void*>(kDeviceBase + kDeviceSpan)));
  EXPECT_EQ(ToAclCode(runtime_->CheckDevice(1)), kRtInvalidDeviceId);
}

TEST_F(RuntimeTest, DeviceAddressesComeFromTheDaemon) {
  ASSERT_TRUE(SetDevice(0).ok());
  auto first = MallocDevice(5000, 0);
  auto second = MallocDevice(10, 0);
  ASSERT_TRUE(first.ok() && second.ok());
  EXPECT_EQ(reinterpret_cast<uint64_t>(*first), kDeviceBase);
  EXPECT_EQ(reinterpret_cast<uint64_t>(*second), kDeviceBase + 8192);
  ASSERT_EQ(CallsOf(v1::Call::kMalloc).size(), 2u);
  EXPECT_EQ(CallsOf(v1::Call::kMalloc)[0].malloc().size(), 5000u);
}

TEST_F(RuntimeTest, StreamsAreCreatedWithoutARoundTrip) {
  ASSERT_TRUE(SetDevice(0).ok());
  const size_t before = fake_->sent().size();
  auto stream = CreateStream(0, 0);
  ASSERT_TRUE(stream.ok());
  ASSERT_TRUE(SynchronizeStream(*stream, -1).ok());
  // The device's default stream, then ours.
  const std::vector<v1::Call> creates = CallsOf(v1::Call::kCreateStream);
  ASSERT_EQ(creates.size(), 2u);
  EXPECT_EQ(creates.back().call_id(), 0u);  // not waited for
  const std::vector<v1::Call> syncs = CallsOf(v1::Call::kSynchronizeStream);
  ASSERT_EQ(syncs.size(), 1u);
  EXPECT_EQ(syncs[0].synchronize_stream().stream_id(), creates.back().create_stream().stream_id());
  EXPECT_LE(fake_->sent().size(), before + 2);
}

TEST_F(RuntimeTest, HostToDeviceCopiesTravelInChunks) {
  ASSERT_TRUE(SetDevice(0).ok());
  constexpr size_t kSize = (5u << 20) / 2;
  auto device = MallocDevice(kSize, 0);
  ASSERT_TRUE(device.ok());
  std::vector<char> host(kSize, 'z');
  ASSERT_TRUE(
      Memcpy(*device, kSize, host.data(), kSize, 1 /* host to device */, false, nullptr).ok());
  const std::vector<v1::Call> writes = CallsOf(v1::Call::kWriteDevice);
  ASSERT_EQ(writes.size(), 3u);
  uint64_t next = reinterpret_cast<uint64_t>(*device);
  for (const v1::Call& write : writes) {
    EXPECT_EQ(write.write_device().address(), next);
    EXPECT_LE(write.write_device().data().size(), 1u << 20);
    next += write.write_device().data().size();
  }
  EXPECT_EQ(next, reinterpret_cast<uint64_t>(*device) + kSize);
}

TEST_F(RuntimeTest, BadCopiesAreRefusedBeforeAnythingIsSent) {
  ASSERT_TRUE(SetDevice(0).ok());
  auto device = MallocDevice(4096, 0);
  ASSERT_TRUE(device.ok());
  std::vector<char> host(8192);
  const size_t before = fake_->calls().size();
  // destMax smaller than count.
  EXPECT_EQ(ToAclCode(Memcpy(*device, 100, host.data(), 200, 1, false, nullptr)), kRtParamInvalid);
  // An unknown copy kind (CANN answers it in the ACL layer).
  EXPECT_EQ(ToAclCode(Memcpy(*device, 4096, host.data(), 16, 99, false, nullptr)),
            kAclInvalidParam);
  EXPECT_EQ(fake_->calls().size(), before);
}

}  // namespace
}  // namespace npud::client

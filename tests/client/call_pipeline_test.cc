// CallPipeline against a fake daemon: batching of asynchronous calls, the
// order calls leave in, replies matched to their callers, device-to-host
// data written into transfers, and what a lost daemon does to callers.

#include "client/core/call_pipeline.h"

#include <cstdlib>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "absl/time/clock.h"
#include "common/acl_status.h"
#include "gtest/gtest.h"
#include "tests/client/fake_transport.h"

namespace npud::client {
namespace {

using testing::FakeTransport;

v1::Call CreateStream(uint64_t id) {
  v1::Call call;
  call.mutable_create_stream()->set_stream_id(id);
  return call;
}

v1::Call Ping() {
  v1::Call call;
  call.mutable_ping();
  return call;
}

class CallPipelineTest : public ::testing::Test {
 protected:
  void SetUp() override {
    unsetenv("NPUD_STRICT");
    Start();
  }
  void Start() {
    auto transport = std::make_unique<FakeTransport>();
    fake_ = transport.get();
    pipeline_ = std::make_unique<CallPipeline>(std::move(transport));
    v1::Hello hello;
    hello.set_pid(99);
    ASSERT_TRUE(pipeline_->Start(hello).ok());
  }

  FakeTransport* fake_ = nullptr;
  std::unique_ptr<CallPipeline> pipeline_;
};

TEST_F(CallPipelineTest, HelloGoesFirst) { EXPECT_EQ(fake_->hello_sent().pid(), 99); }

TEST_F(CallPipelineTest, PostedCallsLeaveInOrderAheadOfTheNextSynchronousCall) {
  for (uint64_t id = 1; id <= 100; ++id) pipeline_->Post(CreateStream(id));
  ASSERT_TRUE(pipeline_->Call(Ping()).ok());
  const std::vector<v1::Call> calls = fake_->calls();
  ASSERT_EQ(calls.size(), 101u);
  for (uint64_t i = 0; i < 100; ++i) {
    EXPECT_EQ(calls[i].create_stream().stream_id(), i + 1);
    EXPECT_EQ(calls[i].call_id(), 0u);  // asynchronous: no reply wanted
  }
  EXPECT_TRUE(calls[100].has_ping());
  EXPECT_NE(calls[100].call_id(), 0u);
  // Batched: far fewer messages than calls.
  EXPECT_LT(fake_->sent().size(), 20u);
}

TEST_F(CallPipelineTest, QueuedCallsGoOutSoonWithoutASynchronousCall) {
  pipeline_->Post(CreateStream(1));
  const absl::Time deadline = absl::Now() + absl::Seconds(10);
  while (fake_->calls().empty() && absl::Now() < deadline) absl::SleepFor(absl::Milliseconds(1));
  ASSERT_EQ(fake_->calls().size(), 1u);
}

TEST_F(CallPipelineTest, LargeBatchesAreSentByThePostThatFillsThem) {
  v1::Call write;
  write.mutable_write_device()->set_data(std::string(CallPipeline::kFlushBytes, 'x'));
  pipeline_->Post(write);
  // Not left for the timer: the post that reached kFlushBytes sent it.
  ASSERT_EQ(fake_->calls().size(), 1u);
  EXPECT_EQ(fake_->calls()[0].write_device().data().size(), CallPipeline::kFlushBytes);
}

TEST_F(CallPipelineTest, ErrorRepliesBecomeStatusesWithTheirCode) {
  fake_->set_responder([](const v1::Call& call) {
    v1::ServerMessage message;
    message.mutable_reply()->set_call_id(call.call_id());
    message.mutable_reply()->set_acl_error(kRtInvalidHandle);
    message.mutable_reply()->set_error_message("stream 5 does not exist");
    return std::vector<v1::ServerMessage>{message};
  });
  absl::StatusOr<v1::Reply> reply = pipeline_->Call(Ping());
  ASSERT_FALSE(reply.ok());
  EXPECT_EQ(ToAclCode(reply.status()), kRtInvalidHandle);
  EXPECT_NE(reply.status().message().find("stream 5"), absl::string_view::npos);
}

TEST_F(CallPipelineTest, RepliesFindTheirCallersAcrossThreads) {
  fake_->set_responder([](const v1::Call& call) {
    v1::ServerMessage message;
    message.mutable_reply()->set_call_id(call.call_id());
    message.mutable_reply()->mutable_malloc()->set_address(call.malloc().size() * 2);
    return std::vector<v1::ServerMessage>{message};
  });
  std::vector<std::thread> threads;
  std::vector<bool> right(8, false);
  for (int t = 0; t < 8; ++t) {
    threads.emplace_back([&, t] {
      bool all = true;
      for (int i = 1; i <= 50; ++i) {
        v1::Call call;
        call.mutable_malloc()->set_size(t * 1000 + i);
        auto reply = pipeline_->Call(std::move(call));
        all = all && reply.ok() && reply->malloc().address() == uint64_t(t * 1000 + i) * 2;
      }
      right[t] = all;
    });
  }
  for (auto& thread : threads) thread.join();
  for (int t = 0; t < 8; ++t) EXPECT_TRUE(right[t]) << "thread " << t;
}

TEST_F(CallPipelineTest, DataChunksLandInTheirTransfer) {
  std::string buffer(10, '.');
  const uint64_t transfer = pipeline_->BeginTransfer(buffer.data(), buffer.size(), true);
  auto chunk = [&](uint64_t offset, const std::string& bytes, bool last) {
    v1::ServerMessage message;
    message.mutable_data()->set_transfer_id(transfer);
    message.mutable_data()->set_offset(offset);
    message.mutable_data()->set_data(bytes);
    message.mutable_data()->set_last(last);
    fake_->Push(std::move(message));
  };
  chunk(5, "world", false);
  chunk(0, "hello", true);
  EXPECT_TRUE(pipeline_->WaitTransfer(transfer).ok());
  EXPECT_EQ(buffer, "helloworld");
}

TEST_F(CallPipelineTest, ChunksOutsideTheirTransferAreRefused) {
  std::string buffer(4, '.');
  const uint64_t transfer = pipeline_->BeginTransfer(buffer.data(), buffer.size(), true);
  v1::ServerMessage message;
  message.mutable_data()->set_transfer_id(transfer);
  message.mutable_data()->set_offset(2);
  message.mutable_data()->set_data("too long");
  message.mutable_data()->set_last(true);
  fake_->Push(std::move(message));
  EXPECT_EQ(ToAclCode(pipeline_->WaitTransfer(transfer)), kRtInternalError);
  EXPECT_EQ(buffer, "....");
}

TEST_F(CallPipelineTest, ALostDaemonFailsWaitingAndLaterCalls) {
  fake_->set_responder([](const v1::Call&) { return std::vector<v1::ServerMessage>{}; });
  std::thread caller([&] {
    auto reply = pipeline_->Call(Ping());  // never answered
    EXPECT_EQ(ToAclCode(reply.status()), kRtSocketClose);
  });
  absl::SleepFor(absl::Milliseconds(50));
  fake_->Disconnect();
  caller.join();
  EXPECT_EQ(ToAclCode(pipeline_->Call(Ping()).status()), kRtSocketClose);
}

TEST_F(CallPipelineTest, StrictModeChecksAsynchronousCallsAtOnce) {
  setenv("NPUD_STRICT", "1", 1);
  pipeline_.reset();
  Start();
  unsetenv("NPUD_STRICT");
  ASSERT_TRUE(pipeline_->strict());
  fake_->set_responder([](const v1::Call& call) {
    v1::ServerMessage message;
    message.mutable_reply()->set_call_id(call.call_id());
    message.mutable_reply()->set_acl_error(kRtParamInvalid);
    return std::vector<v1::ServerMessage>{message};
  });
  EXPECT_EQ(ToAclCode(pipeline_->Submit(CreateStream(1))), kRtParamInvalid);
  EXPECT_NE(fake_->calls().back().call_id(), 0u);  // sent as a synchronous call
}

}  // namespace
}  // namespace npud::client

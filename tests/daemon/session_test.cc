// Session without a transport: calls go in as batches, answers are read off
// a recording sink. What it checks is the session's contract — ownership
// between sessions, error codes, where asynchronous errors go, release at
// the end.

#include "daemon/session/session.h"

#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "common/acl_status.h"
#include "gtest/gtest.h"
#include "tests/daemon/recording_sink.h"

namespace npud::daemon {
namespace {

using testing::RecordingSink;

class SessionTest : public ::testing::Test {
 protected:
  void SetUp() override {
    sim::DeviceSet::Options options;
    options.device_count = 2;
    options.device.hbm_bytes = 256ull << 20;
    options.scheduler_threads = 2;
    auto devices = sim::DeviceSet::Create(options);
    ASSERT_TRUE(devices.ok()) << devices.status();
    devices_ = *std::move(devices);
    compiler_ = std::make_shared<KernelCompiler>(KernelCompiler::Options{"/nonexistent"});
  }

  // A session with its own sink.
  struct Client {
    std::shared_ptr<RecordingSink> sink = std::make_shared<RecordingSink>();
    std::unique_ptr<Session> session;
    uint64_t next_call = 1;

    // Runs `call` as a synchronous call and returns its reply.
    v1::Reply Call(v1::Call call) {
      const uint64_t id = next_call++;
      call.set_call_id(id);
      Post(std::move(call));
      std::optional<v1::Reply> reply = sink->WaitReply(id);
      EXPECT_TRUE(reply.has_value()) << "no reply to call " << id;
      return reply.value_or(v1::Reply());
    }
    // Sends `call` as an asynchronous call (no reply).
    void Post(v1::Call call) {
      v1::CallBatch batch;
      *batch.add_calls() = std::move(call);
      session->Process(&batch);
    }
    uint64_t Malloc(uint64_t size, int device = 0) {
      v1::Call call;
      call.mutable_malloc()->set_size(size);
      call.mutable_malloc()->set_device_id(device);
      const v1::Reply reply = Call(std::move(call));
      EXPECT_EQ(reply.acl_error(), 0) << reply.error_message();
      return reply.malloc().address();
    }
  };

  std::unique_ptr<Client> NewClient(int64_t pid = 1000) {
    auto client = std::make_unique<Client>();
    SessionServices services;
    services.devices = devices_.get();
    services.timers = &timers_;
    services.ipc = &ipc_;
    services.tdt_queues = &tdt_queues_;
    services.compiler = compiler_;
    services.compilations = &compilations_;
    services.copy_helpers = &copy_helpers_;
    client->session = std::make_unique<Session>(next_session_++, PeerInfo{pid, 0, "host", "test"},
                                                std::move(services), client->sink);
    return client;
  }

  uint64_t UsedBytes(int device) { return devices_->Get(device).value()->memory().used_bytes(); }

  std::unique_ptr<sim::DeviceSet> devices_;
  DelayedExecutor timers_;
  IpcRegistry ipc_{42};
  TdtQueues tdt_queues_;
  std::shared_ptr<KernelCompiler> compiler_;
  BoundedExecutor compilations_{"test compilations", 1, 4};
  BoundedExecutor copy_helpers_{"test copy helpers", 1, 0};
  uint64_t next_session_ = 1;
};

v1::Call Memset(uint64_t address, uint64_t count, uint64_t stream = 0) {
  v1::Call call;
  call.mutable_memset()->set_address(address);
  call.mutable_memset()->set_count(count);
  call.mutable_memset()->set_value(7);
  call.mutable_memset()->set_stream_id(stream);
  return call;
}

v1::Call CreateStream(uint64_t id) {
  v1::Call call;
  call.mutable_create_stream()->set_stream_id(id);
  return call;
}

v1::Call SynchronizeStream(uint64_t id) {
  v1::Call call;
  call.mutable_synchronize_stream()->set_stream_id(id);
  return call;
}

TEST_F(SessionTest, MemoryIsAllocatedFreedAndReleasedWithTheSession) {
  auto client = NewClient();
  const uint64_t address = client->Malloc(1 << 20);
  EXPECT_NE(address, 0u);
  EXPECT_GE(UsedBytes(0), 1u << 20);
  client->Malloc(4096, 1);
  EXPECT_EQ(client->Call(Memset(address, 1 << 20)).acl_error(), 0);
  EXPECT_EQ(*reinterpret_cast<const uint8_t*>(address + 12345), 7);

  v1::Call free_call;
  free_call.mutable_free()->set_address(address);
  EXPECT_EQ(client->Call(free_call).acl_error(), 0);
  EXPECT_EQ(client->Call(free_call).acl_error(), kRtParamInvalid);  // twice
  EXPECT_GT(UsedBytes(1), 0u);
  client.reset();
  EXPECT_EQ(UsedBytes(0), 0u);
  EXPECT_EQ(UsedBytes(1), 0u);
}

TEST_F(SessionTest, AnotherSessionsMemoryIsInvisible) {
  auto owner = NewClient(1);
  auto other = NewClient(2);
  const uint64_t address = owner->Malloc(8192);
  EXPECT_EQ(other->Call(Memset(address, 16)).acl_error(), kRtParamInvalid);
  v1::Call free_call;
  free_call.mutable_free()->set_address(address);
  EXPECT_EQ(other->Call(free_call).acl_error(), kRtParamInvalid);
  // Still the owner's, untouched.
  EXPECT_EQ(owner->Call(Memset(address, 8192)).acl_error(), 0);
  EXPECT_EQ(owner->Call(free_call).acl_error(), 0);
}

TEST_F(SessionTest, IpcImportGrantsAccessUntilTheExporterEnds) {
  auto owner = NewClient(1);
  auto importer = NewClient(2);
  const uint64_t address = owner->Malloc(8192);
  v1::Call share;
  share.mutable_ipc_export_memory()->set_address(address);
  share.mutable_ipc_export_memory()->set_size(8192);
  share.mutable_ipc_export_memory()->set_flags(1);  // any process
  const v1::Reply shared = owner->Call(share);
  ASSERT_EQ(shared.acl_error(), 0) << shared.error_message();
  v1::Call import;
  import.mutable_ipc_import_memory()->set_key(shared.ipc().key());
  ASSERT_EQ(importer->Call(import).acl_error(), 0);
  EXPECT_EQ(importer->Call(Memset(address, 8192)).acl_error(), 0);
  owner.reset();  // the exporter exits
  EXPECT_EQ(importer->Call(Memset(address, 8192)).acl_error(), kRtIpcError);
}

TEST_F(SessionTest, HandlesAreCheckedAndIdsCannotBeReused) {
  auto client = NewClient();
  client->Post(CreateStream(5));
  EXPECT_EQ(client->Call(CreateStream(5)).acl_error(), kRtParamInvalid);
  EXPECT_EQ(client->Call(CreateStream(0)).acl_error(), kRtParamInvalid);
  EXPECT_EQ(client->Call(SynchronizeStream(6)).acl_error(), kRtInvalidHandle);
  v1::Call destroy;
  destroy.mutable_destroy_stream()->set_stream_id(5);
  EXPECT_EQ(client->Call(destroy).acl_error(), 0);
  EXPECT_EQ(client->Call(destroy).acl_error(), kRtInvalidHandle);
  // Another session's stream id means nothing here.
  auto other = NewClient();
  other->Post(CreateStream(9));
  EXPECT_EQ(client->Call(SynchronizeStream(9)).acl_error(), kRtInvalidHandle);
}

TEST_F(SessionTest, AsynchronousErrorsAreReportedByTheNextSynchronize) {
  auto client = NewClient();
  client->Post(CreateStream(3));
  client->Post(Memset(0xdead0000, 64, /*stream=*/3));  // no such memory
  EXPECT_TRUE(client->sink->messages().empty());       // nothing answers it
  EXPECT_EQ(client->Call(SynchronizeStream(3)).acl_error(), kRtParamInvalid);
  // Reported once.
  EXPECT_EQ(client->Call(SynchronizeStream(3)).acl_error(), 0);
}

TEST_F(SessionTest, ReadsComeBackAsChunksBeforeTheirReply) {
  auto client = NewClient();
  constexpr uint64_t kSize = (5 << 20) / 2;  // 2.5 MiB: three chunks
  const uint64_t address = client->Malloc(kSize);
  std::string data(kSize, '\0');
  for (size_t i = 0; i < kSize; ++i) data[i] = static_cast<char>(i * 31 + 7);
  v1::Call write;
  write.mutable_write_device()->set_address(address);
  write.mutable_write_device()->set_data(data);
  ASSERT_EQ(client->Call(write).acl_error(), 0);
  v1::Call read;
  read.mutable_read_device()->set_address(address);
  read.mutable_read_device()->set_size(kSize);
  read.mutable_read_device()->set_transfer_id(77);
  ASSERT_EQ(client->Call(read).acl_error(), 0);
  std::string back;
  int chunks = 0;
  bool last_seen = false;
  for (const v1::ServerMessage& message : client->sink->messages()) {
    if (message.has_reply() && message.reply().call_id() == 3) {
      EXPECT_TRUE(last_seen) << "the reply overtook its data";
    }
    if (!message.has_data()) continue;
    EXPECT_EQ(message.data().transfer_id(), 77u);
    EXPECT_EQ(message.data().offset(), back.size());
    EXPECT_LE(message.data().data().size(), 1u << 20);
    back += message.data().data();
    ++chunks;
    last_seen = message.data().last();
  }
  EXPECT_EQ(chunks, 3);
  EXPECT_TRUE(last_seen);
  EXPECT_EQ(back, data);
}

TEST_F(SessionTest, EventsNeverRecordedSaySo) {
  auto client = NewClient();
  v1::Call create;
  create.mutable_create_event()->set_event_id(11);
  client->Post(create);
  v1::Call query;
  query.mutable_query_event()->set_event_id(11);
  const v1::Reply reply = client->Call(query);
  ASSERT_EQ(reply.acl_error(), 0);
  EXPECT_EQ(reply.status().status(), v1::COMPLETION_NEVER_RECORDED);
}

TEST_F(SessionTest, UnknownCallsAreNotSupported) {
  auto client = NewClient();
  EXPECT_EQ(client->Call(v1::Call()).acl_error(), kRtFeatureNotSupport);
}

TEST_F(SessionTest, StatusCountsWhatTheSessionOwns) {
  auto client = NewClient(4321);
  client->Malloc(4096);
  client->Malloc(8192, 1);
  client->Post(CreateStream(1));
  const v1::SessionStatus status = client->session->Status();
  EXPECT_EQ(status.pid(), 4321);
  EXPECT_EQ(status.allocations(), 2u);
  EXPECT_EQ(status.streams(), 1u);
  EXPECT_EQ(status.memory_bytes().at(0), 4096u);
  EXPECT_EQ(status.memory_bytes().at(1), 8192u);
}

}  // namespace
}  // namespace npud::daemon

// The bulk channel (common/bulk_frame.h) against clients that do not follow
// its rules. The test speaks the session protocol itself over gRPC and the
// bulk channel over a raw socket, so it can send what a real client never
// would: hellos for other sessions or with forged keys, bytes npud did not
// ask for, more bytes than the copy has, a frame cut off mid-way, and
// device-to-host bytes that are never read. Each is refused or ends the
// channel, the copy fails with a CANN code, no byte outside the copy's range
// changes and the daemon keeps serving.
//
// TCP only: the bulk channel exists for remote sessions.

#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstring>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/time/clock.h"
#include "common/bulk_frame.h"
#include "common/protocol_version.h"
#include "grpcpp/grpcpp.h"
#include "gtest/gtest.h"
#include "npud/v1/npud.grpc.pb.h"
#include "tests/e2e/npud_process.h"

namespace {

using npud::bulk::FrameHeader;
using npud::bulk::FrameType;
using npud::testing::NpudProcess;

constexpr int32_t kSocketClose = 507901;  // ACL_ERROR_RT_SOCKET_CLOSE

uint64_t ResidentBytes(pid_t pid) {
  std::ifstream status("/proc/" + std::to_string(pid) + "/status");
  for (std::string line; std::getline(status, line);) {
    if (line.rfind("VmRSS:", 0) == 0) return std::stoull(line.substr(6)) << 10;
  }
  return 0;
}

// One session spoken by hand over gRPC.
class RawSession {
 public:
  explicit RawSession(npud::v1::Npud::Stub* stub) : stream_(stub->Session(&context_)) {
    npud::v1::ClientMessage hello;
    hello.mutable_hello()->set_protocol_version(npud::protocol_version::kCurrent);
    hello.mutable_hello()->set_pid(getpid());
    hello.mutable_hello()->set_program("bulk_channel_test");
    npud::v1::ServerMessage reply;
    if (stream_->Write(hello) && stream_->Read(&reply)) hello_ = reply.hello();
  }
  ~RawSession() {
    stream_->WritesDone();
    npud::v1::ServerMessage rest;
    while (stream_->Read(&rest)) {
    }
    stream_->Finish();
  }

  const npud::v1::HelloReply& hello() const { return hello_; }

  // Sends `call` as call `id` and reads until its reply; DataChunks that
  // come first are kept in chunks().
  npud::v1::Reply Call(uint64_t id, npud::v1::Call call) {
    Send(id, std::move(call));
    return AwaitReply(id);
  }
  void Send(uint64_t id, npud::v1::Call call) {
    call.set_call_id(id);
    npud::v1::ClientMessage message;
    *message.mutable_batch()->add_calls() = std::move(call);
    EXPECT_TRUE(stream_->Write(message));
  }
  npud::v1::Reply AwaitReply(uint64_t id) {
    npud::v1::ServerMessage message;
    while (stream_->Read(&message)) {
      if (message.has_data()) chunks_.push_back(message.data());
      if (message.has_reply() && message.reply().call_id() == id) return message.reply();
    }
    ADD_FAILURE() << "the session ended before call " << id << " was answered";
    return {};
  }
  const std::vector<npud::v1::DataChunk>& chunks() const { return chunks_; }

  uint64_t Malloc(uint64_t size) {
    npud::v1::Call call;
    call.mutable_malloc()->set_size(size);
    return Call(next_id_++, std::move(call)).malloc().address();
  }
  // Inline copies, which do not touch the bulk channel.
  void Fill(uint64_t address, const std::string& bytes) {
    npud::v1::Call call;
    call.mutable_write_device()->set_address(address);
    call.mutable_write_device()->set_data(bytes);
    EXPECT_EQ(Call(next_id_++, std::move(call)).acl_error(), 0);
  }
  std::string ReadInline(uint64_t address, uint64_t size) {
    constexpr uint64_t kTransfer = 1 << 30;
    npud::v1::Call call;
    call.mutable_read_device()->set_address(address);
    call.mutable_read_device()->set_size(size);
    call.mutable_read_device()->set_transfer_id(kTransfer);
    chunks_.clear();
    EXPECT_EQ(Call(next_id_++, std::move(call)).acl_error(), 0);
    std::string bytes(size, '\0');
    for (const auto& chunk : chunks_) {
      if (chunk.transfer_id() == kTransfer)
        bytes.replace(chunk.offset(), chunk.data().size(), chunk.data());
    }
    return bytes;
  }
  uint64_t next_id() { return next_id_++; }

 private:
  grpc::ClientContext context_;
  std::unique_ptr<grpc::ClientReaderWriter<npud::v1::ClientMessage, npud::v1::ServerMessage>>
      stream_;
  npud::v1::HelloReply hello_;
  std::vector<npud::v1::DataChunk> chunks_;
  uint64_t next_id_ = 1;
};

class BulkChannelTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto started = NpudProcess::Start(NpudProcess::Transport::kTcp, {"--hello_timeout_ms=1000"});
    ASSERT_TRUE(started.ok()) << started.status();
    daemon_ = *std::move(started);
    channel_ = grpc::CreateChannel(daemon_->address(), grpc::InsecureChannelCredentials());
    stub_ = npud::v1::Npud::NewStub(channel_);
    session_ = std::make_unique<RawSession>(stub_.get());
    ASSERT_NE(session_->hello().bulk_port(), 0u) << "npud offers no bulk channel";
    ASSERT_EQ(session_->hello().bulk_key().size(), npud::bulk::kKeyBytes);
  }
  void TearDown() override {
    session_.reset();
    const absl::Status stopped = daemon_->Stop();
    EXPECT_TRUE(stopped.ok()) << stopped << "\n" << daemon_->Log();
  }

  // A raw connection to the bulk port; reads time out after 5 s.
  int Connect() {
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_port = htons(static_cast<uint16_t>(session_->hello().bulk_port()));
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    EXPECT_EQ(connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)), 0);
    timeval tv{5, 0};
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
    fds_.push_back(fd);
    return fd;
  }
  static void Send(int fd, const FrameHeader& header, const std::string& payload = "") {
    const npud::bulk::EncodedHeader bytes = npud::bulk::EncodeHeader(header);
    std::string frame(bytes.begin(), bytes.end());
    frame += payload;
    ASSERT_EQ(send(fd, frame.data(), frame.size(), MSG_NOSIGNAL),
              static_cast<ssize_t>(frame.size()));
  }
  // The next frame's header; false when the connection ended (or 5 s passed).
  static bool Receive(int fd, FrameHeader* header) {
    npud::bulk::EncodedHeader bytes;
    if (recv(fd, bytes.data(), bytes.size(), MSG_WAITALL) != static_cast<ssize_t>(bytes.size())) {
      return false;
    }
    auto decoded = npud::bulk::DecodeHeader(bytes);
    if (!decoded.ok()) return false;
    *header = *decoded;
    return true;
  }
  static std::string ReceiveBytes(int fd, size_t size) {
    std::string bytes(size, '\0');
    const ssize_t n = recv(fd, bytes.data(), size, MSG_WAITALL);
    bytes.resize(n > 0 ? n : 0);
    return bytes;
  }
  // True once npud has closed the connection.
  static bool Closed(int fd) {
    char byte;
    return recv(fd, &byte, 1, 0) <= 0;
  }
  // A channel npud welcomed for this test's session.
  int Attach() {
    const int fd = Connect();
    Send(fd, {FrameType::kHello, session_->hello().session_id(), 0, npud::bulk::kKeyBytes},
         session_->hello().bulk_key());
    FrameHeader welcome;
    EXPECT_TRUE(Receive(fd, &welcome));
    EXPECT_EQ(welcome.type, FrameType::kWelcome);
    return fd;
  }
  // A host-to-device bulk copy of `size` bytes to `address`, sent as call
  // `id` (its reply is not awaited).
  void SendBulkWrite(uint64_t id, uint64_t transfer, uint64_t address, uint64_t size) {
    npud::v1::Call call;
    call.mutable_write_device()->set_address(address);
    call.mutable_write_device()->set_bulk_transfer_id(transfer);
    call.mutable_write_device()->set_bulk_size(size);
    session_->Send(id, std::move(call));
  }
  void ExpectDaemonStillServes() {
    ASSERT_TRUE(daemon_->Alive()) << daemon_->Log();
    EXPECT_EQ(npud::testing::RunProcess({ACL_TEST_CLIENT, "flows"},
                                        {"NPUD_ADDRESS=" + daemon_->address()}),
              0);
  }

  std::unique_ptr<NpudProcess> daemon_;
  std::shared_ptr<grpc::Channel> channel_;
  std::unique_ptr<npud::v1::Npud::Stub> stub_;
  std::unique_ptr<RawSession> session_;
  std::vector<int> fds_;

 public:
  ~BulkChannelTest() override {
    for (int fd : fds_) close(fd);
  }
};

// The positive control for the tests below: the protocol spoken by hand
// moves bytes both ways, and a real client's copies take the channel.
TEST_F(BulkChannelTest, PulledBytesLandAndReadBytesArrive) {
  const int fd = Attach();
  constexpr uint64_t kSize = 3 << 20;  // more than one data frame
  const uint64_t device = session_->Malloc(kSize);
  std::string bytes(kSize, '\0');
  for (size_t i = 0; i < bytes.size(); ++i) bytes[i] = static_cast<char>(i * 7 + 3);

  const uint64_t write = session_->next_id();
  SendBulkWrite(write, 11, device, kSize);
  FrameHeader pull;
  ASSERT_TRUE(Receive(fd, &pull));
  EXPECT_EQ(pull.type, FrameType::kPull);
  EXPECT_EQ(pull.transfer, 11u);
  EXPECT_EQ(pull.length, kSize);
  Send(fd, {FrameType::kData, 11, 0, 1 << 20}, bytes.substr(0, 1 << 20));
  Send(fd, {FrameType::kData, 11, 1 << 20, kSize - (1 << 20)}, bytes.substr(1 << 20));
  EXPECT_EQ(session_->AwaitReply(write).acl_error(), 0);
  EXPECT_EQ(session_->ReadInline(device, kSize), bytes);

  npud::v1::Call read;
  read.mutable_read_device()->set_address(device);
  read.mutable_read_device()->set_size(kSize);
  read.mutable_read_device()->set_transfer_id(12);
  read.mutable_read_device()->set_bulk(true);
  const uint64_t id = session_->next_id();
  session_->Send(id, std::move(read));
  std::string back;
  while (back.size() < kSize) {
    FrameHeader data;
    ASSERT_TRUE(Receive(fd, &data));
    ASSERT_EQ(data.type, FrameType::kData);
    ASSERT_EQ(data.transfer, 12u);
    ASSERT_EQ(data.offset, back.size());
    back += ReceiveBytes(fd, data.length);
  }
  EXPECT_EQ(back, bytes);
  EXPECT_EQ(session_->AwaitReply(id).acl_error(), 0);
  ASSERT_FALSE(session_->chunks().empty());
  EXPECT_TRUE(session_->chunks().back().bulk());
  EXPECT_TRUE(session_->chunks().back().last());
}

// Only the session's own key opens its channel, once, and a connection
// that says nothing is closed after the hello timeout.
TEST_F(BulkChannelTest, OnlyTheSessionsKeyOpensItsChannelOnce) {
  const uint64_t id = session_->hello().session_id();
  std::string forged = session_->hello().bulk_key();
  forged[0] ^= 1;
  int fd = Connect();
  Send(fd, {FrameType::kHello, id, 0, npud::bulk::kKeyBytes}, forged);
  EXPECT_TRUE(Closed(fd));
  fd = Connect();  // another session's id (none such)
  Send(fd, {FrameType::kHello, id + 1000, 0, npud::bulk::kKeyBytes}, session_->hello().bulk_key());
  EXPECT_TRUE(Closed(fd));
  fd = Connect();  // a hello announcing a huge key
  Send(fd, {FrameType::kHello, id, 0, 1ull << 40});
  EXPECT_TRUE(Closed(fd));
  fd = Connect();
  const std::string garbage(64, 'x');
  ASSERT_EQ(send(fd, garbage.data(), garbage.size(), MSG_NOSIGNAL), 64);
  EXPECT_TRUE(Closed(fd));
  fd = Connect();  // silent
  const absl::Time start = absl::Now();
  EXPECT_TRUE(Closed(fd));
  EXPECT_LT(absl::Now() - start, absl::Seconds(4));

  Attach();
  fd = Connect();  // the right key, but the channel is taken
  Send(fd, {FrameType::kHello, id, 0, npud::bulk::kKeyBytes}, session_->hello().bulk_key());
  EXPECT_TRUE(Closed(fd));
  ExpectDaemonStillServes();
}

// Bytes for a transfer npud did not pull end the channel; bulk copies of
// the session then fail with a CANN code instead of hanging.
TEST_F(BulkChannelTest, UnrequestedBytesEndTheChannel) {
  const int fd = Attach();
  const uint64_t device = session_->Malloc(1 << 20);
  Send(fd, {FrameType::kData, 99, 0, 16}, std::string(16, 'z'));
  EXPECT_TRUE(Closed(fd));
  const uint64_t id = session_->next_id();
  SendBulkWrite(id, 5, device, 4096);
  EXPECT_EQ(session_->AwaitReply(id).acl_error(), kSocketClose);
  EXPECT_EQ(session_->ReadInline(device, 16), std::string(16, '\0'));
  ExpectDaemonStillServes();
}

// More bytes than the copy has, or bytes at the wrong offset, are refused
// before any of them is written: the device memory around and inside the
// copy's range keeps its bytes.
TEST_F(BulkChannelTest, BytesPastTheCopyAreRefused) {
  constexpr uint64_t kRegion = 1 << 20;
  const uint64_t device = session_->Malloc(kRegion);
  const std::string before(kRegion, '\xAA');
  session_->Fill(device, before);
  const int fd = Attach();
  const uint64_t id = session_->next_id();
  SendBulkWrite(id, 21, device + 4096, 4096);
  FrameHeader pull;
  ASSERT_TRUE(Receive(fd, &pull));
  ASSERT_EQ(pull.type, FrameType::kPull);
  Send(fd, {FrameType::kData, 21, 0, 8192}, std::string(8192, '\x55'));
  EXPECT_TRUE(Closed(fd));
  EXPECT_EQ(session_->AwaitReply(id).acl_error(), kSocketClose);
  EXPECT_EQ(session_->ReadInline(device, kRegion), before);
  ExpectDaemonStillServes();
}

TEST_F(BulkChannelTest, BytesAtTheWrongOffsetAreRefused) {
  const uint64_t device = session_->Malloc(1 << 20);
  const std::string before(1 << 20, '\xAA');
  session_->Fill(device, before);
  const int fd = Attach();
  const uint64_t id = session_->next_id();
  SendBulkWrite(id, 22, device, 8192);
  FrameHeader pull;
  ASSERT_TRUE(Receive(fd, &pull));
  Send(fd, {FrameType::kData, 22, 4096, 4096}, std::string(4096, '\x55'));
  EXPECT_TRUE(Closed(fd));
  EXPECT_EQ(session_->AwaitReply(id).acl_error(), kSocketClose);
  EXPECT_EQ(session_->ReadInline(device, 1 << 20), before);
}

// A frame cut off mid-way fails the copy; bytes outside its range keep
// their values.
TEST_F(BulkChannelTest, ACutFrameFailsTheCopy) {
  constexpr uint64_t kRegion = 1 << 20;
  const uint64_t device = session_->Malloc(kRegion);
  session_->Fill(device, std::string(kRegion, '\xAA'));
  const int fd = Attach();
  const uint64_t id = session_->next_id();
  SendBulkWrite(id, 31, device + 4096, 4096);
  FrameHeader pull;
  ASSERT_TRUE(Receive(fd, &pull));
  const npud::bulk::EncodedHeader header =
      npud::bulk::EncodeHeader({FrameType::kData, 31, 0, 4096});
  std::string partial(header.begin(), header.end());
  partial += std::string(100, '\x55');
  ASSERT_EQ(send(fd, partial.data(), partial.size(), MSG_NOSIGNAL),
            static_cast<ssize_t>(partial.size()));
  shutdown(fd, SHUT_WR);
  EXPECT_EQ(session_->AwaitReply(id).acl_error(), kSocketClose);
  const std::string after = session_->ReadInline(device, kRegion);
  EXPECT_EQ(after.substr(0, 4096), std::string(4096, '\xAA'));
  EXPECT_EQ(after.substr(8192), std::string(kRegion - 8192, '\xAA'));
  ExpectDaemonStillServes();
}

// A client that asks for device-to-host bytes over its channel and never
// reads them costs npud no memory beyond the socket's (bytes are sent from
// device memory, not buffered), and ending the session releases the copy.
TEST_F(BulkChannelTest, UnreadBytesDoNotGrowTheDaemon) {
  constexpr uint64_t kSize = 256 << 20;
  const uint64_t device = session_->Malloc(kSize);
  session_->Fill(device, std::string(1 << 20, 'q'));
  Attach();
  const uint64_t rss_before = ResidentBytes(daemon_->pid());
  for (uint64_t transfer = 41; transfer < 45; ++transfer) {
    npud::v1::Call read;
    read.mutable_read_device()->set_address(device);
    read.mutable_read_device()->set_size(kSize);
    read.mutable_read_device()->set_transfer_id(transfer);
    read.mutable_read_device()->set_bulk(true);
    session_->Send(session_->next_id(), std::move(read));
  }
  absl::SleepFor(absl::Seconds(2));
  const uint64_t rss_during = ResidentBytes(daemon_->pid());
  EXPECT_LT(rss_during, rss_before + (32 << 20))
      << "before " << (rss_before >> 20) << " MiB, during " << (rss_during >> 20) << " MiB";
  session_.reset();
  ExpectDaemonStillServes();
}

}  // namespace

// The bulk channel (common/bulk_frame.h) against clients that do not follow
// its rules. The test speaks the session protocol itself over gRPC and the
// bulk channel over a raw socket, so it can send what a real client never
// would: hellos for other sessions or with forged keys, bytes npud did not
// ask for, more bytes than the copy has, a frame cut off mid-way, and
// device-to-host bytes that are never read. Each is refused or ends the
// channel, the copy fails with a CANN code, no byte outside the copy's range
// changes and the daemon keeps serving.
//
// Framed sessions share the port (npud://host:port): the same kind of
// test shows that they say hello first and in time, announce no frame
// larger than allowed, and end on malformed frames.
//
// Over TCP, plain and with mutual TLS (the tls variant, which adds the
// TLS refusals at the end): the bulk channel exists for remote sessions.

#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/time/clock.h"
#include "common/bulk_frame.h"
#include "common/byte_stream.h"
#include "common/frame_io.h"
#include "common/grpc/grpc_tls.h"
#include "common/protocol_version.h"
#include "common/stream_frame.h"
#include "common/tls_stream.h"
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
    auto started =
        NpudProcess::Start(npud::testing::TransportFromEnv(), {"--hello_timeout_ms=1000"});
    ASSERT_TRUE(started.ok()) << started.status();
    daemon_ = *std::move(started);
    grpc::ChannelArguments args;
    auto credentials = npud::ClientCredentialsFromEnv(&args);
    ASSERT_TRUE(credentials.ok()) << credentials.status();
    channel_ = grpc::CreateCustomChannel(daemon_->address(), *credentials, args);
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

  using Stream = std::shared_ptr<npud::ByteStream>;

  // A TCP connection to the bulk port.
  absl::StatusOr<npud::UniqueFd> ConnectToBulkPort() const {
    return npud::ConnectTcp("127.0.0.1", static_cast<int>(session_->hello().bulk_port()),
                            absl::Seconds(5));
  }
  // A TLS handshake with the bulk port as a client of `tls_context`: the
  // stream, or why there is none.
  absl::StatusOr<std::unique_ptr<npud::ByteStream>> Handshake(
      std::shared_ptr<const npud::TlsContext> tls_context) const {
    absl::StatusOr<npud::UniqueFd> fd = ConnectToBulkPort();
    if (!fd.ok()) return fd.status();
    return npud::TlsConnect(*std::move(fd), std::move(tls_context), "127.0.0.1", absl::Seconds(5));
  }

  // A raw connection to the bulk port, over TLS in the tls variant (with
  // `tls_context`, default the client's of NPUD_TLS_*); reads time out
  // after 5 s. A failed connection is a stream whose every call fails.
  Stream Connect(std::shared_ptr<const npud::TlsContext> tls_context = nullptr) {
    if (tls_context == nullptr && npud::ClientTlsRequested()) tls_context = ClientContext();
    absl::StatusOr<std::unique_ptr<npud::ByteStream>> connected;
    if (tls_context != nullptr) {
      connected = Handshake(std::move(tls_context));
    } else if (absl::StatusOr<npud::UniqueFd> fd = ConnectToBulkPort(); fd.ok()) {
      connected = npud::MakeSocketStream(*std::move(fd));
    } else {
      connected = fd.status();
    }
    EXPECT_TRUE(connected.ok()) << connected.status();
    Stream stream =
        connected.ok() ? Stream(*std::move(connected)) : npud::MakeSocketStream(npud::UniqueFd());
    stream->SetReadTimeout(absl::Seconds(5));
    streams_.push_back(stream);
    return stream;
  }
  // The TLS of this process's NPUD_TLS_* variables.
  static std::shared_ptr<const npud::TlsContext> ClientContext() {
    absl::StatusOr<npud::ClientTls> tls = npud::ClientTlsFromEnv();
    EXPECT_TRUE(tls.ok()) << tls.status();
    absl::StatusOr<std::shared_ptr<const npud::TlsContext>> context =
        npud::TlsContext::ForClient(tls.ok() ? *tls : npud::ClientTls{});
    EXPECT_TRUE(context.ok()) << context.status();
    return context.ok() ? *context : nullptr;
  }
  static absl::Status TrySend(npud::ByteStream& stream, const FrameHeader& header,
                              const std::string& payload = "") {
    const npud::bulk::EncodedHeader bytes = npud::bulk::EncodeHeader(header);
    const iovec pieces[2] = {npud::Piece(bytes.data(), bytes.size()),
                             npud::Piece(payload.data(), payload.size())};
    return stream.WriteAll(pieces);
  }
  static void Send(npud::ByteStream& stream, const FrameHeader& header,
                   const std::string& payload = "") {
    EXPECT_TRUE(TrySend(stream, header, payload).ok());
  }
  static void SendRaw(npud::ByteStream& stream, const std::string& bytes) {
    const iovec piece = npud::Piece(bytes.data(), bytes.size());
    EXPECT_TRUE(stream.WriteAll({&piece, 1}).ok());
  }
  // The next frame's header; false when the connection ended (or 5 s passed).
  static bool Receive(npud::ByteStream& stream, FrameHeader* header) {
    absl::StatusOr<FrameHeader> read = npud::bulk::ReadHeader(stream);
    if (!read.ok()) return false;
    *header = *read;
    return true;
  }
  static std::string ReceiveBytes(npud::ByteStream& stream, size_t size) {
    std::string bytes(size, '\0');
    if (!stream.ReadFully(bytes.data(), size).ok()) bytes.clear();
    return bytes;
  }
  // True once npud has closed the connection (not merely gone quiet).
  static bool Closed(npud::ByteStream& stream) {
    char byte;
    const absl::Status read = stream.ReadFully(&byte, 1);
    return !read.ok() && !absl::IsDeadlineExceeded(read);
  }
  // A channel npud welcomed for this test's session.
  Stream Attach() {
    const Stream channel = Connect();
    Send(*channel, {FrameType::kHello, session_->hello().session_id(), 0, npud::bulk::kKeyBytes},
         session_->hello().bulk_key());
    FrameHeader welcome;
    EXPECT_TRUE(Receive(*channel, &welcome));
    EXPECT_EQ(welcome.type, FrameType::kWelcome);
    return channel;
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
  std::vector<Stream> streams_;
};

// The positive control for the tests below: the protocol spoken by hand
// moves bytes both ways, and a real client's copies take the channel.
TEST_F(BulkChannelTest, PulledBytesLandAndReadBytesArrive) {
  const Stream channel = Attach();
  constexpr uint64_t kSize = 3 << 20;  // more than one data frame
  const uint64_t device = session_->Malloc(kSize);
  std::string bytes(kSize, '\0');
  for (size_t i = 0; i < bytes.size(); ++i) bytes[i] = static_cast<char>(i * 7 + 3);

  const uint64_t write = session_->next_id();
  SendBulkWrite(write, 11, device, kSize);
  FrameHeader pull;
  ASSERT_TRUE(Receive(*channel, &pull));
  EXPECT_EQ(pull.type, FrameType::kPull);
  EXPECT_EQ(pull.transfer, 11u);
  EXPECT_EQ(pull.length, kSize);
  Send(*channel, {FrameType::kData, 11, 0, 1 << 20}, bytes.substr(0, 1 << 20));
  Send(*channel, {FrameType::kData, 11, 1 << 20, kSize - (1 << 20)}, bytes.substr(1 << 20));
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
    ASSERT_TRUE(Receive(*channel, &data));
    ASSERT_EQ(data.type, FrameType::kData);
    ASSERT_EQ(data.transfer, 12u);
    ASSERT_EQ(data.offset, back.size());
    back += ReceiveBytes(*channel, data.length);
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
  Stream channel = Connect();
  Send(*channel, {FrameType::kHello, id, 0, npud::bulk::kKeyBytes}, forged);
  EXPECT_TRUE(Closed(*channel));
  channel = Connect();  // another session's id (none such)
  Send(*channel, {FrameType::kHello, id + 1000, 0, npud::bulk::kKeyBytes},
       session_->hello().bulk_key());
  EXPECT_TRUE(Closed(*channel));
  channel = Connect();  // a hello announcing a huge key
  Send(*channel, {FrameType::kHello, id, 0, 1ull << 40});
  EXPECT_TRUE(Closed(*channel));
  channel = Connect();
  SendRaw(*channel, std::string(64, 'x'));
  EXPECT_TRUE(Closed(*channel));
  channel = Connect();  // silent
  const absl::Time start = absl::Now();
  EXPECT_TRUE(Closed(*channel));
  EXPECT_LT(absl::Now() - start, absl::Seconds(4));

  Attach();
  channel = Connect();  // the right key, but the channel is taken
  Send(*channel, {FrameType::kHello, id, 0, npud::bulk::kKeyBytes}, session_->hello().bulk_key());
  EXPECT_TRUE(Closed(*channel));
  ExpectDaemonStillServes();
}

// Bytes for a transfer npud did not pull end the channel; bulk copies of
// the session then fail with a CANN code instead of hanging.
TEST_F(BulkChannelTest, UnrequestedBytesEndTheChannel) {
  const Stream channel = Attach();
  const uint64_t device = session_->Malloc(1 << 20);
  Send(*channel, {FrameType::kData, 99, 0, 16}, std::string(16, 'z'));
  EXPECT_TRUE(Closed(*channel));
  const uint64_t id = session_->next_id();
  SendBulkWrite(id, 5, device, 4096);
  EXPECT_EQ(session_->AwaitReply(id).acl_error(), kSocketClose);
  EXPECT_EQ(session_->ReadInline(device, 16), std::string(16, '\0'));
  ExpectDaemonStillServes();
}

// Writing on after npud closed the channel fails the write and never
// raises SIGPIPE, whose default action would end the client's program
// (OpenSSL writes with write(); the plain stream sends with MSG_NOSIGNAL).
TEST_F(BulkChannelTest, WritesAfterTheCloseFailWithoutSigpipe) {
  ASSERT_EQ(signal(SIGPIPE, SIG_DFL), SIG_DFL) << "the test needs SIGPIPE's default action";
  const Stream channel = Attach();
  Send(*channel, {FrameType::kData, 99, 0, 16}, std::string(16, 'z'));
  ASSERT_TRUE(Closed(*channel));
  const std::string bytes(1 << 20, 'x');
  absl::Status written;
  for (int i = 0; i < 50 && written.ok(); ++i) {
    const iovec piece{const_cast<char*>(bytes.data()), bytes.size()};
    written = channel->WriteAll(absl::MakeConstSpan(&piece, 1));
  }
  EXPECT_FALSE(written.ok()) << "50 MiB written to a closed connection";
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
  const Stream channel = Attach();
  const uint64_t id = session_->next_id();
  SendBulkWrite(id, 21, device + 4096, 4096);
  FrameHeader pull;
  ASSERT_TRUE(Receive(*channel, &pull));
  ASSERT_EQ(pull.type, FrameType::kPull);
  Send(*channel, {FrameType::kData, 21, 0, 8192}, std::string(8192, '\x55'));
  EXPECT_TRUE(Closed(*channel));
  EXPECT_EQ(session_->AwaitReply(id).acl_error(), kSocketClose);
  EXPECT_EQ(session_->ReadInline(device, kRegion), before);
  ExpectDaemonStillServes();
}

TEST_F(BulkChannelTest, BytesAtTheWrongOffsetAreRefused) {
  const uint64_t device = session_->Malloc(1 << 20);
  const std::string before(1 << 20, '\xAA');
  session_->Fill(device, before);
  const Stream channel = Attach();
  const uint64_t id = session_->next_id();
  SendBulkWrite(id, 22, device, 8192);
  FrameHeader pull;
  ASSERT_TRUE(Receive(*channel, &pull));
  Send(*channel, {FrameType::kData, 22, 4096, 4096}, std::string(4096, '\x55'));
  EXPECT_TRUE(Closed(*channel));
  EXPECT_EQ(session_->AwaitReply(id).acl_error(), kSocketClose);
  EXPECT_EQ(session_->ReadInline(device, 1 << 20), before);
}

// A frame cut off mid-way fails the copy; bytes outside its range keep
// their values.
TEST_F(BulkChannelTest, ACutFrameFailsTheCopy) {
  constexpr uint64_t kRegion = 1 << 20;
  const uint64_t device = session_->Malloc(kRegion);
  session_->Fill(device, std::string(kRegion, '\xAA'));
  const Stream channel = Attach();
  const uint64_t id = session_->next_id();
  SendBulkWrite(id, 31, device + 4096, 4096);
  FrameHeader pull;
  ASSERT_TRUE(Receive(*channel, &pull));
  const npud::bulk::EncodedHeader header =
      npud::bulk::EncodeHeader({FrameType::kData, 31, 0, 4096});
  std::string partial(header.begin(), header.end());
  partial += std::string(100, '\x55');
  SendRaw(*channel, partial);
  channel->Shutdown();
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

// Framed sessions on the same port (kSession, common/stream_frame.h),
// spoken by hand.

// One frame of the local protocol carrying `message`.
std::string Frame(const google::protobuf::Message& message) {
  std::string frame(npud::kFrameHeaderBytes, '\0');
  message.AppendToString(&frame);
  npud::SealFrame(&frame);
  return frame;
}

std::string SessionHeader() {
  const npud::bulk::EncodedHeader header = npud::bulk::EncodeHeader({FrameType::kSession, 0, 0, 0});
  return std::string(header.begin(), header.end());
}

npud::v1::ClientMessage HelloMessage(const std::string& token = "") {
  npud::v1::ClientMessage hello;
  hello.mutable_hello()->set_protocol_version(npud::protocol_version::kCurrent);
  hello.mutable_hello()->set_pid(getpid());
  hello.mutable_hello()->set_program("bulk_channel_test");
  hello.mutable_hello()->set_auth_token(token);
  return hello;
}

// The next server message of a framed session; nothing once it ended.
std::optional<npud::v1::ServerMessage> ReceiveMessage(npud::ByteStream& stream) {
  std::string payload;
  npud::v1::ServerMessage message;
  if (!npud::ReadStreamFrame(stream, &payload, npud::kMaxFrameBytes).ok() ||
      !message.ParseFromString(payload)) {
    return std::nullopt;
  }
  return message;
}

// The positive control: a hello, a call and its reply, and a real client's
// program over npud://.
TEST_F(BulkChannelTest, FramedSessionsServeCalls) {
  const Stream stream = Connect();
  SendRaw(*stream, SessionHeader() + Frame(HelloMessage()));
  std::optional<npud::v1::ServerMessage> hello = ReceiveMessage(*stream);
  ASSERT_TRUE(hello.has_value());
  ASSERT_TRUE(hello->has_hello()) << hello->DebugString();
  EXPECT_NE(hello->hello().session_id(), session_->hello().session_id());
  EXPECT_EQ(hello->hello().bulk_port(), session_->hello().bulk_port());
  npud::v1::ClientMessage batch;
  npud::v1::Call* call = batch.mutable_batch()->add_calls();
  call->set_call_id(7);
  call->mutable_malloc()->set_size(4096);
  SendRaw(*stream, Frame(batch));
  std::optional<npud::v1::ServerMessage> reply = ReceiveMessage(*stream);
  ASSERT_TRUE(reply.has_value());
  ASSERT_TRUE(reply->has_reply()) << reply->DebugString();
  EXPECT_EQ(reply->reply().call_id(), 7u);
  EXPECT_EQ(reply->reply().acl_error(), 0);
  EXPECT_NE(reply->reply().malloc().address(), 0u);

  const std::string framed =
      "NPUD_ADDRESS=npud://127.0.0.1:" + std::to_string(session_->hello().bulk_port());
  EXPECT_EQ(npud::testing::RunProcess({ACL_TEST_CLIENT, "flows"}, {framed}), 0);
}

// What a framed session must not do before its hello: stay silent, send
// something else first, or announce a hello larger than any. Each gets a
// refusal saying why and the close, within the hello timeout, and nothing
// is allocated for what a header announces.
TEST_F(BulkChannelTest, FramedSessionsSayHelloFirstAndInTime) {
  Stream stream = Connect();
  SendRaw(*stream, SessionHeader());
  const absl::Time start = absl::Now();
  std::optional<npud::v1::ServerMessage> refused = ReceiveMessage(*stream);
  ASSERT_TRUE(refused.has_value());
  EXPECT_TRUE(refused->has_refused());
  EXPECT_TRUE(absl::StrContains(refused->refused().message(), "no hello in time"))
      << refused->refused().message();
  EXPECT_TRUE(Closed(*stream));
  EXPECT_LT(absl::Now() - start, absl::Seconds(4));

  stream = Connect();
  npud::v1::ClientMessage batch;
  batch.mutable_batch()->add_calls()->mutable_malloc()->set_size(64);
  SendRaw(*stream, SessionHeader() + Frame(batch));
  refused = ReceiveMessage(*stream);
  ASSERT_TRUE(refused.has_value());
  EXPECT_TRUE(absl::StrContains(refused->refused().message(), "must be a hello"))
      << refused->refused().message();
  EXPECT_TRUE(Closed(*stream));

  const uint64_t rss_before = ResidentBytes(daemon_->pid());
  std::vector<Stream> huge;
  for (int i = 0; i < 8; ++i) {
    huge.push_back(Connect());
    std::string header(npud::kFrameHeaderBytes, '\0');
    header[3] = 0x0f;  // 240 MiB
    SendRaw(*huge.back(), SessionHeader() + header);
  }
  for (const Stream& s : huge) {
    refused = ReceiveMessage(*s);
    ASSERT_TRUE(refused.has_value());
    EXPECT_TRUE(absl::StrContains(refused->refused().message(), "malformed frame header"))
        << refused->refused().message();
    EXPECT_TRUE(Closed(*s));
  }
  EXPECT_LT(ResidentBytes(daemon_->pid()), rss_before + (32 << 20));
  ExpectDaemonStillServes();
}

// After the hello: a frame with descriptors, a garbage length or a message
// that does not parse ends the session, and what it held is released.
TEST_F(BulkChannelTest, MalformedFramesEndAFramedSession) {
  for (const std::string& bad :
       {std::string("\x04\0\0\0\x01\0\0\0abcd", 12), std::string("\xff\xff\xff\xff\0\0\0\0", 8),
        std::string("\x04\0\0\0\0\0\0\0\xff\xff\xff\xff", 12)}) {
    const Stream stream = Connect();
    SendRaw(*stream, SessionHeader() + Frame(HelloMessage()));
    std::optional<npud::v1::ServerMessage> hello = ReceiveMessage(*stream);
    ASSERT_TRUE(hello.has_value() && hello->has_hello());
    SendRaw(*stream, bad);
    EXPECT_TRUE(Closed(*stream));
  }
  ExpectDaemonStillServes();
}

// The TLS variant only, from here on: what peers without the right TLS get.

std::string ReadText(const std::string& path) {
  std::ifstream in(path);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

// Plain bytes to the TLS bulk port: no welcome, the connection is closed,
// and the session's channel is still free for its own client.
TEST_F(BulkChannelTest, PlainBytesToTheTlsPortAreRefused) {
  if (!npud::ClientTlsRequested()) GTEST_SKIP() << "the tls variant's case";
  absl::StatusOr<npud::UniqueFd> fd = ConnectToBulkPort();
  ASSERT_TRUE(fd.ok()) << fd.status();
  const Stream plain = npud::MakeSocketStream(*std::move(fd));
  plain->SetReadTimeout(absl::Seconds(5));
  const absl::Time start = absl::Now();
  Send(*plain, {FrameType::kHello, session_->hello().session_id(), 0, npud::bulk::kKeyBytes},
       session_->hello().bulk_key());
  FrameHeader answer;
  EXPECT_FALSE(Receive(*plain, &answer));
  EXPECT_LT(absl::Now() - start, absl::Seconds(4)) << "npud did not close the connection";
  Attach();
  ExpectDaemonStillServes();
}

// Mutual TLS: a client without a certificate gets no channel (TLS 1.3
// finishes the client's side of the handshake before npud checks it, so the
// refusal can come with the first read).
TEST_F(BulkChannelTest, ClientsWithoutACertificateAreRefused) {
  if (!npud::ClientTlsRequested()) GTEST_SKIP() << "the tls variant's case";
  npud::ClientTls tls;
  tls.ca = ReadText(std::getenv("NPUD_TLS_CA"));
  absl::StatusOr<std::shared_ptr<const npud::TlsContext>> context =
      npud::TlsContext::ForClient(tls);
  ASSERT_TRUE(context.ok()) << context.status();
  ASSERT_TRUE(ConnectToBulkPort().ok());
  absl::StatusOr<std::unique_ptr<npud::ByteStream>> stream = Handshake(*context);
  if (stream.ok()) {
    // TLS 1.3: the client's handshake ends before npud has checked it, so
    // npud's refusal comes later — as an alert the next read reports, or,
    // when npud has already closed, as a failed write.
    (*stream)->SetReadTimeout(absl::Seconds(5));
    const absl::Status sent = TrySend(
        **stream, {FrameType::kHello, session_->hello().session_id(), 0, npud::bulk::kKeyBytes},
        session_->hello().bulk_key());
    const absl::StatusOr<FrameHeader> read = npud::bulk::ReadHeader(**stream);
    ASSERT_FALSE(read.ok()) << "npud answered a client without a certificate";
    if (sent.ok()) {
      EXPECT_TRUE(absl::StrContains(read.status().message(), "certificate")) << read.status();
    }
    EXPECT_TRUE(absl::StrContains(daemon_->Log(), "certificate")) << daemon_->Log();
  } else {
    EXPECT_TRUE(absl::StrContains(stream.status().message(), "certificate")) << stream.status();
  }
  Attach();
  ExpectDaemonStillServes();
}

// The client's checks: a server certificate from another CA, or for
// another name, fails the handshake, saying why.
TEST_F(BulkChannelTest, TheClientRefusesAnUntrustedOrMisnamedServer) {
  if (!npud::ClientTlsRequested()) GTEST_SKIP() << "the tls variant's case";
  const std::string other = ::testing::TempDir() + "/bulk_channel_test_other_ca";
  ASSERT_EQ(npud::testing::RunProcess({"/bin/sh", MAKE_TLS_CERTS, other}, {}), 0);
  absl::StatusOr<npud::ClientTls> own = npud::ClientTlsFromEnv();
  ASSERT_TRUE(own.ok()) << own.status();
  npud::ClientTls untrusting = *own;
  untrusting.ca = ReadText(other + "/ca.crt");
  npud::ClientTls misnaming = *own;
  misnaming.server_name = "not-npud.example";
  for (const auto& [tls, why] : {std::pair{untrusting, "certificate in certificate chain"},
                                 std::pair{misnaming, "hostname mismatch"}}) {
    absl::StatusOr<std::shared_ptr<const npud::TlsContext>> context =
        npud::TlsContext::ForClient(tls);
    ASSERT_TRUE(context.ok()) << context.status();
    ASSERT_TRUE(ConnectToBulkPort().ok());
    absl::StatusOr<std::unique_ptr<npud::ByteStream>> stream = Handshake(*context);
    ASSERT_FALSE(stream.ok()) << "the handshake passed with " << why;
    EXPECT_TRUE(absl::StrContains(stream.status().message(), "certificate verify failed"))
        << stream.status();
    EXPECT_TRUE(absl::StrContains(stream.status().message(), why)) << stream.status();
  }
  Attach();
  ExpectDaemonStillServes();
}

}  // namespace

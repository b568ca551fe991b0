// npud against clients that do not follow the protocol: garbage bytes on
// the socket, a stream that hangs up mid-message, a session without hello,
// a hello from a future version, undecodable messages and nonsense calls —
// over gRPC and over the local protocol (malformed frames, bad shared
// memory). After each, the daemon must still serve a well-behaved client.

#include <netinet/in.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <fstream>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/time/clock.h"
#include "common/frame_io.h"
#include "common/grpc/grpc_tls.h"
#include "common/protocol_version.h"
#include "grpcpp/generic/generic_stub.h"
#include "grpcpp/grpcpp.h"
#include "gtest/gtest.h"
#include "npud/v1/npud.grpc.pb.h"
#include "tests/e2e/npud_process.h"

namespace {

using npud::testing::NpudProcess;
using npud::testing::RunProcess;

class ProtocolAbuseTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto started =
        NpudProcess::Start(npud::testing::TransportFromEnv(), {"--hello_timeout_ms=1000"});
    ASSERT_TRUE(started.ok()) << started.status();
    daemon_ = *std::move(started);
    target_ = daemon_->address();
    if (absl::StartsWith(target_, "unix://")) target_ = "unix:" + target_.substr(7);
    // Over TLS, as the clients of this test process would (NPUD_TLS_*).
    grpc::ChannelArguments args;
    std::shared_ptr<grpc::ChannelCredentials> credentials = grpc::InsecureChannelCredentials();
    if (!absl::StartsWith(target_, "unix:")) {
      auto tls = npud::ClientCredentialsFromEnv(&args);
      ASSERT_TRUE(tls.ok()) << tls.status();
      credentials = *std::move(tls);
    }
    channel_ = grpc::CreateCustomChannel(target_, credentials, args);
    stub_ = npud::v1::Npud::NewStub(channel_);
  }
  void TearDown() override {
    const absl::Status stopped = daemon_->Stop();
    EXPECT_TRUE(stopped.ok()) << stopped << "\n" << daemon_->Log();
  }

  void ExpectDaemonStillServes() {
    ASSERT_TRUE(daemon_->Alive()) << daemon_->Log();
    std::vector<std::string> argv = {ACL_TEST_CLIENT, "flows"};
    EXPECT_EQ(RunProcess(argv, {"NPUD_ADDRESS=" + daemon_->address()}), 0);
  }

  // A raw socket connected to the daemon.
  int RawConnect() {
    const std::string& address = daemon_->address();
    if (absl::StartsWith(address, "unix://")) {
      int fd = socket(AF_UNIX, SOCK_STREAM, 0);
      sockaddr_un addr{};
      addr.sun_family = AF_UNIX;
      std::strncpy(addr.sun_path, address.substr(7).c_str(), sizeof(addr.sun_path) - 1);
      EXPECT_EQ(connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)), 0);
      return fd;
    }
    int port = 0;
    EXPECT_TRUE(absl::SimpleAtoi(address.substr(address.rfind(':') + 1), &port));
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_port = htons(port);
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    EXPECT_EQ(connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)), 0);
    return fd;
  }

  npud::v1::Hello Hello(uint32_t version = npud::protocol_version::kCurrent) {
    npud::v1::Hello hello;
    hello.set_protocol_version(version);
    hello.set_pid(getpid());
    hello.set_program("protocol_abuse_test");
    return hello;
  }

  std::unique_ptr<NpudProcess> daemon_;
  std::string target_;
  std::shared_ptr<grpc::Channel> channel_;
  std::unique_ptr<npud::v1::Npud::Stub> stub_;
};

// Admin calls show every session: over TCP they need the admin token (the
// test daemon has one there), on a unix socket without one they are open.
TEST_F(ProtocolAbuseTest, AdminCallsNeedTheAdminToken) {
  const std::vector<std::string> npuctl = {NPUCTL_BINARY, "--address=" + daemon_->grpc_address(),
                                           "sessions"};
  std::string out;
  EXPECT_EQ(RunProcess(npuctl, {}, &out), 0) << daemon_->Log();
  if (!absl::StartsWith(daemon_->address(), "unix://")) {
    const std::string wrong = ::testing::TempDir() + "/wrong_admin_token";
    std::ofstream(wrong) << "wrong\n";
    EXPECT_NE(RunProcess({NPUCTL_BINARY, "--admin_token_file=/nonexistent",
                          "--address=" + daemon_->grpc_address(), "sessions"},
                         {}, &out),
              0);
    EXPECT_NE(RunProcess({NPUCTL_BINARY, "--admin_token_file=" + wrong,
                          "--address=" + daemon_->grpc_address(), "sessions"},
                         {}, &out),
              0);
    EXPECT_TRUE(absl::StrContains(daemon_->Log(), "admin call from")) << daemon_->Log();
  }
  ExpectDaemonStillServes();
}

// A Session stream that never says hello is cancelled after the hello
// timeout instead of holding a server thread.
TEST_F(ProtocolAbuseTest, SilentSessionStreamsAreCancelled) {
  const absl::Time start = absl::Now();
  grpc::ClientContext context;
  auto stream = stub_->Session(&context);
  npud::v1::ServerMessage message;
  EXPECT_FALSE(stream->Read(&message));
  const grpc::Status status = stream->Finish();
  EXPECT_FALSE(status.ok());
  EXPECT_LT(absl::Now() - start, absl::Seconds(15));
  EXPECT_TRUE(absl::StrContains(daemon_->Log(), "sent no hello within the hello timeout"))
      << daemon_->Log();
  ExpectDaemonStillServes();
}

TEST_F(ProtocolAbuseTest, GarbageBytesOnTheSocket) {
  for (int round = 0; round < 3; ++round) {
    int fd = RawConnect();
    std::string junk(4096, '\0');
    for (size_t i = 0; i < junk.size(); ++i) junk[i] = static_cast<char>(i * 7919 + round);
    EXPECT_GT(write(fd, junk.data(), junk.size()), 0);
    close(fd);
  }
  // A valid HTTP/2 preface, then a frame cut off in the middle.
  int fd = RawConnect();
  const std::string preface = "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n";
  const char partial_frame[] = {0x00, 0x10, 0x00, 0x01, 0x04};
  EXPECT_GT(write(fd, preface.data(), preface.size()), 0);
  EXPECT_GT(write(fd, partial_frame, sizeof(partial_frame)), 0);
  close(fd);
  ExpectDaemonStillServes();
}

TEST_F(ProtocolAbuseTest, SessionMustStartWithHello) {
  grpc::ClientContext context;
  auto stream = stub_->Session(&context);
  npud::v1::ClientMessage message;
  message.mutable_batch()->add_calls()->mutable_ping();
  ASSERT_TRUE(stream->Write(message));
  stream->WritesDone();
  npud::v1::ServerMessage reply;
  EXPECT_FALSE(stream->Read(&reply));
  EXPECT_EQ(stream->Finish().error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  ExpectDaemonStillServes();
}

TEST_F(ProtocolAbuseTest, FutureProtocolVersionIsRefused) {
  grpc::ClientContext context;
  auto stream = stub_->Session(&context);
  npud::v1::ClientMessage message;
  *message.mutable_hello() = Hello(npud::protocol_version::kCurrent + 100);
  ASSERT_TRUE(stream->Write(message));
  npud::v1::ServerMessage reply;
  EXPECT_FALSE(stream->Read(&reply));
  const grpc::Status status = stream->Finish();
  EXPECT_EQ(status.error_code(), grpc::StatusCode::FAILED_PRECONDITION);
  EXPECT_NE(status.error_message().find("supports"), std::string::npos);
  ExpectDaemonStillServes();
}

TEST_F(ProtocolAbuseTest, UndecodableMessagesEndOnlyThatSession) {
  grpc::GenericStub generic(channel_);
  grpc::ClientContext context;
  grpc::CompletionQueue cq;
  auto call = generic.PrepareCall(&context, "/npud.v1.Npud/Session", &cq);
  call->StartCall(reinterpret_cast<void*>(1));
  void* tag = nullptr;
  bool ok = false;
  ASSERT_TRUE(cq.Next(&tag, &ok));
  // Bytes that are not a ClientMessage (an invalid protobuf varint).
  const std::string junk = "\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\x01garbage";
  grpc::Slice slice(junk);
  grpc::ByteBuffer buffer(&slice, 1);
  call->Write(buffer, reinterpret_cast<void*>(2));
  ASSERT_TRUE(cq.Next(&tag, &ok));
  grpc::Status status;
  call->Finish(&status, reinterpret_cast<void*>(3));
  bool finished = false;
  while (!finished && cq.Next(&tag, &ok)) finished = tag == reinterpret_cast<void*>(3);
  EXPECT_TRUE(finished);
  // The daemon cannot decode the message: it ends this session (the call
  // finishes, whatever its status) and goes on serving everyone else.
  cq.Shutdown();
  while (cq.Next(&tag, &ok)) {
  }
  ExpectDaemonStillServes();
}

TEST_F(ProtocolAbuseTest, NonsenseCallsGetErrorReplies) {
  grpc::ClientContext context;
  auto stream = stub_->Session(&context);
  npud::v1::ClientMessage hello;
  *hello.mutable_hello() = Hello();
  ASSERT_TRUE(stream->Write(hello));
  npud::v1::ServerMessage reply;
  ASSERT_TRUE(stream->Read(&reply));
  ASSERT_TRUE(reply.has_hello());

  npud::v1::ClientMessage batch;
  auto* calls = batch.mutable_batch();
  calls->add_calls()->set_call_id(1);  // No operation at all.
  auto* read = calls->add_calls();
  read->set_call_id(2);
  read->mutable_read_device()->set_address(0);
  read->mutable_read_device()->set_size(~0ull);
  auto* write = calls->add_calls();
  write->set_call_id(3);
  write->mutable_write_device()->set_address(reply.hello().devices(0).va_base() + 4096);
  write->mutable_write_device()->set_data("xyz");
  auto* sync = calls->add_calls();
  sync->set_call_id(4);
  sync->mutable_synchronize_stream()->set_stream_id(12345);
  auto* malloc = calls->add_calls();
  malloc->set_call_id(5);
  malloc->mutable_malloc()->set_device_id(0);
  malloc->mutable_malloc()->set_size(1ull << 62);
  auto* create = calls->add_calls();  // Asynchronous, on a bad device: logged only.
  create->mutable_create_stream()->set_stream_id(7);
  create->mutable_create_stream()->set_device_id(1000);
  auto* ping = calls->add_calls();
  ping->set_call_id(6);
  ping->mutable_ping();
  ASSERT_TRUE(stream->Write(batch));

  std::map<uint64_t, int32_t> errors;
  while (errors.size() < 6 && stream->Read(&reply)) {
    if (reply.has_reply()) errors[reply.reply().call_id()] = reply.reply().acl_error();
  }
  EXPECT_EQ(errors[1], 207000);  // Unknown operation.
  EXPECT_EQ(errors[2], 107000);
  EXPECT_EQ(errors[3], 107000);
  EXPECT_EQ(errors[4], 107017);
  EXPECT_EQ(errors[5], 207001);
  EXPECT_EQ(errors[6], 0);
  stream->WritesDone();
  EXPECT_TRUE(stream->Finish().ok());
  ExpectDaemonStillServes();
}

}  // namespace

namespace {

// The same against the local protocol (<socket>.local), which also takes
// file descriptors. Always on a unix socket, whatever the suite's transport.
class LocalProtocolAbuseTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto started = NpudProcess::Start(NpudProcess::Transport::kUnix);
    ASSERT_TRUE(started.ok()) << started.status();
    daemon_ = *std::move(started);
    path_ = daemon_->address().substr(7) + ".local";
  }
  void TearDown() override {
    const absl::Status stopped = daemon_->Stop();
    EXPECT_TRUE(stopped.ok()) << stopped << "\n" << daemon_->Log();
  }

  int Connect() {
    int fd = socket(AF_UNIX, SOCK_STREAM, 0);
    sockaddr_un addr{};
    addr.sun_family = AF_UNIX;
    std::strncpy(addr.sun_path, path_.c_str(), sizeof(addr.sun_path) - 1);
    EXPECT_EQ(connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)), 0);
    return fd;
  }

  // A connection with a session opened.
  int Open() {
    const int fd = Connect();
    npud::v1::ClientMessage hello;
    hello.mutable_hello()->set_protocol_version(npud::protocol_version::kCurrent);
    hello.mutable_hello()->set_pid(getpid());
    EXPECT_TRUE(npud::WriteFrame(fd, hello.SerializeAsString()).ok());
    npud::v1::ServerMessage reply = Next(fd);
    EXPECT_TRUE(reply.has_hello());
    return fd;
  }

  static npud::v1::ServerMessage Next(int fd) {
    npud::FrameReader reader(fd);
    std::string payload;
    std::vector<int> fds;
    npud::v1::ServerMessage message;
    if (reader.Read(&payload, &fds).ok()) message.ParseFromString(payload);
    return message;
  }

  // True once the daemon has closed `fd` (reads end of stream).
  static bool Closed(int fd) {
    char byte;
    timeval timeout{10, 0};
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof(timeout));
    return read(fd, &byte, 1) == 0;
  }

  // True if the daemon answers with a refusal, then closes `fd`.
  static bool RefusedThenClosed(int fd) {
    timeval timeout{10, 0};
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof(timeout));
    const npud::v1::ServerMessage answer = Next(fd);
    return answer.has_refused() && !answer.refused().message().empty() && Closed(fd);
  }

  void ExpectDaemonStillServes() {
    ASSERT_TRUE(daemon_->Alive()) << daemon_->Log();
    EXPECT_EQ(RunProcess({ACL_TEST_CLIENT, "flows"}, {"NPUD_ADDRESS=" + daemon_->address()}), 0);
  }

  std::unique_ptr<NpudProcess> daemon_;
  std::string path_;
};

TEST_F(LocalProtocolAbuseTest, MalformedFramesCloseOnlyThatConnection) {
  // A length far beyond the limit.
  int fd = Connect();
  const char huge[8] = {'\xff', '\xff', '\xff', '\x7f', 0, 0, 0, 0};
  ASSERT_EQ(write(fd, huge, sizeof(huge)), 8);
  EXPECT_TRUE(RefusedThenClosed(fd));
  close(fd);
  // A batch before any hello.
  fd = Connect();
  npud::v1::ClientMessage batch;
  batch.mutable_batch()->add_calls()->mutable_ping();
  ASSERT_TRUE(npud::WriteFrame(fd, batch.SerializeAsString()).ok());
  EXPECT_TRUE(RefusedThenClosed(fd));
  close(fd);
  // A frame cut off in the middle, then hang up.
  fd = Open();
  const char cut[10] = {100, 0, 0, 0, 0, 0, 0, 0, 1, 2};
  ASSERT_EQ(write(fd, cut, sizeof(cut)), 10);
  close(fd);
  // Garbage instead of a message after the hello.
  fd = Open();
  ASSERT_TRUE(npud::WriteFrame(fd, std::string("\xff\xff\xff\xff garbage")).ok());
  EXPECT_TRUE(Closed(fd));
  close(fd);
  ExpectDaemonStillServes();
}

TEST_F(LocalProtocolAbuseTest, BadSharedMemoryIsRefusedWithErrors) {
  const int fd = Open();
  const int memfd = memfd_create("abuse", 0);
  ASSERT_EQ(ftruncate(memfd, 4096), 0);
  // Claims more bytes than the file that comes with it has.
  npud::v1::ClientMessage first;
  auto* too_big = first.mutable_batch()->add_calls();
  too_big->set_call_id(1);
  too_big->mutable_register_host_memory()->set_window_id(5);
  too_big->mutable_register_host_memory()->set_size(1 << 20);
  ASSERT_TRUE(npud::WriteFrame(fd, first.SerializeAsString(), {memfd}).ok());
  // No file comes with this one; and a copy through a window that does not
  // exist.
  npud::v1::ClientMessage second;
  auto* no_file = second.mutable_batch()->add_calls();
  no_file->set_call_id(2);
  no_file->mutable_register_host_memory()->set_window_id(6);
  no_file->mutable_register_host_memory()->set_size(4096);
  auto* copy = second.mutable_batch()->add_calls();
  copy->set_call_id(3);
  copy->mutable_host_copy()->set_window_id(77);
  copy->mutable_host_copy()->set_size(16);
  copy->mutable_host_copy()->set_to_device(true);
  ASSERT_TRUE(npud::WriteFrame(fd, second.SerializeAsString()).ok());
  // A file nobody asked for (the daemon just closes it).
  npud::v1::ClientMessage third;
  auto* ping = third.mutable_batch()->add_calls();
  ping->set_call_id(4);
  ping->mutable_ping();
  ASSERT_TRUE(npud::WriteFrame(fd, third.SerializeAsString(), {memfd}).ok());
  close(memfd);
  std::map<uint64_t, int32_t> errors;
  npud::FrameReader reader(fd);
  while (errors.size() < 4) {
    std::string payload;
    std::vector<int> received;
    ASSERT_TRUE(reader.Read(&payload, &received).ok());
    npud::v1::ServerMessage reply;
    ASSERT_TRUE(reply.ParseFromString(payload));
    if (reply.has_reply()) errors[reply.reply().call_id()] = reply.reply().acl_error();
  }
  EXPECT_EQ(errors[1], 107000);
  EXPECT_EQ(errors[2], 107000);
  EXPECT_EQ(errors[3], 107000);
  EXPECT_EQ(errors[4], 0);
  close(fd);
  ExpectDaemonStillServes();
}

// Resident memory of process `pid`, in bytes (0 if unknown).
uint64_t ResidentBytes(pid_t pid) {
  std::ifstream status("/proc/" + std::to_string(pid) + "/status");
  for (std::string line; std::getline(status, line);) {
    if (line.rfind("VmRSS:", 0) == 0) return std::stoull(line.substr(6)) << 10;
  }
  return 0;
}

// A client that asks for gigabytes of device-to-host data and never reads
// them: the daemon keeps what it buffers for it bounded (the reads park
// behind the unread bytes) and keeps serving everybody else.
TEST_F(LocalProtocolAbuseTest, UnreadRepliesDoNotGrowTheDaemon) {
  constexpr uint64_t kReadBytes = 16 << 20;
  constexpr int kReads = 240;  // 3.75 GiB asked for
  const int fd = Open();
  npud::v1::ClientMessage setup;
  auto* malloc_call = setup.mutable_batch()->add_calls();
  malloc_call->set_call_id(1);
  malloc_call->mutable_malloc()->set_size(kReadBytes);
  auto* stream = setup.mutable_batch()->add_calls();
  stream->mutable_create_stream()->set_stream_id(9);
  ASSERT_TRUE(npud::WriteFrame(fd, setup.SerializeAsString()).ok());
  const npud::v1::ServerMessage allocated = Next(fd);
  ASSERT_TRUE(allocated.has_reply());
  ASSERT_EQ(allocated.reply().acl_error(), 0);
  const uint64_t address = allocated.reply().malloc().address();
  // Device memory is shared memory, resident once touched (even by a read):
  // touch it before the baseline.
  npud::v1::ClientMessage touch;
  auto* memset_call = touch.mutable_batch()->add_calls();
  memset_call->set_call_id(2);
  memset_call->mutable_memset()->set_address(address);
  memset_call->mutable_memset()->set_count(kReadBytes);
  memset_call->mutable_memset()->set_value(7);
  ASSERT_TRUE(npud::WriteFrame(fd, touch.SerializeAsString()).ok());
  const npud::v1::ServerMessage touched = Next(fd);
  ASSERT_TRUE(touched.has_reply());
  ASSERT_EQ(touched.reply().acl_error(), 0);
  const uint64_t before = ResidentBytes(daemon_->pid());

  npud::v1::ClientMessage reads;
  for (int i = 0; i < kReads; ++i) {
    auto* read = reads.mutable_batch()->add_calls();
    read->mutable_read_device()->set_stream_id(9);
    read->mutable_read_device()->set_address(address);
    read->mutable_read_device()->set_size(kReadBytes);
    read->mutable_read_device()->set_transfer_id(100 + i);
  }
  ASSERT_TRUE(npud::WriteFrame(fd, reads.SerializeAsString()).ok());
  uint64_t peak = 0;
  for (int i = 0; i < 30; ++i) {
    absl::SleepFor(absl::Milliseconds(100));
    peak = std::max(peak, ResidentBytes(daemon_->pid()));
  }
  // ASan's quarantine keeps up to 256 MiB of freed memory resident on top.
  const uint64_t sanitizer_slack = NPUD_ADDRESS_SANITIZER ? uint64_t{256} << 20 : 0;
  EXPECT_LT(peak, before + (uint64_t{400} << 20) + sanitizer_slack)
      << "daemon RSS " << (before >> 20) << " MiB -> peak " << (peak >> 20) << " MiB";
  ExpectDaemonStillServes();
  // Nothing was dropped: once the client reads, the reads continue in order
  // on the same connection.
  npud::FrameReader reader(fd);
  uint64_t expected_transfer = 100;
  uint64_t received = 0;
  while (received < 20 * kReadBytes) {
    std::string payload;
    std::vector<int> fds;
    ASSERT_TRUE(reader.Read(&payload, &fds).ok()) << "after " << (received >> 20) << " MiB";
    npud::v1::ServerMessage message;
    ASSERT_TRUE(message.ParseFromString(payload));
    ASSERT_TRUE(message.has_data());
    ASSERT_EQ(message.data().transfer_id(), expected_transfer);
    received += message.data().data().size();
    if (message.data().last()) ++expected_transfer;
  }
  close(fd);
  ExpectDaemonStillServes();
}

}  // namespace

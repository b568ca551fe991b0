// The framed TCP transport: the local protocol's frames (no descriptors) on
// npud's own TCP port, plain or in TLS (NPUD_ADDRESS=npud://host:port).
// Without gRPC's HTTP/2 layer and its threads a call costs about one TCP
// round trip, as on the unix socket (docs/design.md, "Framed sessions on
// TCP").

#include <algorithm>
#include <memory>
#include <string>
#include <thread>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/clock.h"
#include "client/transport/hello_reply.h"
#include "client/transport/tcp_dial.h"
#include "client/transport/transport.h"
#include "common/bulk_frame.h"
#include "common/frame_io.h"
#include "common/status_macros.h"
#include "common/stream_frame.h"
#include "common/tls_config.h"

namespace npud::client {
namespace {

class FramedTcpTransport final : public Transport {
 public:
  FramedTcpTransport(std::string host, int port)
      : host_(std::move(host)),
        port_(port),
        name_(absl::StrCat("npud://", host_.find(':') != std::string::npos ? "[" : "", host_,
                           host_.find(':') != std::string::npos ? "]" : "", ":", port_)) {}
  ~FramedTcpTransport() override { Shutdown(); }

  absl::StatusOr<v1::HelloReply> Connect(const v1::Hello& hello,
                                         TransportReceiver* receiver) override {
    const absl::Duration timeout = ConnectTimeout();
    const absl::Time deadline = absl::Now() + timeout;
    absl::StatusOr<std::unique_ptr<ByteStream>> dialled = DialNpudPort(host_, port_, timeout);
    if (!dialled.ok()) {
      return absl::Status(
          dialled.status().code(),
          absl::StrCat(
              "cannot reach npud at ", name_, ": ", dialled.status().message(),
              ClientTlsRequested()
                  ? " (over TLS: check NPUD_TLS_CA, NPUD_TLS_CERT/KEY and the server's name)"
                  : ""));
    }
    stream_ = *std::move(dialled);
    // The session header and the hello in one write.
    const bulk::EncodedHeader header = bulk::EncodeHeader({bulk::FrameType::kSession, 0, 0, 0});
    v1::ClientMessage first;
    *first.mutable_hello() = hello;
    std::string frame(kFrameHeaderBytes, '\0');
    first.AppendToString(&frame);
    SealFrame(&frame);
    const iovec pieces[2] = {Piece(header.data(), header.size()),
                             Piece(frame.data(), frame.size())};
    // A daemon that refuses the connection sends why and closes, maybe
    // before the hello is out: the refusal is read even when the write
    // failed.
    const absl::Status sent = stream_->WriteAll(pieces);
    stream_->SetReadTimeout(std::max(deadline - absl::Now(), absl::Milliseconds(1)));
    std::string payload;
    if (absl::Status read = ReadStreamFrame(*stream_, &payload, kMaxFrameBytes); !read.ok()) {
      if (!sent.ok()) return sent;
      if (absl::IsDeadlineExceeded(read)) {
        return absl::DeadlineExceededError(absl::StrCat(
            "npud at ", name_, " did not answer the hello within ", absl::FormatDuration(timeout)));
      }
      return absl::UnavailableError(
          absl::StrCat("npud at ", name_, " closed the session (", read.message(),
                       "); is this npud's own port (--bulk_listen), not its gRPC port?"));
    }
    stream_->SetReadTimeout(absl::ZeroDuration());
    NPUD_ASSIGN_OR_RETURN(v1::HelloReply reply, DecodeHelloReply(payload, sent));
    receiver_ = receiver;
    thread_ = std::thread([this] { ReadLoop(); });
    return reply;
  }

  absl::Status Send(v1::ClientMessage message) override {
    buffer_.assign(kFrameHeaderBytes, '\0');
    message.AppendToString(&buffer_);
    if (!WriteStreamFrame(*stream_, &buffer_).ok()) {
      return absl::UnavailableError(absl::StrCat("lost the connection to npud at ", name_));
    }
    return absl::OkStatus();
  }

  void Shutdown() override {
    {
      absl::MutexLock lock(&mu_);
      if (shut_down_) return;
      shut_down_ = true;
    }
    if (stream_ == nullptr) return;
    // npud sees the end and closes the session; the reader sees it too.
    stream_->Shutdown();
    if (thread_.joinable()) thread_.join();
  }

  std::string BulkHost() const override { return host_; }

  std::string Describe() const override {
    return absl::StrCat(name_, ClientTlsRequested() ? " (framed, TLS)" : " (framed)");
  }

 private:
  void ReadLoop() {
    std::string payload;
    absl::Status status;
    while (true) {
      status = ReadStreamFrame(*stream_, &payload, kMaxFrameBytes);
      if (!status.ok()) break;
      v1::ServerMessage message;
      if (!message.ParseFromString(payload)) {
        status = absl::DataLossError("undecodable message from npud");
        break;
      }
      receiver_->OnMessage(std::move(message));
    }
    if (absl::IsOutOfRange(status)) status = absl::UnavailableError("npud ended the session");
    receiver_->OnDisconnect(status);
  }

  const std::string host_;
  const int port_;
  const std::string name_;  // for messages: "npud://host:port"
  std::unique_ptr<ByteStream> stream_;
  // Reused by sends (which callers serialize).
  std::string buffer_;
  TransportReceiver* receiver_ = nullptr;
  std::thread thread_;
  absl::Mutex mu_;
  bool shut_down_ ABSL_GUARDED_BY(mu_) = false;
};

}  // namespace

std::unique_ptr<Transport> MakeFramedTcpTransport(const std::string& host, int port) {
  return std::make_unique<FramedTcpTransport>(host, port);
}

}  // namespace npud::client

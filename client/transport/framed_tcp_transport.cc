// The framed TCP transport: the local protocol's frames (no descriptors) on
// npud's own TCP port, plain or in TLS (NPUD_ADDRESS=npud://host:port).
// Without gRPC's HTTP/2 layer and its threads a call costs about one TCP
// round trip, as on the unix socket (docs/design.md, "Framed sessions on
// TCP").

#include <algorithm>
#include <memory>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "client/transport/session_transport.h"
#include "client/transport/tcp_dial.h"
#include "common/bulk_frame.h"
#include "common/frame_io.h"
#include "common/status_macros.h"
#include "common/stream_frame.h"
#include "common/tls_config.h"

namespace npud::client {
namespace {

std::string NameOf(const std::string& host, int port) {
  const bool v6 = host.find(':') != std::string::npos;
  return absl::StrCat("npud://", v6 ? "[" : "", host, v6 ? "]" : "", ":", port);
}

class FramedTcpTransport final : public SessionTransport {
 public:
  FramedTcpTransport(std::string host, int port)
      : SessionTransport(NameOf(host, port)), host_(std::move(host)), port_(port) {}
  ~FramedTcpTransport() override { Shutdown(); }

  absl::Status Send(v1::ClientMessage message) override {
    buffer_.assign(kFrameHeaderBytes, '\0');
    message.AppendToString(&buffer_);
    if (!WriteStreamFrame(*stream_, &buffer_).ok()) {
      return absl::UnavailableError(absl::StrCat("lost the connection to npud at ", name()));
    }
    return absl::OkStatus();
  }

  std::string BulkHost() const override { return host_; }

  std::string Describe() const override {
    return absl::StrCat(name(), ClientTlsRequested() ? " (framed, TLS)" : " (framed)");
  }

 private:
  absl::Status Open(absl::Duration timeout) override {
    absl::StatusOr<std::unique_ptr<ByteStream>> dialled = DialNpudPort(host_, port_, timeout);
    if (!dialled.ok()) {
      return absl::Status(
          dialled.status().code(),
          absl::StrCat(
              "cannot reach npud at ", name(), ": ", dialled.status().message(),
              ClientTlsRequested()
                  ? " (over TLS: check NPUD_TLS_CA, NPUD_TLS_CERT/KEY and the server's name)"
                  : ""));
    }
    stream_ = *std::move(dialled);
    return absl::OkStatus();
  }

  // The session header and the hello in one write.
  absl::Status WriteFirst(const v1::ClientMessage& first) override {
    const bulk::EncodedHeader header = bulk::EncodeHeader({bulk::FrameType::kSession, 0, 0, 0});
    std::string frame(kFrameHeaderBytes, '\0');
    first.AppendToString(&frame);
    SealFrame(&frame);
    const iovec pieces[2] = {Piece(header.data(), header.size()),
                             Piece(frame.data(), frame.size())};
    return stream_->WriteAll(pieces);
  }

  absl::Status Read(v1::ServerMessage* message, absl::Time deadline) override {
    if (deadline != absl::InfiniteFuture()) {
      stream_->SetReadTimeout(std::max(deadline - absl::Now(), absl::Milliseconds(1)));
    }
    NPUD_RETURN_IF_ERROR(ReadStreamFrame(*stream_, &payload_, kMaxFrameBytes));
    if (!message->ParseFromString(payload_)) {
      return absl::DataLossError("undecodable message from npud");
    }
    return absl::OkStatus();
  }

  void HelloAnswered() override { stream_->SetReadTimeout(absl::ZeroDuration()); }

  // npud sees the end and closes the session; the reader sees it too.
  void EndWriting() override { stream_->Shutdown(); }

  absl::Status HelloFailed(const absl::Status& read) const override {
    return absl::UnavailableError(
        absl::StrCat("npud at ", name(), " closed the session (", read.message(),
                     "); is this npud's own port (--bulk_listen), not its gRPC port?"));
  }

  const std::string host_;
  const int port_;
  std::unique_ptr<ByteStream> stream_;
  // Reused by sends (which callers serialize) and by the reader.
  std::string buffer_;
  std::string payload_;
};

}  // namespace

std::unique_ptr<Transport> MakeFramedTcpTransport(const std::string& host, int port) {
  return std::make_unique<FramedTcpTransport>(host, port);
}

}  // namespace npud::client

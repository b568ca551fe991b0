// The gRPC transport: one bidirectional Session stream and a reader thread.

#include <atomic>
#include <memory>
#include <string>
#include <thread>
#include <utility>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/synchronization/notification.h"
#include "absl/time/clock.h"
#include "client/transport/session_transport.h"
#include "common/daemon_address.h"
#include "common/grpc/grpc_tls.h"
#include "grpcpp/grpcpp.h"
#include "npud/v1/npud.grpc.pb.h"
#include "spdlog/spdlog.h"

namespace npud::client {
namespace {

constexpr int kMaxMessageBytes = 64 << 20;

absl::Status FromGrpc(const grpc::Status& status) {
  return absl::Status(static_cast<absl::StatusCode>(status.error_code()), status.error_message());
}

class GrpcTransport final : public SessionTransport {
 public:
  explicit GrpcTransport(std::string target) : SessionTransport(target), target_(target) {}
  ~GrpcTransport() override { Shutdown(); }

  absl::Status Send(v1::ClientMessage message) override {
    if (stream_ == nullptr || !stream_->Write(message)) {
      return absl::UnavailableError(absl::StrCat("lost the connection to npud at ", target_));
    }
    return absl::OkStatus();
  }

  std::string BulkHost() const override {
    absl::StatusOr<DaemonAddress> address = ParseDaemonAddress(target_);
    return address.ok() && address->kind == DaemonAddress::Kind::kTcp ? address->Host() : "";
  }

  std::string Describe() const override { return target_; }

 private:
  absl::Status Open(absl::Duration timeout) override {
    grpc::ChannelArguments args;
    args.SetMaxReceiveMessageSize(kMaxMessageBytes);
    args.SetMaxSendMessageSize(kMaxMessageBytes);
    // Fail fast when nothing listens instead of retrying for long.
    args.SetInt(GRPC_ARG_INITIAL_RECONNECT_BACKOFF_MS, 100);
    args.SetInt(GRPC_ARG_MAX_RECONNECT_BACKOFF_MS, 500);
    // See grpc_services.cc: bulk copies want large frames and windows.
    args.SetInt(GRPC_ARG_HTTP2_MAX_FRAME_SIZE, (1 << 24) - 1);
    args.SetInt(GRPC_ARG_HTTP2_STREAM_LOOKAHEAD_BYTES, 64 << 20);
    // TLS only for TCP: on a unix socket the kernel names the peer.
    std::shared_ptr<grpc::ChannelCredentials> credentials = grpc::InsecureChannelCredentials();
    if (!absl::StartsWith(target_, "unix:")) {
      absl::StatusOr<std::shared_ptr<grpc::ChannelCredentials>> tls =
          ClientCredentialsFromEnv(&args);
      if (!tls.ok()) return tls.status();
      credentials = *std::move(tls);
    }
    channel_ = grpc::CreateCustomChannel(target_, credentials, args);
    if (!channel_->WaitForConnected(absl::ToChronoTime(absl::Now() + timeout))) {
      return absl::UnavailableError(absl::StrCat(
          "no npud answers at ", target_, " within ", absl::FormatDuration(timeout),
          ClientTlsRequested() && !absl::StartsWith(target_, "unix:")
              ? " (over TLS: check NPUD_TLS_CA, NPUD_TLS_CERT/KEY and the server's name)"
              : ""));
    }
    stub_ = v1::Npud::NewStub(channel_);
    stream_ = stub_->Session(&context_);
    return absl::OkStatus();
  }

  // A write that fails shows in the stream's final status, which the read
  // of the reply returns.
  absl::Status WriteFirst(const v1::ClientMessage& first) override {
    stream_->Write(first);
    return absl::OkStatus();
  }

  absl::Status Read(v1::ServerMessage* message, absl::Time deadline) override {
    if (deadline == absl::InfiniteFuture()) {
      return stream_->Read(message) ? absl::OkStatus() : Finished();
    }
    // A connected peer that never answers the hello: cancel the stream (a
    // deadline on the context would end the whole session).
    absl::Notification answered;
    std::atomic<bool> timed_out{false};
    std::thread watchdog([&] {
      if (!answered.WaitForNotificationWithDeadline(deadline)) {
        timed_out = true;
        context_.TryCancel();
      }
    });
    const bool ok = stream_->Read(message);
    answered.Notify();
    watchdog.join();
    if (ok) return absl::OkStatus();
    if (timed_out) return absl::DeadlineExceededError("no reply to the hello");
    return Finished();
  }

  void EndWriting() override { stream_->WritesDone(); }

  // npud's reason when it ended the stream with one.
  absl::Status HelloFailed(const absl::Status& read) const override {
    return absl::IsOutOfRange(read) ? SessionTransport::HelloFailed(read) : read;
  }

  // How the stream ended: OutOfRange when npud closed it cleanly.
  absl::Status Finished() {
    const absl::Status status = FromGrpc(stream_->Finish());
    return status.ok() ? absl::OutOfRangeError("the session ended") : status;
  }

  const std::string target_;
  std::shared_ptr<grpc::Channel> channel_;
  std::unique_ptr<v1::Npud::Stub> stub_;
  grpc::ClientContext context_;
  std::unique_ptr<grpc::ClientReaderWriter<v1::ClientMessage, v1::ServerMessage>> stream_;
};

}  // namespace

std::unique_ptr<Transport> MakeGrpcTransport(const std::string& target) {
  return std::make_unique<GrpcTransport>(target);
}

}  // namespace npud::client

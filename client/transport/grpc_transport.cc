// The gRPC transport: one bidirectional Session stream and a reader thread.

#include <thread>
#include <utility>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/synchronization/mutex.h"
#include "absl/synchronization/notification.h"
#include "absl/time/clock.h"
#include "client/transport/transport.h"
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

class GrpcTransport final : public Transport {
 public:
  explicit GrpcTransport(std::string target) : target_(std::move(target)) {}
  ~GrpcTransport() override { Shutdown(); }

  absl::StatusOr<v1::HelloReply> Connect(const v1::Hello& hello,
                                         TransportReceiver* receiver) override {
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
    const absl::Duration timeout = ConnectTimeout();
    if (!channel_->WaitForConnected(absl::ToChronoTime(absl::Now() + timeout))) {
      return absl::UnavailableError(absl::StrCat(
          "no npud answers at ", target_, " within ", absl::FormatDuration(timeout),
          ClientTlsRequested() && !absl::StartsWith(target_, "unix:")
              ? " (over TLS: check NPUD_TLS_CA, NPUD_TLS_CERT/KEY and the server's name)"
              : ""));
    }
    stub_ = v1::Npud::NewStub(channel_);
    stream_ = stub_->Session(&context_);
    v1::ClientMessage first;
    *first.mutable_hello() = hello;
    v1::ServerMessage reply;
    // A connected peer that never answers the hello: cancel the stream (a
    // deadline on the context would end the whole session).
    absl::Notification answered;
    bool timed_out = false;
    std::thread watchdog([&] {
      if (!answered.WaitForNotificationWithTimeout(timeout)) {
        timed_out = true;
        context_.TryCancel();
      }
    });
    const bool ok = stream_->Write(first) && stream_->Read(&reply);
    answered.Notify();
    watchdog.join();
    if (!ok) {
      if (timed_out) {
        return absl::DeadlineExceededError(absl::StrCat("npud at ", target_,
                                                        " did not answer the hello within ",
                                                        absl::FormatDuration(timeout)));
      }
      absl::Status status = FromGrpc(stream_->Finish());
      if (status.ok()) status = absl::UnavailableError("npud closed the session");
      return status;
    }
    if (!reply.has_hello()) {
      return absl::InternalError("npud did not answer the hello with a hello");
    }
    receiver_ = receiver;
    reader_ = std::thread([this] { ReadLoop(); });
    return reply.hello();
  }

  absl::Status Send(v1::ClientMessage message) override {
    if (stream_ == nullptr || !stream_->Write(message)) {
      return absl::UnavailableError(absl::StrCat("lost the connection to npud at ", target_));
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
    stream_->WritesDone();
    if (reader_.joinable()) reader_.join();
  }

  std::string BulkHost() const override {
    absl::StatusOr<DaemonAddress> address = ParseDaemonAddress(target_);
    return address.ok() && address->kind == DaemonAddress::Kind::kTcp ? address->Host() : "";
  }

  std::string Describe() const override { return target_; }

 private:
  void ReadLoop() {
    v1::ServerMessage message;
    while (stream_->Read(&message)) {
      receiver_->OnMessage(std::move(message));
      message.Clear();
    }
    absl::Status status = FromGrpc(stream_->Finish());
    if (status.ok()) status = absl::UnavailableError("npud ended the session");
    receiver_->OnDisconnect(status);
  }

  const std::string target_;
  std::shared_ptr<grpc::Channel> channel_;
  std::unique_ptr<v1::Npud::Stub> stub_;
  grpc::ClientContext context_;
  std::unique_ptr<grpc::ClientReaderWriter<v1::ClientMessage, v1::ServerMessage>> stream_;
  TransportReceiver* receiver_ = nullptr;
  std::thread reader_;
  absl::Mutex mu_;
  bool shut_down_ ABSL_GUARDED_BY(mu_) = false;
};

}  // namespace

std::unique_ptr<Transport> MakeGrpcTransport(const std::string& target) {
  return std::make_unique<GrpcTransport>(target);
}

}  // namespace npud::client

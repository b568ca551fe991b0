#include "daemon/grpc_services.h"

#include <deque>
#include <thread>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/synchronization/mutex.h"
#include "common/unix_socket.h"
#include "daemon/daemon_core.h"
#include "grpcpp/grpcpp.h"
#include "grpcpp/health_check_service_interface.h"
#include "npud/v1/npud.grpc.pb.h"
#include "spdlog/spdlog.h"

namespace npud::daemon {
namespace {

// Large copies are chunked at 1 MiB and batches are flushed at a few MiB;
// the limit only guards against garbage.
constexpr int kMaxMessageBytes = 64 << 20;
constexpr int kHttp2FrameBytes = (1 << 24) - 1;  // The largest HTTP/2 allows.
constexpr int kHttp2WindowBytes = 64 << 20;

using SessionStream = grpc::ServerReaderWriter<v1::ServerMessage, v1::ClientMessage>;

// Queues a session's outgoing messages and writes them from one thread: a
// gRPC stream allows one writer, and replies come from many threads.
class StreamSink final : public MessageSink {
 public:
  explicit StreamSink(SessionStream* stream) : stream_(stream), writer_([this] { Loop(); }) {}
  ~StreamSink() override { Close(); }

  void Send(v1::ServerMessage message) override {
    absl::MutexLock lock(&mu_);
    if (closed_) return;
    queue_.push_back(std::move(message));
  }

  // Writes what is queued, then stops; later messages are dropped. After
  // Close() returns the stream is no longer touched.
  void Close() {
    {
      absl::MutexLock lock(&mu_);
      if (closed_) return;
      closed_ = true;
    }
    writer_.join();
  }

 private:
  void Loop() {
    while (true) {
      std::deque<v1::ServerMessage> batch;
      {
        absl::MutexLock lock(&mu_);
        auto ready = [this]()
                         ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) { return closed_ || !queue_.empty(); };
        mu_.Await(absl::Condition(&ready));
        if (queue_.empty()) return;
        batch.swap(queue_);
      }
      while (!batch.empty()) {
        // Hint gRPC to coalesce while more messages are waiting.
        grpc::WriteOptions options;
        if (batch.size() > 1) options.set_buffer_hint();
        if (!broken_ && !stream_->Write(batch.front(), options)) broken_ = true;
        batch.pop_front();
      }
    }
  }

  SessionStream* const stream_;
  absl::Mutex mu_;
  std::deque<v1::ServerMessage> queue_ ABSL_GUARDED_BY(mu_);
  bool closed_ ABSL_GUARDED_BY(mu_) = false;
  // Only touched by the writer thread.
  bool broken_ = false;
  std::thread writer_;
};

class NpudService final : public v1::Npud::Service {
 public:
  explicit NpudService(DaemonCore* core) : core_(core) {}

  grpc::Status Session(grpc::ServerContext* context, SessionStream* stream) override {
    v1::ClientMessage first;
    if (!stream->Read(&first)) return grpc::Status::OK;
    if (!first.has_hello()) {
      spdlog::warn("client {} did not start with a hello; closing", context->peer());
      return grpc::Status(grpc::StatusCode::INVALID_ARGUMENT, "the first message must be a hello");
    }
    auto sink = std::make_shared<StreamSink>(stream);
    auto opened = core_->OpenSession(first.hello(), sink);
    if (!opened.ok()) {
      sink->Close();
      return grpc::Status(static_cast<grpc::StatusCode>(opened.status().code()),
                          std::string(opened.status().message()));
    }
    std::shared_ptr<daemon::Session> session = std::move(opened->session);
    {
      v1::ServerMessage hello;
      *hello.mutable_hello() = std::move(opened->reply);
      sink->Send(std::move(hello));
    }
    v1::ClientMessage message;
    while (stream->Read(&message)) {
      if (message.has_batch()) {
        session->Process(message.mutable_batch());
      } else {
        spdlog::warn("session {}: unexpected message kind {}; ignored", session->id(),
                     static_cast<int>(message.kind_case()));
      }
    }
    // The client is gone (exit, crash or network loss): release everything.
    core_->CloseSession(session->id());
    session.reset();
    sink->Close();
    return grpc::Status::OK;
  }

 private:
  DaemonCore* const core_;
};

class AdminService final : public v1::Admin::Service {
 public:
  explicit AdminService(DaemonCore* core) : core_(core) {}

  grpc::Status ListDevices(grpc::ServerContext*, const v1::ListDevicesRequest*,
                           v1::ListDevicesReply* reply) override {
    *reply = core_->ListDevices();
    return grpc::Status::OK;
  }
  grpc::Status ListSessions(grpc::ServerContext*, const v1::ListSessionsRequest*,
                            v1::ListSessionsReply* reply) override {
    *reply = core_->ListSessions();
    return grpc::Status::OK;
  }

 private:
  DaemonCore* const core_;
};

}  // namespace

// grpc::Server only borrows its services; they live here, next to it.
struct GrpcServer::Impl {
  explicit Impl(DaemonCore* core) : npud(core), admin(core) {}
  NpudService npud;
  AdminService admin;
  std::unique_ptr<grpc::Server> server;
  absl::Mutex mu;
  bool shut_down ABSL_GUARDED_BY(mu) = false;
};

absl::StatusOr<std::unique_ptr<GrpcServer>> GrpcServer::Start(
    DaemonCore* core, const std::vector<DaemonAddress>& listen) {
  grpc::EnableDefaultHealthCheckService(true);
  auto impl = std::make_unique<Impl>(core);
  std::vector<int> ports(listen.size(), 0);

  grpc::ServerBuilder builder;
  builder.SetMaxReceiveMessageSize(kMaxMessageBytes);
  // Bulk copies travel as 1 MiB messages: large HTTP/2 frames and windows
  // keep them from being cut into 16 KiB pieces and stalled on flow control.
  builder.AddChannelArgument(GRPC_ARG_HTTP2_MAX_FRAME_SIZE, kHttp2FrameBytes);
  builder.AddChannelArgument(GRPC_ARG_HTTP2_STREAM_LOOKAHEAD_BYTES, kHttp2WindowBytes);
  builder.SetMaxSendMessageSize(kMaxMessageBytes);
  for (size_t i = 0; i < listen.size(); ++i) {
    const DaemonAddress& address = listen[i];
    if (address.kind == DaemonAddress::Kind::kUnix) {
      if (absl::Status s = RemoveStaleUnixSocket(address.target); !s.ok()) return s;
      builder.AddListeningPort(address.GrpcTarget(), grpc::InsecureServerCredentials());
    } else {
      builder.AddListeningPort(address.GrpcTarget(), grpc::InsecureServerCredentials(), &ports[i]);
    }
  }
  builder.RegisterService(&impl->npud);
  builder.RegisterService(&impl->admin);
  impl->server = builder.BuildAndStart();
  if (impl->server == nullptr) {
    std::vector<std::string> names;
    for (const DaemonAddress& address : listen) names.push_back(address.ToString());
    return absl::UnavailableError(absl::StrCat("cannot listen on ", absl::StrJoin(names, ", ")));
  }
  for (size_t i = 0; i < listen.size(); ++i) {
    if (listen[i].kind == DaemonAddress::Kind::kTcp && ports[i] == 0) {
      return absl::UnavailableError(absl::StrCat("cannot listen on ", listen[i].ToString()));
    }
  }
  auto server = std::unique_ptr<GrpcServer>(new GrpcServer(std::move(impl)));
  server->bound_ports_ = std::move(ports);
  return server;
}

GrpcServer::GrpcServer(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}

GrpcServer::~GrpcServer() { Shutdown(absl::Seconds(1)); }

void GrpcServer::Shutdown(absl::Duration grace) {
  {
    absl::MutexLock lock(&impl_->mu);
    if (impl_->shut_down) return;
    impl_->shut_down = true;
  }
  impl_->server->Shutdown(absl::ToChronoTime(absl::Now() + grace));
  impl_->server->Wait();
}

}  // namespace npud::daemon

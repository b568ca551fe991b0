#include "daemon/grpc_services.h"

#include <unistd.h>

#include <algorithm>
#include <deque>
#include <functional>
#include <optional>
#include <thread>
#include <utility>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/synchronization/mutex.h"
#include "common/constant_time.h"
#include "common/unix_socket.h"
#include "common/wire_constants.h"
#include "daemon/connection_limits.h"
#include "daemon/daemon_core.h"
#include "daemon/delayed_executor.h"
#include "daemon/grpc_unix_acceptor.h"
#include "daemon/send_budget.h"
#include "daemon/session_endpoint.h"
#include "grpcpp/grpcpp.h"
#include "grpcpp/health_check_service_interface.h"
#include "grpcpp/resource_quota.h"
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
// gRPC stream allows one writer, and replies come from many threads. The
// queue is bounded (MessageSink): past the hard limit the call is cancelled.
class StreamSink final : public BudgetedSink {
 public:
  StreamSink(grpc::ServerContext* context, SessionStream* stream)
      : context_(context), stream_(stream), writer_([this] { Loop(); }) {}
  ~StreamSink() override { Close(); }

  void Send(v1::ServerMessage message) override {
    const size_t bytes = message.ByteSizeLong();
    {
      absl::MutexLock lock(&mu_);
      if (closed_ || broken_) return;
      if (budget_.Add(bytes)) {
        queue_.push_back(Queued{std::move(message), bytes});
        return;
      }
      spdlog::error("client {} does not read its replies ({} MiB unread); disconnecting",
                    context_->peer(), budget_.unread() >> 20);
      broken_ = true;
      queue_.clear();
    }
    context_->TryCancel();
    budget_.End();
  }

  void Disconnect() override {
    // Under mu_: once Close() has run, the call (and context_) may be gone.
    absl::MutexLock lock(&mu_);
    if (!closed_) context_->TryCancel();
  }

  // Writes what is queued, then stops; later messages are dropped. After
  // Close() returns the stream is no longer touched.
  void Close() {
    {
      absl::MutexLock lock(&mu_);
      if (closed_) return;
      closed_ = true;
    }
    budget_.End();
    writer_.join();
  }

 private:
  struct Queued {
    v1::ServerMessage message;
    size_t bytes;
  };

  void Loop() {
    while (true) {
      std::deque<Queued> batch;
      {
        absl::MutexLock lock(&mu_);
        auto ready = [this]()
                         ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) { return closed_ || !queue_.empty(); };
        mu_.Await(absl::Condition(&ready));
        if (queue_.empty()) return;
        batch.swap(queue_);
      }
      for (; !batch.empty(); batch.pop_front()) {
        // Hint gRPC to coalesce while more messages are waiting.
        grpc::WriteOptions options;
        if (batch.size() > 1) options.set_buffer_hint();
        if (!stream_->Write(batch.front().message, options)) {
          {
            absl::MutexLock lock(&mu_);
            broken_ = true;
          }
          budget_.End();
          break;
        }
        budget_.Remove(batch.front().bytes);  // wakes parked reads
      }
    }
  }

  grpc::ServerContext* const context_;
  SessionStream* const stream_;
  absl::Mutex mu_;
  std::deque<Queued> queue_ ABSL_GUARDED_BY(mu_);
  bool closed_ ABSL_GUARDED_BY(mu_) = false;
  bool broken_ ABSL_GUARDED_BY(mu_) = false;
  std::thread writer_;
};

// Whether a Session call has said hello in time. The timer that checks it
// may fire after the call has returned, so it cancels only a live call.
struct HelloWatch {
  absl::Mutex mu;
  bool hello ABSL_GUARDED_BY(mu) = false;
  bool finished ABSL_GUARDED_BY(mu) = false;
};

// The client's messages, as they arrive on the stream.
class StreamSource final : public ClientMessageSource {
 public:
  StreamSource(SessionStream* stream, std::shared_ptr<HelloWatch> watch)
      : stream_(stream), watch_(std::move(watch)) {}
  absl::Status Next(v1::ClientMessage* message, std::vector<int>* fds) override {
    fds->clear();
    if (!stream_->Read(message)) return absl::OutOfRangeError("end of stream");
    absl::MutexLock lock(&watch_->mu);
    watch_->hello = true;
    return absl::OkStatus();
  }

 private:
  SessionStream* const stream_;
  const std::shared_ptr<HelloWatch> watch_;
};

// Whether a call came over a unix socket: gRPC's own listener names such
// peers "unix:...", connections GrpcUnixAcceptor handed over "fd:N".
bool IsUnixPeer(const std::string& peer) {
  return absl::StartsWith(peer, "unix:") || absl::StartsWith(peer, "fd:");
}

// The peer a Session counts against: the remote address without its port
// ("ipv4:10.0.0.7", "ipv6:[::1]"), or on a unix socket the peer's uid, as
// the acceptor recorded it (as the local protocol counts).
std::string PeerKey(const std::string& peer, const GrpcUnixPeers& unix_peers) {
  if (IsUnixPeer(peer)) {
    const std::optional<uint32_t> uid = unix_peers.UidOf(peer);
    return uid ? absl::StrCat("uid ", *uid, " on a unix socket") : "gRPC on a unix socket";
  }
  const size_t colon = peer.rfind(':');
  return colon == std::string::npos || colon < peer.find(':') + 1 ? peer : peer.substr(0, colon);
}

class NpudService final : public v1::Npud::Service {
 public:
  NpudService(DaemonCore* core, const GrpcServer::Options& options, const GrpcUnixPeers* unix_peers)
      : core_(core),
        unix_peers_(unix_peers),
        hello_timeout_(options.hello_timeout),
        limits_(options.max_sessions, options.max_sessions_per_peer) {}

  grpc::Status Session(grpc::ServerContext* context, SessionStream* stream) override {
    absl::StatusOr<std::unique_ptr<ConnectionLimits::Admission>> admission =
        limits_.Admit(PeerKey(context->peer(), *unix_peers_));
    if (!admission.ok()) {
      spdlog::warn("gRPC client {} refused: {}", context->peer(),
                   std::string(admission.status().message()));
      return grpc::Status(grpc::StatusCode::RESOURCE_EXHAUSTED,
                          std::string(admission.status().message()));
    }
    // A stream that says nothing costs a server thread: end it after the
    // hello timeout, as the local protocol does.
    auto watch = std::make_shared<HelloWatch>();
    timers_.RunAfter(hello_timeout_, [watch, context, peer = context->peer()] {
      absl::MutexLock lock(&watch->mu);
      if (watch->hello || watch->finished) return;
      spdlog::warn("gRPC client {} sent no hello within the hello timeout; cancelled", peer);
      context->TryCancel();
    });
    auto sink = std::make_shared<StreamSink>(context, stream);
    StreamSource source(stream, watch);
    const bool remote = !IsUnixPeer(context->peer());
    const absl::Status served = ServeSession(core_, source, sink, std::nullopt, remote);
    {
      absl::MutexLock lock(&watch->mu);
      watch->finished = true;
    }
    sink->Close();
    if (!served.ok()) {
      spdlog::warn("client {} refused: {}", context->peer(), served.ToString());
      return grpc::Status(static_cast<grpc::StatusCode>(served.code()),
                          std::string(served.message()));
    }
    return grpc::Status::OK;
  }

 private:
  DaemonCore* const core_;
  const GrpcUnixPeers* const unix_peers_;
  const absl::Duration hello_timeout_;
  ConnectionLimits limits_;
  DelayedExecutor timers_;
};

class AdminService final : public v1::Admin::Service {
 public:
  AdminService(DaemonCore* core, std::string token, const GrpcUnixPeers* unix_peers)
      : core_(core), token_(std::move(token)), unix_peers_(unix_peers) {}

  grpc::Status ListDevices(grpc::ServerContext* context, const v1::ListDevicesRequest*,
                           v1::ListDevicesReply* reply) override {
    if (grpc::Status allowed = Authorize(*context); !allowed.ok()) return allowed;
    *reply = core_->ListDevices();
    return grpc::Status::OK;
  }
  grpc::Status ListSessions(grpc::ServerContext* context, const v1::ListSessionsRequest*,
                            v1::ListSessionsReply* reply) override {
    if (grpc::Status allowed = Authorize(*context); !allowed.ok()) return allowed;
    *reply = core_->ListSessions();
    return grpc::Status::OK;
  }
  grpc::Status KillSession(grpc::ServerContext* context, const v1::KillSessionRequest* request,
                           v1::KillSessionReply*) override {
    if (grpc::Status allowed = Authorize(*context); !allowed.ok()) return allowed;
    if (absl::Status killed = core_->KillSession(request->session_id(), context->peer());
        !killed.ok()) {
      return grpc::Status(grpc::StatusCode::NOT_FOUND, std::string(killed.message()));
    }
    return grpc::Status::OK;
  }
  grpc::Status TraceSession(grpc::ServerContext* context, const v1::TraceSessionRequest* request,
                            v1::TraceResult* reply) override {
    if (grpc::Status allowed = Authorize(*context); !allowed.ok()) return allowed;
    auto trace =
        core_->TraceSession(request->session_id(), absl::Milliseconds(request->duration_ms()),
                            request->blocks(), [context] { return context->IsCancelled(); });
    if (!trace.ok())
      return grpc::Status(grpc::StatusCode::NOT_FOUND, std::string(trace.status().message()));
    *reply = *std::move(trace);
    return grpc::Status::OK;
  }

 private:
  grpc::Status Authorize(const grpc::ServerContext& context) const {
    if (token_.empty()) {
      // Without a token, the kernel's word on the peer is all there is: the
      // sessions of every user are not every user's to list and kill.
      const std::optional<uint32_t> uid = unix_peers_->UidOf(context.peer());
      if (uid && (*uid == geteuid() || *uid == 0)) return grpc::Status::OK;
      if (uid) {
        spdlog::warn(
            "admin call from uid {} refused: without --admin_token_file only npud's "
            "own uid ({}) and root may use the Admin service",
            *uid, geteuid());
        return grpc::Status(grpc::StatusCode::PERMISSION_DENIED,
                            absl::StrCat("npud's Admin service answers uid ", geteuid(),
                                         " and root only (npud has no --admin_token_file)"));
      }
      spdlog::warn("admin call from {} refused: npud has no --admin_token_file", context.peer());
      return grpc::Status(grpc::StatusCode::UNAUTHENTICATED,
                          "the Admin service answers TCP peers only when npud runs with "
                          "--admin_token_file");
    }
    const auto& metadata = context.client_metadata();
    const auto it = metadata.find(kAdminTokenKey);
    if (it == metadata.end() ||
        !ConstantTimeEquals(absl::string_view(it->second.data(), it->second.size()), token_)) {
      spdlog::warn("admin call from {} refused: {} admin token", context.peer(),
                   it == metadata.end() ? "no" : "a wrong");
      return grpc::Status(grpc::StatusCode::UNAUTHENTICATED,
                          "invalid npud admin token (NPUD_ADMIN_TOKEN / NPUD_ADMIN_TOKEN_FILE)");
    }
    return grpc::Status::OK;
  }

  DaemonCore* const core_;
  const std::string token_;
  const GrpcUnixPeers* const unix_peers_;
};

}  // namespace

// grpc::Server only borrows its services; they live here, next to it.
struct GrpcServer::Impl {
  Impl(DaemonCore* core, const GrpcServer::Options& options)
      : npud(core, options, &unix_peers), admin(core, options.admin_token, &unix_peers) {}
  // Declared first: the services read it.
  GrpcUnixPeers unix_peers;
  NpudService npud;
  AdminService admin;
  std::unique_ptr<grpc::Server> server;
  // The unix sockets npud accepts on itself (GrpcUnixAcceptor), stopped
  // before the server.
  std::vector<std::unique_ptr<GrpcUnixAcceptor>> unix_acceptors;
  absl::Mutex mu;
  bool shut_down ABSL_GUARDED_BY(mu) = false;
};

absl::StatusOr<std::unique_ptr<GrpcServer>> GrpcServer::Start(
    DaemonCore* core, const std::vector<DaemonAddress>& listen, const Options& options) {
  grpc::EnableDefaultHealthCheckService(true);
  auto impl = std::make_unique<Impl>(core, options);
  std::vector<int> ports(listen.size(), 0);

  grpc::ServerBuilder builder;
  // What gRPC may hold for all peers together, authenticated or not: buffer
  // memory and server threads (each session holds one). Past either, new
  // calls are refused with RESOURCE_EXHAUSTED instead of npud growing.
  grpc::ResourceQuota quota("npud");
  quota.Resize(options.memory_bytes);
  quota.SetMaxThreads(options.max_threads);
  builder.SetResourceQuota(quota);
  // A client uses one Session stream (plus the odd Admin call).
  builder.AddChannelArgument(GRPC_ARG_MAX_CONCURRENT_STREAMS, 8);
  // Connections that never finish the HTTP/2 handshake, or hold no call
  // (a client holds its Session for its lifetime), are closed as soon as a
  // local-protocol connection without a hello would be.
  const int hello_ms = static_cast<int>(absl::ToInt64Milliseconds(options.hello_timeout));
  builder.AddChannelArgument(GRPC_ARG_SERVER_HANDSHAKE_TIMEOUT_MS, hello_ms);
  builder.AddChannelArgument(GRPC_ARG_MAX_CONNECTION_IDLE_MS, hello_ms);
  builder.SetMaxReceiveMessageSize(kMaxMessageBytes);
  // Bulk copies travel as 1 MiB messages: large HTTP/2 frames and windows
  // keep them from being cut into 16 KiB pieces and stalled on flow control.
  builder.AddChannelArgument(GRPC_ARG_HTTP2_MAX_FRAME_SIZE, kHttp2FrameBytes);
  builder.AddChannelArgument(GRPC_ARG_HTTP2_STREAM_LOOKAHEAD_BYTES, kHttp2WindowBytes);
  builder.SetMaxSendMessageSize(kMaxMessageBytes);
  std::vector<std::string> unix_paths;
  for (size_t i = 0; i < listen.size(); ++i) {
    const DaemonAddress& address = listen[i];
    if (address.kind == DaemonAddress::Kind::kUnix) {
      if (absl::Status s = RemoveStaleUnixSocket(address.target); !s.ok()) return s;
      unix_paths.push_back(address.target);
      continue;  // a GrpcUnixAcceptor's, below
    }
    // Tokens and device memory must not cross a network in clear.
    if (!options.tls.enabled() && !IsLoopbackListenAddress(address.target)) {
      if (!options.allow_insecure_tcp) {
        return absl::FailedPreconditionError(
            absl::StrCat("refusing to listen on ", address.ToString(),
                         " without TLS: give --tls_cert and --tls_key, or --allow_insecure_tcp"));
      }
      spdlog::warn(
          "listening on {} WITHOUT TLS (--allow_insecure_tcp): tokens and data travel "
          "in clear",
          address.ToString());
    }
    builder.AddListeningPort(address.GrpcTarget(), ServerCredentials(options.tls), &ports[i]);
  }
  if (options.tls.enabled()) {
    spdlog::info("TCP listeners use TLS{}",
                 options.tls.client_ca.empty() ? "" : " and require client certificates");
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
  for (const std::string& path : unix_paths) {
    absl::StatusOr<std::unique_ptr<GrpcUnixAcceptor>> acceptor =
        GrpcUnixAcceptor::Start(impl->server.get(), path, options.unix_access, &impl->unix_peers);
    if (!acceptor.ok()) return acceptor.status();
    impl->unix_acceptors.push_back(*std::move(acceptor));
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
  impl_->unix_acceptors.clear();
  impl_->server->Shutdown(absl::ToChronoTime(absl::Now() + grace));
  impl_->server->Wait();
}

}  // namespace npud::daemon

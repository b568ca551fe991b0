#include "daemon/tcp_server.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "common/bulk_frame.h"
#include "common/frame_io.h"
#include "common/status_macros.h"
#include "common/stream_frame.h"
#include "daemon/daemon_core.h"
#include "daemon/frame_guard.h"
#include "daemon/framed_sink.h"
#include "daemon/local_server.h"
#include "daemon/session/bulk_link.h"
#include "daemon/session_endpoint.h"
#include "npud/v1/npud.pb.h"
#include "spdlog/spdlog.h"

namespace npud::daemon {
namespace {

// "ipv4:10.0.0.7" / "ipv6:[::1]", as gRPC names peers (ConnectionLimits key).
std::string PeerName(const sockaddr_storage& address) {
  char text[INET6_ADDRSTRLEN] = "?";
  if (address.ss_family == AF_INET6) {
    inet_ntop(AF_INET6, &reinterpret_cast<const sockaddr_in6*>(&address)->sin6_addr, text,
              sizeof(text));
    return absl::StrCat("ipv6:[", text, "]");
  }
  inet_ntop(AF_INET, &reinterpret_cast<const sockaddr_in*>(&address)->sin_addr, text, sizeof(text));
  return absl::StrCat("ipv4:", text);
}

}  // namespace

absl::StatusOr<std::unique_ptr<TcpServer>> TcpServer::Start(DaemonCore* core,
                                                            const Options& options) {
  int port = 0;
  NPUD_ASSIGN_OR_RETURN(UniqueFd listener, ListenTcp(options.host, options.port, &port));
  auto server = std::unique_ptr<TcpServer>(new TcpServer(core, options, std::move(listener), port));
  core->set_bulk_port(port);
  spdlog::info("bulk channels and framed sessions on {}:{}{}", options.host, port,
               options.tls != nullptr ? " (TLS)" : "");
  return server;
}

TcpServer::TcpServer(DaemonCore* core, const Options& options, UniqueFd listener, int port)
    : core_(core),
      options_(options),
      listener_(std::move(listener)),
      port_(port),
      limits_(options.max_connections, options.max_connections_per_peer),
      acceptor_([this] { AcceptLoop(); }) {}

TcpServer::~TcpServer() { Shutdown(); }

void TcpServer::AcceptLoop() {
  Connections& c = *connections_;
  while (true) {
    sockaddr_storage address{};
    socklen_t length = sizeof(address);
    const int fd =
        accept4(listener_.get(), reinterpret_cast<sockaddr*>(&address), &length, SOCK_CLOEXEC);
    if (fd < 0) {
      if (errno == EINTR || errno == ECONNABORTED) continue;
      absl::MutexLock lock(&c.mu);
      if (c.shut_down) return;
      // Out of descriptors or memory: wait a moment instead of spinning.
      spdlog::warn("bulk channel accept: {}", std::strerror(errno));
      c.mu.AwaitWithTimeout(absl::Condition(&c.shut_down), absl::Milliseconds(100));
      continue;
    }
    const int one = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
    std::shared_ptr<ByteStream> stream = options_.tls != nullptr
                                             ? MakeTlsServerStream(UniqueFd(fd), options_.tls)
                                             : MakeSocketStream(UniqueFd(fd));
    {
      absl::MutexLock lock(&c.mu);
      if (c.shut_down) return;
      c.streams.insert(stream);
    }
    std::thread([this, connections = connections_, stream, peer = PeerName(address)] {
      Serve(stream, peer);
      absl::MutexLock lock(&connections->mu);
      connections->streams.erase(stream);
    }).detach();
  }
}

void TcpServer::Serve(const std::shared_ptr<ByteStream>& stream, const std::string& peer) {
  absl::StatusOr<std::unique_ptr<ConnectionLimits::Admission>> admission = limits_.Admit(peer);
  if (!admission.ok()) {
    spdlog::warn("TCP connection from {} refused: {}", peer, admission.status().ToString());
    return;
  }
  // The hello's deadline: whichever of the timer and the connection comes
  // first decides; a late hello finds its stream shut down. A silent peer
  // meets the receive timeout first and is told why (the stream is still
  // whole then); the timer, a little later, ends peers that trickle.
  enum : int { kWaiting, kIn, kLate };
  auto hello = std::make_shared<std::atomic<int>>(kWaiting);
  deadlines_.RunAfter(options_.hello_timeout + absl::Milliseconds(500),
                      [hello, weak = std::weak_ptr<ByteStream>(stream)] {
                        int waiting = kWaiting;
                        if (!hello->compare_exchange_strong(waiting, kLate)) return;
                        if (std::shared_ptr<ByteStream> late = weak.lock()) late->Shutdown();
                      });
  const std::function<bool()> hello_in = [hello] {
    int waiting = kWaiting;
    return hello->compare_exchange_strong(waiting, kIn);
  };
  stream->SetReadTimeout(options_.hello_timeout);
  absl::StatusOr<bulk::FrameHeader> first = bulk::ReadHeader(*stream);
  absl::Status served = first.status();
  const char* what = "TCP connection";
  if (first.ok() && first->type == bulk::FrameType::kSession) {
    what = "framed session";
    served = ServeSession(stream, peer, hello_in);
  } else if (first.ok()) {
    what = "bulk channel";
    served = ServeBulk(*first, stream, peer, hello_in);
  }
  if (!served.ok() && hello->load() == kLate) {
    served = absl::DeadlineExceededError(
        absl::StrCat("no hello within ", absl::FormatDuration(options_.hello_timeout)));
  }
  if (!served.ok() && !absl::IsOutOfRange(served)) {
    spdlog::warn("{} from {} refused: {}", what, peer, served.ToString());
  }
}

absl::Status TcpServer::ServeBulk(const bulk::FrameHeader& hello,
                                  const std::shared_ptr<ByteStream>& stream,
                                  const std::string& peer, const std::function<bool()>& hello_in) {
  if (hello.type != bulk::FrameType::kHello || hello.length != bulk::kKeyBytes) {
    return absl::InvalidArgumentError(
        "the first frame must be a bulk hello with the session's key or a session header");
  }
  std::string key(bulk::kKeyBytes, '\0');
  NPUD_RETURN_IF_ERROR(stream->ReadFully(key.data(), key.size()));
  if (!hello_in()) return absl::DeadlineExceededError("no hello in time");
  NPUD_ASSIGN_OR_RETURN(std::shared_ptr<BulkLink> link, core_->FindBulkLink(hello.transfer));
  NPUD_RETURN_IF_ERROR(link->Attach(key, stream));
  stream->SetReadTimeout(absl::ZeroDuration());
  spdlog::debug("session {}: bulk channel from {}", hello.transfer, peer);
  link->ServeReads();
  return absl::OkStatus();
}

namespace {

// A framed session's client messages: its hello, then frames.
class StreamFrameSource final : public ClientMessageSource {
 public:
  // `deadlines` times large frames (FrameGuard).
  StreamFrameSource(const std::shared_ptr<ByteStream>& stream, v1::ClientMessage hello,
                    DelayedExecutor* deadlines, absl::Duration hello_timeout)
      : stream_(stream.get()),
        guard_(deadlines, hello_timeout,
               [weak = std::weak_ptr<ByteStream>(stream)] {
                 if (std::shared_ptr<ByteStream> stream = weak.lock()) stream->Shutdown();
               }),
        hello_(std::move(hello)) {}
  absl::Status Next(v1::ClientMessage* message, std::vector<int>* fds) override {
    fds->clear();
    if (hello_.has_value()) {
      *message = *std::move(hello_);
      hello_.reset();
      return absl::OkStatus();
    }
    const absl::Status read = ReadStreamFrame(*stream_, &payload_, kMaxFrameBytes, &guard_);
    const bool parsed = read.ok() && message->ParseFromString(payload_);
    guard_.FrameDone(&payload_);
    NPUD_RETURN_IF_ERROR(read);
    if (!parsed) return absl::DataLossError("undecodable message");
    return absl::OkStatus();
  }
  void ChargeTo(std::shared_ptr<MemoryQuota> quota) override { guard_.ChargeTo(std::move(quota)); }

 private:
  ByteStream* const stream_;
  FrameGuard guard_;
  std::optional<v1::ClientMessage> hello_;
  std::string payload_;
};

void SendTcpRefusal(MessageSink& sink, const absl::Status& why) {
  v1::ServerMessage refused;
  refused.mutable_refused()->set_code(static_cast<int>(why.code()));
  refused.mutable_refused()->set_message(std::string(why.message()));
  sink.Send(std::move(refused));
}

}  // namespace

absl::Status TcpServer::ServeSession(const std::shared_ptr<ByteStream>& stream,
                                     const std::string& peer,
                                     const std::function<bool()>& hello_in) {
  auto sink = std::make_shared<FramedSink>(stream);
  std::string payload;
  v1::ClientMessage hello;
  absl::Status read = ReadStreamFrame(*stream, &payload, LocalServer::kMaxHelloBytes);
  if (read.ok() && (!hello.ParseFromString(payload) || !hello.has_hello())) {
    read = absl::InvalidArgumentError("the first message must be a hello");
  }
  if (read.ok() && !hello_in()) read = absl::DeadlineExceededError("no hello in time");
  if (!read.ok()) {
    if (absl::IsDeadlineExceeded(read)) read = absl::DeadlineExceededError("no hello in time");
    SendTcpRefusal(*sink, read);
    sink->Close();
    return read;
  }
  stream->SetReadTimeout(absl::ZeroDuration());
  StreamFrameSource source(stream, std::move(hello), &deadlines_, options_.hello_timeout);
  const absl::Status served =
      daemon::ServeSession(core_, source, sink, std::nullopt, /*remote=*/true);
  if (!served.ok()) SendTcpRefusal(*sink, served);
  sink->Close();
  spdlog::debug("framed session from {} ended", peer);
  return served;
}

void TcpServer::Shutdown() {
  Connections& c = *connections_;
  {
    absl::MutexLock lock(&c.mu);
    if (c.shut_down) return;
    c.shut_down = true;
    for (const auto& stream : c.streams) stream->Shutdown();
  }
  shutdown(listener_.get(), SHUT_RDWR);
  if (acceptor_.joinable()) acceptor_.join();
  absl::MutexLock lock(&c.mu);
  auto idle = [&c]() ABSL_EXCLUSIVE_LOCKS_REQUIRED(c.mu) { return c.streams.empty(); };
  c.mu.Await(absl::Condition(&idle));
}

}  // namespace npud::daemon

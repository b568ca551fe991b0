#include "daemon/bulk_server.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>

#include <cerrno>
#include <cstring>
#include <utility>

#include "absl/strings/str_cat.h"
#include "common/bulk_frame.h"
#include "common/status_macros.h"
#include "daemon/daemon_core.h"
#include "daemon/session/bulk_link.h"
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

absl::StatusOr<std::unique_ptr<BulkServer>> BulkServer::Start(DaemonCore* core,
                                                              const Options& options) {
  int port = 0;
  NPUD_ASSIGN_OR_RETURN(UniqueFd listener, ListenTcp(options.host, options.port, &port));
  auto server =
      std::unique_ptr<BulkServer>(new BulkServer(core, options, std::move(listener), port));
  core->set_bulk_port(port);
  spdlog::info("bulk channel on {}:{}{}", options.host, port,
               options.tls != nullptr ? " (TLS)" : "");
  return server;
}

BulkServer::BulkServer(DaemonCore* core, const Options& options, UniqueFd listener, int port)
    : core_(core),
      options_(options),
      listener_(std::move(listener)),
      port_(port),
      limits_(options.max_connections, options.max_connections_per_peer),
      acceptor_([this] { AcceptLoop(); }) {}

BulkServer::~BulkServer() { Shutdown(); }

void BulkServer::AcceptLoop() {
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

void BulkServer::Serve(const std::shared_ptr<ByteStream>& stream, const std::string& peer) {
  absl::StatusOr<std::unique_ptr<ConnectionLimits::Admission>> admission = limits_.Admit(peer);
  if (!admission.ok()) {
    spdlog::warn("bulk channel from {} refused: {}", peer, admission.status().ToString());
    return;
  }
  if (absl::Status welcomed = Welcome(stream, peer); !welcomed.ok()) {
    spdlog::warn("bulk channel from {} refused: {}", peer, welcomed.ToString());
  }
}

absl::Status BulkServer::Welcome(const std::shared_ptr<ByteStream>& stream,
                                 const std::string& peer) {
  stream->SetReadTimeout(options_.hello_timeout);
  NPUD_ASSIGN_OR_RETURN(const bulk::FrameHeader hello, bulk::ReadHeader(*stream));
  if (hello.type != bulk::FrameType::kHello || hello.length != bulk::kKeyBytes) {
    return absl::InvalidArgumentError("the first frame must be a hello with the session's key");
  }
  std::string key(bulk::kKeyBytes, '\0');
  NPUD_RETURN_IF_ERROR(stream->ReadFully(key.data(), key.size()));
  NPUD_ASSIGN_OR_RETURN(std::shared_ptr<BulkLink> link, core_->FindBulkLink(hello.transfer));
  NPUD_RETURN_IF_ERROR(link->Attach(key, stream));
  stream->SetReadTimeout(absl::ZeroDuration());
  spdlog::debug("session {}: bulk channel from {}", hello.transfer, peer);
  link->ServeReads();
  return absl::OkStatus();
}

void BulkServer::Shutdown() {
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

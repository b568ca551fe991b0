#include "daemon/grpc_unix_acceptor.h"

#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <utility>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/time/clock.h"
#include "common/status_macros.h"
#include "common/unix_socket.h"
#include "grpcpp/server.h"
#include "grpcpp/server_posix.h"
#include "spdlog/spdlog.h"

namespace npud::daemon {

void GrpcUnixPeers::Record(int fd, uint32_t uid) {
  absl::MutexLock lock(&mu_);
  uids_[fd] = uid;
}

std::optional<uint32_t> GrpcUnixPeers::UidOf(const std::string& grpc_peer) const {
  int fd = -1;
  if (!absl::StartsWith(grpc_peer, "fd:") || !absl::SimpleAtoi(grpc_peer.substr(3), &fd)) {
    return std::nullopt;
  }
  absl::MutexLock lock(&mu_);
  const auto it = uids_.find(fd);
  if (it == uids_.end()) return std::nullopt;
  return it->second;
}

absl::StatusOr<std::unique_ptr<GrpcUnixAcceptor>> GrpcUnixAcceptor::Start(grpc::Server* server,
                                                                          const std::string& path,
                                                                          const UnixAccess& access,
                                                                          GrpcUnixPeers* peers) {
  NPUD_ASSIGN_OR_RETURN(UniqueFd listener, ListenUnixSocket(path, /*backlog=*/256));
  NPUD_RETURN_IF_ERROR(access.ApplyTo(path));
  return std::unique_ptr<GrpcUnixAcceptor>(
      new GrpcUnixAcceptor(server, path, access, peers, std::move(listener)));
}

GrpcUnixAcceptor::GrpcUnixAcceptor(grpc::Server* server, std::string path, UnixAccess access,
                                   GrpcUnixPeers* peers, UniqueFd listener)
    : server_(server),
      peers_(peers),
      path_(std::move(path)),
      access_(std::move(access)),
      listener_(std::move(listener)),
      acceptor_([this] { AcceptLoop(); }) {}

GrpcUnixAcceptor::~GrpcUnixAcceptor() {
  shutdown(listener_.get(), SHUT_RDWR);  // ends the blocked accept
  acceptor_.join();
  unlink(path_.c_str());
}

void GrpcUnixAcceptor::AcceptLoop() {
  absl::Time last_log = absl::InfinitePast();
  while (true) {
    UniqueFd socket(accept4(listener_.get(), nullptr, nullptr, SOCK_CLOEXEC | SOCK_NONBLOCK));
    if (!socket.valid()) {
      if (errno == EINTR || errno == ECONNABORTED) continue;
      if (errno == EMFILE || errno == ENFILE || errno == ENOBUFS || errno == ENOMEM) {
        absl::SleepFor(absl::Milliseconds(100));  // out of descriptors: wait, do not spin
        continue;
      }
      return;  // shut down
    }
    ucred peer{};
    socklen_t size = sizeof(peer);
    if (getsockopt(socket.get(), SOL_SOCKET, SO_PEERCRED, &peer, &size) != 0) continue;
    if (absl::Status admitted = access_.Admit(peer.uid); !admitted.ok()) {
      // Floods must not flood the log.
      if (absl::Now() - last_log >= absl::Seconds(1)) {
        last_log = absl::Now();
        spdlog::warn("gRPC on {}: refusing pid {} uid {}: {}", path_, peer.pid, peer.uid,
                     std::string(admitted.message()));
      }
      continue;
    }
    peers_->Record(socket.get(), peer.uid);
    grpc::AddInsecureChannelFromFd(server_, socket.release());
  }
}

}  // namespace npud::daemon

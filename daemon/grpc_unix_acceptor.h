// grpc_unix_acceptor.h
//
// GrpcUnixAcceptor: npud's gRPC unix sockets. gRPC cannot tell who is on
// the other end of a unix socket, so npud accepts those connections itself,
// checks each peer's uid (SO_PEERCRED, daemon/unix_access.h), records it in
// GrpcUnixPeers and hands only the admitted ones to the gRPC server, whose
// calls then name their peer "fd:N". Refused peers are closed before they
// speak, with a log line.

#ifndef NPUD_DAEMON_GRPC_UNIX_ACCEPTOR_H_
#define NPUD_DAEMON_GRPC_UNIX_ACCEPTOR_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <thread>

#include "absl/container/flat_hash_map.h"
#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"
#include "common/unique_fd.h"
#include "daemon/unix_access.h"

namespace grpc {
class Server;
}  // namespace grpc

namespace npud::daemon {

// The uid on each connection the acceptors handed to gRPC, by descriptor.
// An entry is replaced when its descriptor number comes back with a new
// connection; that is sound because gRPC closes a connection's descriptor
// only once no call of it runs, so a call's "fd:N" always names the
// connection recorded last under N. Thread-safe.
class GrpcUnixPeers {
 public:
  void Record(int fd, uint32_t uid) ABSL_LOCKS_EXCLUDED(mu_);
  // The uid of the connection gRPC calls `grpc_peer` ("fd:N"); nullopt for
  // peers that did not come through an acceptor (TCP).
  std::optional<uint32_t> UidOf(const std::string& grpc_peer) const ABSL_LOCKS_EXCLUDED(mu_);

 private:
  mutable absl::Mutex mu_;
  absl::flat_hash_map<int, uint32_t> uids_ ABSL_GUARDED_BY(mu_);
};

class GrpcUnixAcceptor {
 public:
  // Listens on `path` (replacing the file). `server` must be started and,
  // like `peers`, outlive the acceptor.
  static absl::StatusOr<std::unique_ptr<GrpcUnixAcceptor>> Start(grpc::Server* server,
                                                                 const std::string& path,
                                                                 const UnixAccess& access,
                                                                 GrpcUnixPeers* peers);
  // Stops accepting and removes the socket file; connections already handed
  // over stay with the gRPC server.
  ~GrpcUnixAcceptor();
  GrpcUnixAcceptor(const GrpcUnixAcceptor&) = delete;
  GrpcUnixAcceptor& operator=(const GrpcUnixAcceptor&) = delete;

 private:
  GrpcUnixAcceptor(grpc::Server* server, std::string path, UnixAccess access, GrpcUnixPeers* peers,
                   UniqueFd listener);
  void AcceptLoop();

  grpc::Server* const server_;
  GrpcUnixPeers* const peers_;
  const std::string path_;
  const UnixAccess access_;
  const UniqueFd listener_;
  std::thread acceptor_;
};

}  // namespace npud::daemon

#endif  // NPUD_DAEMON_GRPC_UNIX_ACCEPTOR_H_

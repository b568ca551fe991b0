// grpc_unix_acceptor.h
//
// GrpcUnixAcceptor: npud's gRPC unix socket when --allowed_uids restricts
// who may use it. gRPC cannot tell who is on the other end of a unix
// socket, so npud accepts those connections itself, checks each peer's uid
// (SO_PEERCRED, daemon/unix_access.h) and hands only the admitted ones to
// the gRPC server, whose calls then name their peer "fd:N". Refused peers
// are closed before they speak, with a log line.

#ifndef NPUD_DAEMON_GRPC_UNIX_ACCEPTOR_H_
#define NPUD_DAEMON_GRPC_UNIX_ACCEPTOR_H_

#include <memory>
#include <string>
#include <thread>

#include "absl/status/statusor.h"
#include "common/unique_fd.h"
#include "daemon/unix_access.h"

namespace grpc {
class Server;
}  // namespace grpc

namespace npud::daemon {

class GrpcUnixAcceptor {
 public:
  // Listens on `path` (replacing the file). `server` must be started and
  // outlive the acceptor.
  static absl::StatusOr<std::unique_ptr<GrpcUnixAcceptor>> Start(grpc::Server* server,
                                                                 const std::string& path,
                                                                 const UnixAccess& access);
  // Stops accepting and removes the socket file; connections already handed
  // over stay with the gRPC server.
  ~GrpcUnixAcceptor();
  GrpcUnixAcceptor(const GrpcUnixAcceptor&) = delete;
  GrpcUnixAcceptor& operator=(const GrpcUnixAcceptor&) = delete;

 private:
  GrpcUnixAcceptor(grpc::Server* server, std::string path, UnixAccess access, UniqueFd listener);
  void AcceptLoop();

  grpc::Server* const server_;
  const std::string path_;
  const UnixAccess access_;
  const UniqueFd listener_;
  std::thread acceptor_;
};

}  // namespace npud::daemon

#endif  // NPUD_DAEMON_GRPC_UNIX_ACCEPTOR_H_

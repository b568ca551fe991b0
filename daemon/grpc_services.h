// grpc_services.h
//
// The gRPC face of npud: the Npud service (one Session stream per client)
// and the Admin service, both thin adapters over DaemonCore.

#ifndef NPUD_DAEMON_GRPC_SERVICES_H_
#define NPUD_DAEMON_GRPC_SERVICES_H_

#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "common/daemon_address.h"
#include "common/grpc/grpc_tls.h"
#include "daemon/unix_access.h"

namespace npud::daemon {

class DaemonCore;

// A running gRPC server with the Npud, Admin and health services.
//
// Admin calls show every session's pid, program and memory, so they are
// guarded: with an `admin_token` every call must carry it (kAdminTokenKey,
// common/wire_constants.h);
// without one, Admin answers only on unix sockets, whose file permissions
// decide who may connect, and refuses TCP peers. Health stays open.
//
// Thread-safe.
class GrpcServer {
 public:
  // Listens on every address of `listen` (unix sockets and TCP; port 0
  // picks a free port). `core` must outlive the server. An existing
  // unix socket file is replaced if stale; a live daemon's socket is an
  // error.
  struct Options {
    std::string admin_token;
    // TLS for every TCP listener (unix sockets never use it).
    ServerTls tls;
    // Listening on a TCP address beyond loopback without TLS is refused
    // unless this is set.
    bool allow_insecure_tcp = false;
    // A Session call must say hello within this, or it is cancelled.
    absl::Duration hello_timeout = absl::Seconds(5);
    // gRPC's buffers and server threads for all peers together.
    size_t memory_bytes = size_t{2} << 30;
    int max_threads = 2048;
    // Session calls at once, in all and per peer address (0: no limit);
    // see PeerKey in the .cc for what a peer is.
    int max_sessions = 1024;
    int max_sessions_per_peer = 256;
    // Who may use the unix sockets (daemon/unix_access.h).
    UnixAccess unix_access;
  };
  static absl::StatusOr<std::unique_ptr<GrpcServer>> Start(DaemonCore* core,
                                                           const std::vector<DaemonAddress>& listen,
                                                           const Options& options);
  // Shuts down (see Shutdown) if not done yet.
  ~GrpcServer();

  // Stops accepting calls, cancels open sessions after `grace` and waits
  // until every handler has returned.
  void Shutdown(absl::Duration grace);

  // The port bound for each TCP address of `listen`, 0 for unix sockets.
  const std::vector<int>& bound_ports() const { return bound_ports_; }

 private:
  struct Impl;
  explicit GrpcServer(std::unique_ptr<Impl> impl);

  std::unique_ptr<Impl> impl_;
  std::vector<int> bound_ports_;
};

}  // namespace npud::daemon

#endif  // NPUD_DAEMON_GRPC_SERVICES_H_

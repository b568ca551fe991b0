// daemon_locator.h
//
// Which daemon a client talks to:
//   NPUD_ADDRESS=unix:///path | unix:/path   a daemon on a unix socket
//   NPUD_ADDRESS=host:port                   a daemon over TCP (gRPC)
//   NPUD_ADDRESS=npud://host:port            a daemon over TCP, framed, on
//                                            its own port (--bulk_listen)
//   NPUD_ADDRESS=inproc:                     devices inside this process
//   NPUD_ADDRESS=a,b,...                     several daemons, each as above;
//       the program sees their devices as one list (see CallRouter)
//   NPUD_ADDRESS unset                       the per-user default socket; if
//       nothing listens there, a private npud is started on it (it exits by
//       itself once no client has used it for a while).
// For a unix socket the local protocol is used when the daemon offers it
// (socket path + ".local"), unless NPUD_TRANSPORT=grpc.

#ifndef NPUD_CLIENT_TRANSPORT_DAEMON_LOCATOR_H_
#define NPUD_CLIENT_TRANSPORT_DAEMON_LOCATOR_H_

#include <memory>
#include <vector>

#include "absl/status/statusor.h"
#include "client/transport/transport.h"

namespace npud::client {

// One transport per daemon, in the order NPUD_ADDRESS names them.
absl::StatusOr<std::vector<std::unique_ptr<Transport>>> LocateDaemons();

}  // namespace npud::client

#endif  // NPUD_CLIENT_TRANSPORT_DAEMON_LOCATOR_H_

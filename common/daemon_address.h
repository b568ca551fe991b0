// daemon_address.h
//
// How npud addresses are written, in one place for the daemon, the client
// library and the tools:
//   unix:///path, unix://path, unix:/path   a unix socket (gRPC)
//   host:port                               TCP (gRPC)
//   npud://host:port                        TCP, npud's own port (framed
//                                           sessions, --bulk_listen)
//   inproc: (or inproc)                     devices inside the client process
// and where a daemon without --listen (and a client without NPUD_ADDRESS)
// looks: a per-user unix socket. Next to each unix socket npud serves its
// local protocol on the same path plus ".local".

#ifndef NPUD_COMMON_DAEMON_ADDRESS_H_
#define NPUD_COMMON_DAEMON_ADDRESS_H_

#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace npud {

struct DaemonAddress {
  enum class Kind { kUnix, kTcp, kFramedTcp, kInproc };
  Kind kind = Kind::kUnix;
  // The socket file (kUnix) or "host:port" (kTcp, kFramedTcp); empty for
  // kInproc.
  std::string target;

  // What gRPC's channel and server builder take: "unix:/path" or
  // "host:port".
  std::string GrpcTarget() const;
  // The address as users write it: "unix:///path", "host:port",
  // "npud://host:port", "inproc:".
  std::string ToString() const;
  // kTcp, kFramedTcp: the host without the port or IPv6 brackets
  // ("10.0.0.7", "::1"), and the port.
  std::string Host() const;
  int Port() const;
};

// InvalidArgument for an empty address, an empty unix path or a TCP address
// without a numeric ":port".
absl::StatusOr<DaemonAddress> ParseDaemonAddress(absl::string_view text);

// $XDG_RUNTIME_DIR/npud.sock, or /tmp/npud-<uid>/npud.sock (the directory is
// created with mode 0700 if missing).
std::string DefaultSocketPath();

// The local-protocol socket that belongs to the gRPC unix socket at
// `grpc_path`.
std::string LocalSocketPath(absl::string_view grpc_path);

}  // namespace npud

#endif  // NPUD_COMMON_DAEMON_ADDRESS_H_

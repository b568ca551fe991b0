// transport.h
//
// Transport: carries one client process's session to a daemon — over gRPC
// (unix socket or TCP), over the local protocol (unix socket, same host),
// over its frames on npud's own TCP port, or to a daemon core running
// inside this process.
//
// Contract, stated once for every implementation:
//  * Connect() sends the hello and returns the daemon's reply. From then on
//    every server message goes to the receiver. Messages about one stream
//    arrive in the order the daemon sent them; OnMessage may be called from
//    several threads at once (in-process transport) and must not block.
//  * OnDisconnect() is called at most once, when the daemon goes away; no
//    OnMessage follows it.
//  * Send() and SendWithFiles() are not thread-safe: callers serialize
//    sends, which is what keeps calls in order. They do not wait for any
//    reply.
//  * Shutdown() ends the session and returns once no receiver call is
//    running or will run.
//  * Connect() gives up after ConnectTimeout() (connecting and the hello
//    together) instead of waiting for a daemon that does not answer.

#ifndef NPUD_CLIENT_TRANSPORT_TRANSPORT_H_
#define NPUD_CLIENT_TRANSPORT_TRANSPORT_H_

#include <memory>
#include <string>
#include <utility>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "absl/types/span.h"
#include "npud/v1/npud.pb.h"

namespace npud::client {

class TransportReceiver {
 public:
  virtual ~TransportReceiver() = default;
  virtual void OnMessage(v1::ServerMessage message) = 0;
  virtual void OnDisconnect(const absl::Status& why) = 0;
};

class Transport {
 public:
  virtual ~Transport() = default;
  virtual absl::StatusOr<v1::HelloReply> Connect(const v1::Hello& hello,
                                                 TransportReceiver* receiver) = 0;
  // The transport may take bulk bytes out of `message` (it is the caller's
  // no longer).
  virtual absl::Status Send(v1::ClientMessage message) = 0;
  // True if messages can carry file descriptors (shared memory with the
  // daemon, local protocol only).
  virtual bool CanShareMemory() const { return false; }
  // Send() with descriptors that travel with the message (duplicated into
  // the daemon; the caller keeps its own).
  virtual absl::Status SendWithFiles(v1::ClientMessage message, absl::Span<const int> fds) {
    if (!fds.empty()) return absl::UnimplementedError("this transport cannot carry files");
    return Send(std::move(message));
  }
  virtual void Shutdown() = 0;
  // The host a remote session's bulk channel connects to (the daemon's, as
  // this transport reached it); empty if the transport is not remote.
  virtual std::string BulkHost() const { return ""; }
  // For logs: "unix:///...", "host:port" or "inproc:".
  virtual std::string Describe() const = 0;
};

// How long Connect() may take: NPUD_CONNECT_TIMEOUT_MS, default 10 s.
absl::Duration ConnectTimeout();

// A transport to the daemon at `target` ("unix:///path" or "host:port").
std::unique_ptr<Transport> MakeGrpcTransport(const std::string& target);

// Framed messages (the local protocol's, no gRPC) on npud's own TCP port
// at host:port (daemon/tcp_server.h), in TLS when NPUD_TLS_CA is set.
std::unique_ptr<Transport> MakeFramedTcpTransport(const std::string& host, int port);

// The local protocol (framed messages, no gRPC, shared memory) to the daemon
// listening on the unix socket `path` (see daemon/local_server.h).
std::unique_ptr<Transport> MakeLocalTransport(const std::string& path);

// A transport to a daemon core created inside this process (shared by every
// session of the process, created on first use), from libnpud_inproc.so;
// Unavailable if that library cannot be loaded.
absl::StatusOr<std::unique_ptr<Transport>> MakeInprocTransport();

}  // namespace npud::client

#endif  // NPUD_CLIENT_TRANSPORT_TRANSPORT_H_

// tcp_server.h
//
// TcpServer: npud's own TCP port (--bulk_listen), beside gRPC. Its
// connections say what they are in their first header
// (common/bulk_frame.h):
//  * a bulk channel (kHello) must present, within the hello timeout, the id
//    of a live session that was offered a channel and that session's key
//    (sent to its client in the HelloReply, over the session's own,
//    possibly encrypted, stream); then it becomes the session's BulkLink
//    and this server's thread serves its reads until it ends;
//  * a framed session (kSession, NPUD_ADDRESS=npud://host:port) sends its
//    hello (at most LocalServer::kMaxHelloBytes) within the hello timeout
//    too; then this server's thread serves the session as the local
//    protocol does, with frames on the stream (common/stream_frame.h) and
//    replies written by whichever thread produces them (FramedSink).
//
// With TLS (Options::tls) the hello comes after the handshake, and both
// must fit in the hello timeout. Each connection costs a thread from its
// accept on; ConnectionLimits caps them in all and per remote address, and
// connections that do not say hello in time are closed. That time is a
// deadline from the accept, not a timeout per read: a peer trickling a
// byte at a time would otherwise hold its thread and slot for ever.

#ifndef NPUD_DAEMON_TCP_SERVER_H_
#define NPUD_DAEMON_TCP_SERVER_H_

#include <functional>
#include <memory>
#include <string>
#include <thread>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_set.h"
#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"
#include "common/bulk_frame.h"
#include "common/byte_stream.h"
#include "common/tls_stream.h"
#include "common/unique_fd.h"
#include "daemon/connection_limits.h"
#include "daemon/delayed_executor.h"

namespace npud::daemon {

class DaemonCore;

class TcpServer {
 public:
  struct Options {
    std::string host;
    int port = 0;  // 0: any free port
    absl::Duration hello_timeout = absl::Seconds(5);
    int max_connections = 1024;
    int max_connections_per_peer = 256;
    std::shared_ptr<const TlsContext> tls;  // null: plain TCP
  };

  // Listens and tells `core` the port. `core` must outlive the server.
  static absl::StatusOr<std::unique_ptr<TcpServer>> Start(DaemonCore* core, const Options& options);
  ~TcpServer();  // Shutdown()
  TcpServer(const TcpServer&) = delete;
  TcpServer& operator=(const TcpServer&) = delete;

  int port() const { return port_; }
  // Stops accepting, ends every connection and waits for their threads.
  void Shutdown();

 private:
  TcpServer(DaemonCore* core, const Options& options, UniqueFd listener, int port);
  void AcceptLoop();
  void Serve(const std::shared_ptr<ByteStream>& stream, const std::string& peer);
  // The bulk hello (`hello`): which session's link the connection becomes.
  // `hello_in` says the hello is complete; false: too late.
  absl::Status ServeBulk(const bulk::FrameHeader& hello, const std::shared_ptr<ByteStream>& stream,
                         const std::string& peer, const std::function<bool()>& hello_in);
  // A framed session, from its hello to its end. The error says why the
  // client was refused (it has been told).
  absl::Status ServeSession(const std::shared_ptr<ByteStream>& stream, const std::string& peer,
                            const std::function<bool()>& hello_in);

  DaemonCore* const core_;
  const Options options_;
  const UniqueFd listener_;
  const int port_;
  ConnectionLimits limits_;
  // The live connections, which Shutdown ends and waits for. Shared with
  // their (detached) threads, whose last step is to leave it.
  struct Connections {
    absl::Mutex mu;
    bool shut_down ABSL_GUARDED_BY(mu) = false;
    absl::flat_hash_set<std::shared_ptr<ByteStream>> streams ABSL_GUARDED_BY(mu);
  };
  const std::shared_ptr<Connections> connections_ = std::make_shared<Connections>();
  // Ends connections whose hello or a large frame is late (the callbacks
  // hold the streams weakly).
  DelayedExecutor deadlines_;
  std::thread acceptor_;
};

}  // namespace npud::daemon

#endif  // NPUD_DAEMON_TCP_SERVER_H_

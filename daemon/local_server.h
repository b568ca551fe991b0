// local_server.h
//
// LocalServer: the Session protocol without gRPC, for clients on this host.
// Next to every unix socket npud serves gRPC on, it listens on the same path
// plus ".local" for framed messages (common/frame_io.h). The local
// protocol carries file descriptors, so a client can share memory with the
// daemon (RegisterHostMemory), and it has no HTTP/2 layer or extra threads
// between a call and its session, which makes round trips cheaper.
//
// Until a connection has sent its hello it costs a descriptor and a few KiB,
// never a thread: one event thread accepts, reads hellos (at most
// kMaxHelloBytes, no descriptors, within the hello timeout) and closes
// connections that break these rules. The peer's pid and uid come from the
// kernel (SO_PEERCRED), and ConnectionLimits caps connections in all and per
// uid. Then the connection gets its own thread, which serves the session in
// order; replies are written by whichever thread produces them (a writer
// thread starts only when the socket is full).
//
// The listener does not die: when npud runs out of descriptors, a reserve
// descriptor is given up to accept and at once close the newest connection,
// and accepting resumes when descriptors are free again. Finished
// connections are reaped by the event thread whether or not anyone connects.

#ifndef NPUD_DAEMON_LOCAL_SERVER_H_
#define NPUD_DAEMON_LOCAL_SERVER_H_

#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_map.h"
#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"
#include "common/unique_fd.h"
#include "daemon/connection_limits.h"
#include "daemon/delayed_executor.h"
#include "daemon/unix_access.h"

namespace npud::daemon {

class DaemonCore;

class LocalServer {
 public:
  // A hello is a few hundred bytes; a frame before it announcing more is
  // refused before anything is allocated for it.
  static constexpr uint32_t kMaxHelloBytes = 64 << 10;

  struct Options {
    // Socket files to listen on (stale ones are replaced).
    std::vector<std::string> paths;
    // How long a connection may take to send its hello.
    absl::Duration hello_timeout = absl::Seconds(5);
    // Connections at once, in all and per uid (0: no limit).
    int max_connections = 1024;
    int max_connections_per_peer = 256;
    // Who may connect: the socket files' mode and group, and the uids
    // admitted (checked against SO_PEERCRED at accept).
    UnixAccess access;
  };

  static absl::StatusOr<std::unique_ptr<LocalServer>> Start(DaemonCore* core,
                                                            const Options& options);
  // Shutdown(), then removes the socket files.
  ~LocalServer();
  LocalServer(const LocalServer&) = delete;
  LocalServer& operator=(const LocalServer&) = delete;

  // Stops accepting, disconnects every client (their sessions are closed)
  // and waits for the connection threads.
  void Shutdown() ABSL_LOCKS_EXCLUDED(mu_);

 private:
  class Connection;
  struct Waiting;  // a connection that has not sent its hello yet

  LocalServer(DaemonCore* core, const Options& options);
  // The event thread: accepts, reads hellos, expires them, reaps.
  void EventLoop() ABSL_LOCKS_EXCLUDED(mu_);
  void AcceptFrom(int listener);
  // Reads what `waiting` sent; true when it is finished with (served or
  // dropped), false while its hello is incomplete.
  bool ReadHello(Waiting& waiting);
  void Reap() ABSL_LOCKS_EXCLUDED(mu_);
  void Wake();

  DaemonCore* const core_;
  const Options options_;
  ConnectionLimits limits_;
  // Times the connections' large frames (FrameGuard).
  DelayedExecutor frame_deadlines_;
  std::vector<UniqueFd> listeners_;
  UniqueFd epoll_;
  // Written when a connection finishes or the server shuts down.
  UniqueFd wake_;
  // Kept open to be given up when accept() hits the descriptor limit.
  UniqueFd reserve_;
  // Listeners paused after running out of descriptors, until this time.
  absl::Time accept_paused_until_ = absl::InfinitePast();
  // Owned by the event thread.
  absl::flat_hash_map<int, std::unique_ptr<Waiting>> waiting_;
  std::thread event_thread_;

  absl::Mutex mu_;
  bool shut_down_ ABSL_GUARDED_BY(mu_) = false;
  std::vector<std::unique_ptr<Connection>> connections_ ABSL_GUARDED_BY(mu_);
};

}  // namespace npud::daemon

#endif  // NPUD_DAEMON_LOCAL_SERVER_H_

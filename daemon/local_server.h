// local_server.h
//
// LocalServer: the Session protocol without gRPC, for clients on this host.
// Next to every unix socket npud serves gRPC on, it listens on the same path
// plus ".local" for framed messages (common/frame_io.h). The local
// protocol carries file descriptors, so a client can share memory with the
// daemon (RegisterHostMemory), and it has no HTTP/2 layer or extra threads
// between a call and its session, which makes round trips cheaper.
//
// One thread per connection reads and processes the client's calls in
// order; replies are written by whichever thread produces them (a writer
// thread takes over only when the socket is full).

#ifndef NPUD_DAEMON_LOCAL_SERVER_H_
#define NPUD_DAEMON_LOCAL_SERVER_H_

#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"

namespace npud::daemon {

class DaemonCore;

class LocalServer {
 public:
  // Listens on each of `paths` (socket files; stale ones are replaced).
  static absl::StatusOr<std::unique_ptr<LocalServer>> Start(DaemonCore* core,
                                                            const std::vector<std::string>& paths);
  // Shutdown(), then removes the socket files.
  ~LocalServer();
  LocalServer(const LocalServer&) = delete;
  LocalServer& operator=(const LocalServer&) = delete;

  // Stops accepting, disconnects every client (their sessions are closed)
  // and waits for the connection threads.
  void Shutdown() ABSL_LOCKS_EXCLUDED(mu_);

 private:
  class Connection;
  explicit LocalServer(DaemonCore* core) : core_(core) {}
  void AcceptLoop(int listener) ABSL_LOCKS_EXCLUDED(mu_);

  DaemonCore* const core_;
  std::vector<std::string> paths_;
  std::vector<int> listeners_;
  std::vector<std::thread> acceptors_;

  absl::Mutex mu_;
  bool shut_down_ ABSL_GUARDED_BY(mu_) = false;
  std::vector<std::shared_ptr<Connection>> connections_ ABSL_GUARDED_BY(mu_);
};

}  // namespace npud::daemon

#endif  // NPUD_DAEMON_LOCAL_SERVER_H_

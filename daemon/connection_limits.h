// connection_limits.h
//
// ConnectionLimits: how many client connections npud holds at once, in all
// and per peer (a user id on the local protocol, a remote address on gRPC).
// A connection is counted from the moment npud first sees it, before it has
// said anything, so a flood of idle or half-open connections meets the same
// limits as real clients; the admission is released when the connection is
// closed.

#ifndef NPUD_DAEMON_CONNECTION_LIMITS_H_
#define NPUD_DAEMON_CONNECTION_LIMITS_H_

#include <memory>
#include <string>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_map.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/synchronization/mutex.h"

namespace npud::daemon {

class ConnectionLimits {
 public:
  // 0 means no limit.
  ConnectionLimits(int total, int per_peer) : total_(total), per_peer_(per_peer) {}

  // One admitted connection; releases its place when destroyed.
  class Admission {
   public:
    ~Admission();
    Admission(const Admission&) = delete;
    Admission& operator=(const Admission&) = delete;

   private:
    friend class ConnectionLimits;
    Admission(ConnectionLimits* limits, std::string peer)
        : limits_(limits), peer_(std::move(peer)) {}
    ConnectionLimits* const limits_;
    const std::string peer_;
  };

  // A place for a connection of `peer` (named in the error, e.g. "uid 1000"
  // or "ipv4:10.0.0.7"), or ResourceExhausted saying which limit is
  // reached. The limits must outlive the admission.
  absl::StatusOr<std::unique_ptr<Admission>> Admit(absl::string_view peer) ABSL_LOCKS_EXCLUDED(mu_);

  int open() const ABSL_LOCKS_EXCLUDED(mu_);

 private:
  void Release(const std::string& peer) ABSL_LOCKS_EXCLUDED(mu_);

  const int total_;
  const int per_peer_;
  mutable absl::Mutex mu_;
  int open_ ABSL_GUARDED_BY(mu_) = 0;
  absl::flat_hash_map<std::string, int> per_peer_open_ ABSL_GUARDED_BY(mu_);
};

}  // namespace npud::daemon

#endif  // NPUD_DAEMON_CONNECTION_LIMITS_H_

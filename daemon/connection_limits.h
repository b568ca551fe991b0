// connection_limits.h
//
// ConnectionLimits: how many client connections npud holds at once, in all
// and per user id. A connection is counted from its accept, before it has
// said anything, so a flood of idle or half-open connections meets the same
// limits as real clients; the admission is released when the connection is
// closed.

#ifndef NPUD_DAEMON_CONNECTION_LIMITS_H_
#define NPUD_DAEMON_CONNECTION_LIMITS_H_

#include <cstdint>
#include <memory>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_map.h"
#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"

namespace npud::daemon {

class ConnectionLimits {
 public:
  // 0 means no limit.
  ConnectionLimits(int total, int per_uid) : total_(total), per_uid_(per_uid) {}

  // One admitted connection; releases its place when destroyed.
  class Admission {
   public:
    ~Admission();
    Admission(const Admission&) = delete;
    Admission& operator=(const Admission&) = delete;

   private:
    friend class ConnectionLimits;
    Admission(ConnectionLimits* limits, uint32_t uid) : limits_(limits), uid_(uid) {}
    ConnectionLimits* const limits_;
    const uint32_t uid_;
  };

  // A place for a connection of `uid`, or ResourceExhausted saying which
  // limit is reached. The limits must outlive the admission.
  absl::StatusOr<std::unique_ptr<Admission>> Admit(uint32_t uid) ABSL_LOCKS_EXCLUDED(mu_);

  int open() const ABSL_LOCKS_EXCLUDED(mu_);

 private:
  void Release(uint32_t uid) ABSL_LOCKS_EXCLUDED(mu_);

  const int total_;
  const int per_uid_;
  mutable absl::Mutex mu_;
  int open_ ABSL_GUARDED_BY(mu_) = 0;
  absl::flat_hash_map<uint32_t, int> per_uid_open_ ABSL_GUARDED_BY(mu_);
};

}  // namespace npud::daemon

#endif  // NPUD_DAEMON_CONNECTION_LIMITS_H_

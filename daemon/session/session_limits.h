// session_limits.h
//
// What one session (one client process) may hold at most, so one client can
// never take the devices from the others: device memory (its allocations,
// the IPC memory it imported and the physical memory it holds handles to,
// counted together), streams and events. Set by npud's flags for every
// session; 0 means no limit. A call past a limit fails with the CANN code
// for running out of that resource (207001, 207008, 207007) and changes
// nothing else.

#ifndef NPUD_DAEMON_SESSION_SESSION_LIMITS_H_
#define NPUD_DAEMON_SESSION_SESSION_LIMITS_H_

#include <cstdint>
#include <memory>

#include "absl/base/thread_annotations.h"
#include "absl/status/status.h"
#include "absl/synchronization/mutex.h"
#include "common/acl_status.h"

namespace npud::daemon {

struct SessionLimits {
  uint64_t memory_bytes = 0;
  uint32_t streams = 0;
  uint32_t events = 0;
};

// The device memory a session holds, against its limit. Thread-safe.
class MemoryQuota {
 public:
  explicit MemoryQuota(uint64_t limit_bytes) : limit_(limit_bytes) {}

  // Counts `bytes` more, or fails with kRtMemoryAllocation (naming the use
  // and the limit) if that would pass the limit by more than `overdraft`
  // (for transient buffers, so that a session at its limit still gets its
  // calls answered).
  absl::Status Charge(uint64_t bytes, uint64_t overdraft = 0) ABSL_LOCKS_EXCLUDED(mu_);
  void Uncharge(uint64_t bytes) ABSL_LOCKS_EXCLUDED(mu_);

  uint64_t used() const ABSL_LOCKS_EXCLUDED(mu_);
  uint64_t limit() const { return limit_; }

 private:
  const uint64_t limit_;
  mutable absl::Mutex mu_;
  uint64_t used_ ABSL_GUARDED_BY(mu_) = 0;
};

// A charge that is given back when the holder lets go of it (for memory
// whose lifetime is a handle's).
class QuotaCharge {
 public:
  QuotaCharge(std::shared_ptr<MemoryQuota> quota, uint64_t bytes)
      : quota_(std::move(quota)), bytes_(bytes) {}
  ~QuotaCharge() { quota_->Uncharge(bytes_); }
  QuotaCharge(const QuotaCharge&) = delete;
  QuotaCharge& operator=(const QuotaCharge&) = delete;

 private:
  const std::shared_ptr<MemoryQuota> quota_;
  const uint64_t bytes_;
};

// Fails with `code` if a session holding `count` objects of `what` may not
// create one more under `limit` (0: no limit).
absl::Status CheckCount(uint64_t count, uint32_t limit, AclCode code, const char* what);

}  // namespace npud::daemon

#endif  // NPUD_DAEMON_SESSION_SESSION_LIMITS_H_

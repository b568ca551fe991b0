// memory_snapshot.h
//
// MemorySnapshot: a session's device memory saved for a process snapshot
// (aclrtSnapShotProcessBackup) and written back by aclrtSnapShotProcess-
// Restore. It holds the bytes of every allocation the session made itself
// (aclrtMalloc); memory it imported belongs to its exporter, and physical
// memory and host windows are not saved. A new backup replaces the last.
//
// The copy lives in npud's memory: it costs the daemon as much host memory
// as the session holds device memory, until the client unlocks (Discard) or
// ends.
//
// Thread-safe.

#ifndef NPUD_DAEMON_SESSION_MEMORY_SNAPSHOT_H_
#define NPUD_DAEMON_SESSION_MEMORY_SNAPSHOT_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"
#include "daemon/session/allocation_ledger.h"
#include "simdevice/device_range.h"

namespace npud::daemon {

class MemorySnapshot {
 public:
  // The session's allocations, pinned for Save.
  static std::vector<sim::DeviceRange> Allocations(const AllocationLedger& memory);
  // Saves the bytes of `allocations`; returns how many. The caller makes
  // sure nothing writes them meanwhile (the session's streams have drained
  // and its client holds its calls).
  uint64_t Save(const std::vector<sim::DeviceRange>& allocations) ABSL_LOCKS_EXCLUDED(mu_);
  // Writes the saved bytes back where they came from; returns how many.
  // kSnapshotRestoreFailed if nothing is saved or a saved allocation is no
  // longer the session's (then nothing is written).
  absl::StatusOr<uint64_t> Restore(const AllocationLedger& memory) const ABSL_LOCKS_EXCLUDED(mu_);
  void Discard() ABSL_LOCKS_EXCLUDED(mu_);

 private:
  struct Region {
    uint64_t address;
    std::string bytes;
  };
  mutable absl::Mutex mu_;
  // Unset until the first Save and after Discard.
  std::optional<std::vector<Region>> regions_ ABSL_GUARDED_BY(mu_);
};

}  // namespace npud::daemon

#endif  // NPUD_DAEMON_SESSION_MEMORY_SNAPSHOT_H_

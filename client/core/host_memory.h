// host_memory.h
//
// Host memory from aclrtMallocHost. When the daemon is on this host (the
// local protocol), each allocation is a memfd mapping shared with npud — a
// "window" — so copies between it and device memory are one memcpy inside
// the daemon, at the time the copy runs. Otherwise it is ordinary aligned
// memory and copies travel over the wire.
//
// Thread-safe.

#ifndef NPUD_CLIENT_CORE_HOST_MEMORY_H_
#define NPUD_CLIENT_CORE_HOST_MEMORY_H_

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>

#include "absl/base/thread_annotations.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"

namespace npud::client {

class CallPipeline;

// Where a host range lies inside a window shared with the daemon.
struct WindowRange {
  uint64_t window_id;
  uint64_t offset;
};

// Maps `size` bytes of a new memfd shared with the daemon as window
// `window_id` (RegisterHostMemory rides on the session). Returns the
// mapping; the daemon keeps its own until ReleaseHostMemory.
absl::StatusOr<void*> MapSharedWindow(CallPipeline& session, uint64_t window_id, size_t size);

class HostMemory {
 public:
  static HostMemory& Get();

  absl::StatusOr<void*> Allocate(size_t size) ABSL_LOCKS_EXCLUDED(mu_);
  // kRtParamInvalid if `pointer` is not the start of an allocation.
  absl::Status Free(void* pointer) ABSL_LOCKS_EXCLUDED(mu_);
  // True if [pointer, pointer + size) lies inside one allocation.
  bool Contains(const void* pointer, size_t size) const ABSL_LOCKS_EXCLUDED(mu_);
  // The window that holds [pointer, pointer + size), if it is shared.
  std::optional<WindowRange> FindWindow(const void* pointer, size_t size) const
      ABSL_LOCKS_EXCLUDED(mu_);

 private:
  struct Allocation {
    size_t size;
    size_t mapped;       // Bytes mapped (page rounded), when shared.
    uint64_t window_id;  // 0: not shared.
  };
  // The allocation holding the range, or nullptr.
  const std::pair<const uintptr_t, Allocation>* Lookup(const void* pointer, size_t size) const
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);

  mutable absl::Mutex mu_;
  std::map<uintptr_t, Allocation> allocations_ ABSL_GUARDED_BY(mu_);
};

}  // namespace npud::client

#endif  // NPUD_CLIENT_CORE_HOST_MEMORY_H_

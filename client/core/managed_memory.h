// managed_memory.h
//
// Managed (unified) memory: aclrtMemAllocManaged, its advice, prefetches and
// range attributes.
//
// On a device, managed pages migrate to whoever touches them. Here nothing
// needs to move: an allocation is a host window that npud maps among the
// device virtual addresses and that this process maps at the very same
// address (HostMemory::AllocateAtDeviceAddress), so host code, copies and
// kernels use one pointer for the same bytes. Advice and prefetch targets
// are kept per 2 MiB granule, as CANN keeps them per page range, and
// reported by the attribute queries; they change nothing else.
//
// Thread-safe.

#ifndef NPUD_CLIENT_CORE_MANAGED_MEMORY_H_
#define NPUD_CLIENT_CORE_MANAGED_MEMORY_H_

#include <cstddef>
#include <cstdint>
#include <map>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"

namespace npud::client {

class HostMemory;

// aclrtMemManagedLocation: `type` an aclrtMemManagedLocationType.
struct ManagedLocation {
  uint32_t type = 0;
  int32_t id = 0;
};
// Same place: ids count for devices and NUMA nodes only.
bool operator==(const ManagedLocation& a, const ManagedLocation& b);

// One prefetch of aclrtMemManagedPrefetchBatchAsync.
struct ManagedPrefetch {
  const void* pointer;
  size_t size;
  ManagedLocation location;
};

class ManagedMemory {
 public:
  // Managed allocations grow in granules of this size (CANN's 2 MiB).
  static constexpr uint64_t kGranule = 2ull << 20;

  explicit ManagedMemory(HostMemory& host) : host_(host) {}

  // aclrtMemAllocManaged: `flag` must be ACL_RT_MEM_ATTACH_GLOBAL; `size`
  // is rounded up to the granule.
  absl::StatusOr<void*> Allocate(uint64_t size, uint32_t flag) ABSL_LOCKS_EXCLUDED(mu_);
  // True if `pointer` starts a managed allocation.
  bool IsAllocation(const void* pointer) const ABSL_LOCKS_EXCLUDED(mu_);
  // aclrtFree of a managed allocation.
  absl::Status Free(void* pointer) ABSL_LOCKS_EXCLUDED(mu_);
  // True if `pointer` lies inside a managed allocation.
  bool Contains(const void* pointer) const ABSL_LOCKS_EXCLUDED(mu_);

  // aclrtMemManagedAdvise: `advise` an aclrtMemManagedAdviseType; the range
  // is whole granules of one allocation.
  absl::Status Advise(const void* pointer, uint64_t size, uint32_t advise, ManagedLocation location)
      ABSL_LOCKS_EXCLUDED(mu_);
  // aclrtMemManagedPrefetch(Batch)Async: checks every prefetch, then records
  // each target as the range's last prefetch location (CANN's attribute says
  // where a prefetch was asked for, not whether it has run). `flags` must
  // be 0; `stream` is checked too.
  absl::Status Prefetch(const std::vector<ManagedPrefetch>& prefetches, uint64_t flags,
                        void* stream) ABSL_LOCKS_EXCLUDED(mu_);
  // aclrtMemP2PMap: CANN's synchronous prefetch of managed memory to device
  // `device` (any size; the granules it touches). Recorded like Prefetch.
  absl::Status PrefetchToDevice(const void* pointer, size_t size, int32_t device)
      ABSL_LOCKS_EXCLUDED(mu_);
  // aclrtMemManagedGetAttr: writes `attribute` (aclrtMemManagedRangeAttribute)
  // of [pointer, pointer + size) into `data` of `data_size` bytes, as CANN
  // documents each attribute's value and size.
  absl::Status GetAttribute(uint32_t attribute, const void* pointer, size_t size, void* data,
                            size_t data_size) const ABSL_LOCKS_EXCLUDED(mu_);

 private:
  // What was asked of one granule. A location's type is INVALID when unset.
  struct Granule {
    bool read_mostly = false;
    ManagedLocation preferred;
    ManagedLocation last_prefetch;
    // The locations named with SET_ACCESSED_BY.
    std::vector<ManagedLocation> accessed_by;
  };
  struct Allocation {
    uint64_t size;
    std::vector<Granule> granules;
  };
  // The granules [first, last] of [pointer, pointer + size), which must lie
  // in one allocation; kRtParamInvalid otherwise.
  struct Span {
    Allocation* allocation;
    size_t first, last;
  };
  absl::StatusOr<Span> Find(const void* pointer, uint64_t size) const
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);

  HostMemory& host_;
  mutable absl::Mutex mu_;
  std::map<uintptr_t, Allocation> allocations_ ABSL_GUARDED_BY(mu_);
  // The sizes of allocations_ plus allocations under way, against the
  // process limit.
  uint64_t held_bytes_ ABSL_GUARDED_BY(mu_) = 0;
};

}  // namespace npud::client

#endif  // NPUD_CLIENT_CORE_MANAGED_MEMORY_H_

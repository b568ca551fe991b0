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
#include <utility>

#include "absl/base/thread_annotations.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"
#include "npud/v1/calls.pb.h"

namespace npud::client {

class CallPipeline;

// Where a host range lies inside a window shared with the daemon.
struct WindowRange {
  uint64_t window_id;
  uint64_t offset;
};

// Maps `size` bytes of a new memfd shared with the daemon as window
// `window_id` (RegisterHostMemory rides on the session). Returns the
// mapping; the daemon keeps its own until ReleaseHostMemory. With `at`
// (page aligned) the file starts with the bytes there and replaces them in
// place.
// `use` tells the daemon what the window is for (its copy counters).
absl::StatusOr<void*> MapSharedWindow(CallPipeline& session, uint64_t window_id, size_t size,
                                      void* at = nullptr,
                                      v1::HostWindowUse use = v1::HOST_WINDOW_PINNED);

// Host memory from aclrtMallocHost and aclrtHostRegister, owned by the
// Runtime. Thread-safe.
class HostMemory {
 public:
  absl::StatusOr<void*> Allocate(size_t size) ABSL_LOCKS_EXCLUDED(mu_);
  // kRtParamInvalid if `pointer` is not the start of an allocation.
  absl::Status Free(void* pointer) ABSL_LOCKS_EXCLUDED(mu_);
  // True if [pointer, pointer + size) lies inside one allocation.
  bool Contains(const void* pointer, size_t size) const ABSL_LOCKS_EXCLUDED(mu_);
  // Start and size of the allocation or registration holding `pointer`.
  std::optional<std::pair<void*, size_t>> AllocationOf(const void* pointer) const
      ABSL_LOCKS_EXCLUDED(mu_);
  // The window that holds [pointer, pointer + size), if it is shared.
  std::optional<WindowRange> FindWindow(const void* pointer, size_t size) const
      ABSL_LOCKS_EXCLUDED(mu_);

  // aclrtHostRegister: makes [pointer, pointer + size) device memory too —
  // the daemon maps its window among the device virtual addresses, where
  // kernels and copies reach it — and returns the device address of
  // `pointer`. Memory not from aclrtMallocHost is adopted first: its pages
  // are swapped, contents kept, for a shared mapping at the same address;
  // such a range must not share a page with another registration or with
  // aclrtMallocHost memory (kRtParamInvalid). Needs the local protocol
  // (kRtFeatureNotSupport otherwise).
  absl::StatusOr<void*> Register(void* pointer, size_t size, int32_t device)
      ABSL_LOCKS_EXCLUDED(mu_);
  // The device address of registered host memory at `pointer`.
  absl::StatusOr<void*> DevicePointer(const void* pointer) const ABSL_LOCKS_EXCLUDED(mu_);
  // Undoes Register(); adopted pages become private memory again.
  absl::Status Unregister(void* pointer) ABSL_LOCKS_EXCLUDED(mu_);

  // aclrtMemAllocManaged's memory: `size` bytes (a multiple of the page)
  // shared with npud, registered for `device`, and moved in this process to
  // the address npud maps it at — host code and kernels use one pointer for
  // the same bytes. kRtMemoryAllocation if that address is taken here.
  // Needs the local protocol (kRtFeatureNotSupport otherwise).
  absl::StatusOr<void*> AllocateAtDeviceAddress(size_t size, int32_t device)
      ABSL_LOCKS_EXCLUDED(mu_);
  // Frees what AllocateAtDeviceAddress returned; kRtParamInvalid otherwise.
  absl::Status FreeAtDeviceAddress(void* pointer) ABSL_LOCKS_EXCLUDED(mu_);

 private:
  struct Allocation {
    size_t size;
    size_t mapped;       // Bytes mapped (page rounded), when shared.
    uint64_t window_id;  // 0: not shared.
    // Not from aclrtMallocHost: user pages swapped in by Register().
    bool adopted = false;
    // Where the daemon maps the window for kernels (0: not registered).
    uint64_t device_address = 0;
    // From AllocateAtDeviceAddress: the host mapping is at device_address.
    bool unified = false;
  };
  // The allocation holding the range, or nullptr.
  std::pair<const uintptr_t, Allocation>* Lookup(const void* pointer, size_t size)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  const std::pair<const uintptr_t, Allocation>* Lookup(const void* pointer, size_t size) const
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  // Unmaps a window allocation and tells the daemon to let it go.
  void Release(void* pointer, const Allocation& allocation);
  // Swaps the pages of [pointer, pointer + size) for a new shared window.
  absl::Status Adopt(CallPipeline& session, void* pointer, size_t size) ABSL_LOCKS_EXCLUDED(mu_);

  mutable absl::Mutex mu_;
  std::map<uintptr_t, Allocation> allocations_ ABSL_GUARDED_BY(mu_);
};

}  // namespace npud::client

#endif  // NPUD_CLIENT_CORE_HOST_MEMORY_H_

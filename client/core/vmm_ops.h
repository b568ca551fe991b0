// vmm_ops.h
//
// Physical memory and device virtual addresses: memory allocated without an
// address (aclrtMallocPhysical), address ranges reserved on their own
// (aclrtReserveMemAddress), mappings between the two (aclrtMapMem), and
// physical memory shared with other processes by a numeric handle
// (aclrtMemExportToShareableHandle). The daemon does the work; this layer
// validates arguments and keeps the handles.

#ifndef NPUD_CLIENT_CORE_VMM_OPS_H_
#define NPUD_CLIENT_CORE_VMM_OPS_H_

#include <cstddef>
#include <cstdint>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace npud::client {

// aclrtPhysicalMemProp, in plain types.
struct PhysicalMemoryProperties {
  uint32_t handle_type = 0;
  uint32_t allocation_type = 0;
  uint32_t mem_attr = 0;
  uint32_t location_type = 0;
  int32_t device = 0;
};

// aclrtMemAccessDesc / aclrtMemLocation + flags, in plain types.
struct MemoryAccess {
  uint32_t flags = 0;
  uint32_t location_type = 0;
  int32_t device = 0;
};

absl::StatusOr<size_t> AllocationGranularity(const PhysicalMemoryProperties& properties,
                                             uint32_t option);
absl::StatusOr<void*> MallocPhysical(size_t size, const PhysicalMemoryProperties& properties,
                                     uint64_t flags);
absl::Status FreePhysical(void* handle);
absl::StatusOr<PhysicalMemoryProperties> PhysicalProperties(void* handle);

absl::StatusOr<void*> ReserveAddress(size_t size, size_t alignment, void* hint);
absl::Status ReleaseAddress(void* address);
// `accessible` false: aclrtMemMapNoAccess (usable after SetMemoryAccess).
absl::Status MapMemory(void* address, size_t size, size_t offset, void* handle, uint64_t flags,
                       bool accessible = true);
absl::Status UnmapMemory(void* address);
absl::Status SetMemoryAccess(void* address, size_t size, const std::vector<MemoryAccess>& access);
absl::StatusOr<MemoryAccess> GetMemoryAccess(void* address);

absl::StatusOr<uint64_t> ExportPhysical(void* handle, uint32_t handle_type, uint64_t flags);
absl::Status SetPhysicalImportPids(uint64_t shareable, const std::vector<int64_t>& pids);
absl::StatusOr<void*> ImportPhysical(uint64_t shareable, int32_t device);
// A new handle to the physical memory mapped at `address`
// (aclrtMemRetainAllocationHandle); free it with FreePhysical.
absl::StatusOr<void*> RetainPhysical(void* address);

}  // namespace npud::client

#endif  // NPUD_CLIENT_CORE_VMM_OPS_H_

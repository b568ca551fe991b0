// virtual_address_space.h
//
// VirtualAddressSpace: device virtual addresses that clients reserve and
// map physical memory into (aclrtReserveMemAddress, aclrtMapMem).
//
// Like DeviceMemory, the whole space is one PROT_NONE reservation inside
// npud, so reserved addresses are real pointers kernels dereference. Mapping
// places the PhysicalMemory's memfd over part of a reservation (MAP_SHARED),
// so two sessions that map the same physical memory see the same bytes, and
// unmapping puts PROT_NONE back.
//
// Every reservation belongs to one owner (a session id); only the owner may
// map into it or use it. A mapping is pinned by the DeviceRanges that Find()
// returns: after Unmap() or Release() the pages stay mapped until the last
// pin is dropped, and until then that part of the space is not given out or
// mapped again, so queued work never touches memory that moved.
//
// Thread-safe. Destroy after everything that holds a pin.

#ifndef NPUD_SIMDEVICE_VIRTUAL_ADDRESS_SPACE_H_
#define NPUD_SIMDEVICE_VIRTUAL_ADDRESS_SPACE_H_

#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"
#include "simdevice/device_range.h"
#include "simdevice/physical_memory.h"
#include "simdevice/range_allocator.h"

namespace npud::sim {

class VirtualAddressSpace {
 public:
  // aclrtMemAccessFlags.
  enum class Access : uint32_t { kNone = 0, kRead = 1, kReadWrite = 3 };

  // Reserves `span` bytes of address space, at `preferred_base` if free.
  static absl::StatusOr<std::unique_ptr<VirtualAddressSpace>> Create(uint64_t span,
                                                                     uint64_t preferred_base);
  ~VirtualAddressSpace();
  VirtualAddressSpace(const VirtualAddressSpace&) = delete;
  VirtualAddressSpace& operator=(const VirtualAddressSpace&) = delete;

  uint64_t base() const { return base_; }
  uint64_t span() const { return span_; }
  bool InRange(uint64_t address) const { return address - base_ < span_; }

  // Reserves `size` bytes (a multiple of the granularity) for `owner`,
  // aligned to `alignment` (0: the granularity), at `hint` when that range
  // is free and suitably aligned, else wherever there is room.
  absl::StatusOr<uint64_t> Reserve(uint64_t owner, uint64_t size, uint64_t alignment, uint64_t hint)
      ABSL_LOCKS_EXCLUDED(mu_);
  // Gives back the reservation starting at `address`; fails while anything
  // is mapped in it.
  absl::Status Release(uint64_t owner, uint64_t address) ABSL_LOCKS_EXCLUDED(mu_);

  // Maps [offset, offset + size) of `memory` at `address`, which must lie in
  // one reservation of `owner` and not overlap another mapping. With
  // `access` kNone (aclrtMemMapNoAccess) the mapping cannot be used until
  // SetAccess grants access.
  absl::Status Map(uint64_t owner, uint64_t address, uint64_t size, uint64_t offset,
                   std::shared_ptr<PhysicalMemory> memory, Access access = Access::kReadWrite)
      ABSL_LOCKS_EXCLUDED(mu_);
  // Removes the mapping that starts at `address`.
  absl::Status Unmap(uint64_t owner, uint64_t address) ABSL_LOCKS_EXCLUDED(mu_);

  // Records who may access [address, address + size), which must be mapped.
  // A mapping with access kNone refuses copies (Find) and is left out of the
  // kernel hosts' address spaces (MappingsOf); any other flags leave it
  // readable and writable, and GetAccess() reports them back.
  absl::Status SetAccess(uint64_t owner, uint64_t address, uint64_t size, Access access)
      ABSL_LOCKS_EXCLUDED(mu_);
  struct AccessInfo {
    int device_id;
    Access access;
  };
  absl::StatusOr<AccessInfo> GetAccess(uint64_t owner, uint64_t address) const
      ABSL_LOCKS_EXCLUDED(mu_);

  // The physical memory mapped at `address` (anywhere inside a mapping of
  // `owner`).
  absl::StatusOr<std::shared_ptr<PhysicalMemory>> MemoryAt(uint64_t owner, uint64_t address) const
      ABSL_LOCKS_EXCLUDED(mu_);

  // Pins [address, address + size) if it lies inside one mapping of
  // `owner`. kRtIpcError if the physical memory behind it was revoked,
  // kRtParamInvalid if the mapping has no access.
  absl::StatusOr<DeviceRange> Find(uint64_t owner, uint64_t address, uint64_t size) const
      ABSL_LOCKS_EXCLUDED(mu_);

  // The live mappings of `owner` that have access (for mapping the same
  // memory elsewhere: its kernel host).
  struct MappedRange {
    uint64_t address;
    uint64_t size;
    uint64_t offset;  // into memory->fd()
    std::shared_ptr<PhysicalMemory> memory;
  };
  std::vector<MappedRange> MappingsOf(uint64_t owner) const ABSL_LOCKS_EXCLUDED(mu_);
  // Changes whenever a mapping is added or removed or its access turns on
  // or off: lets callers skip
  // recomputing MappingsOf().
  uint64_t generation() const { return generation_.load(); }

  // Like DeviceMemory::SetReleaseObserver: called with every mapping whose
  // last pin went, before its range is fenced. Set once, before mapping.
  void SetReleaseObserver(std::function<void(uint64_t address, uint64_t size)> observer) {
    release_observer_ = std::move(observer);
  }

  // Drops every reservation and mapping of `owner`.
  void ReleaseAll(uint64_t owner) ABSL_LOCKS_EXCLUDED(mu_);

  // For the admin view and tests.
  struct Usage {
    uint64_t reserved_bytes = 0;
    uint64_t mapped_bytes = 0;
  };
  Usage UsageOf(uint64_t owner) const ABSL_LOCKS_EXCLUDED(mu_);

 private:
  class Span;
  class Mapping;
  struct Lingering {
    uint64_t address;
    uint64_t size;
    std::weak_ptr<Mapping> mapping;
  };
  struct Reservation {
    uint64_t owner;
    uint64_t size;
    std::shared_ptr<Span> span;
    // Live mappings by start address.
    std::map<uint64_t, std::shared_ptr<Mapping>> mappings;
    // Unmapped, but still pinned by queued work.
    std::vector<Lingering> lingering;
  };

  VirtualAddressSpace(uint64_t base, uint64_t span);

  // The reservation of `owner` that contains [address, address + size), or
  // an error naming the problem.
  absl::StatusOr<Reservation*> Lookup(uint64_t owner, uint64_t address, uint64_t size) const
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  // The live mapping of `reservation` that contains [address, address +
  // size), or an error.
  static absl::StatusOr<const std::shared_ptr<Mapping>*> MappingAt(const Reservation& reservation,
                                                                   uint64_t address, uint64_t size);
  // The same in whichever reservation of `owner` holds the range.
  absl::StatusOr<const std::shared_ptr<Mapping>*> MappingOf(uint64_t owner, uint64_t address,
                                                            uint64_t size) const
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  // Called by ~Span.
  void ReturnRange(uint64_t address, uint64_t size) ABSL_LOCKS_EXCLUDED(mu_);

  const uint64_t base_;
  const uint64_t span_;
  std::function<void(uint64_t, uint64_t)> release_observer_;
  std::atomic<uint64_t> generation_{0};

  mutable absl::Mutex mu_;
  RangeAllocator ranges_ ABSL_GUARDED_BY(mu_);
  // Mutable so const lookups can share Lookup().
  mutable std::map<uint64_t, Reservation> reservations_ ABSL_GUARDED_BY(mu_);
};

}  // namespace npud::sim

#endif  // NPUD_SIMDEVICE_VIRTUAL_ADDRESS_SPACE_H_

// device_memory.h
//
// DeviceMemory: the HBM of one simulated device.
//
// One virtual address range is reserved per device (PROT_NONE, costing
// nothing), so the numeric addresses handed to clients are stable and are
// real pointers inside npud. Each allocation is page aligned and is a memory
// file of its own (memfd, sealed against resizing) mapped shared at its
// address, so the same bytes can be mapped at the same addresses in a kernel
// host process (see simdevice/executor/) by handing it that file — which
// holds that allocation and nothing else. The pages between allocations (at
// least one guard page) stay PROT_NONE, so an out-of-bounds access faults
// instead of corrupting a neighbour. Freed ranges are first withdrawn from
// whoever else maps them (the release observer), then unmapped; the file,
// and so every byte of the allocation, goes with the last reference to it.
//
// Each live allocation holds one descriptor of npud's: allocations fail
// (207001) when npud runs out of descriptors.
//
// Addresses are handed out next-fit (see RangeAllocator), so stale pointers
// miss new owners' data for as long as possible.
//
// Thread-safe. Blocks must not outlive their DeviceMemory.

#ifndef NPUD_SIMDEVICE_DEVICE_MEMORY_H_
#define NPUD_SIMDEVICE_DEVICE_MEMORY_H_

#include <cstdint>
#include <functional>
#include <map>
#include <memory>

#include "absl/base/thread_annotations.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"
#include "simdevice/host_memory_budget.h"
#include "simdevice/range_allocator.h"

namespace npud::sim {

class DeviceMemory {
 public:
  static constexpr uint64_t kPageSize = 4096;

  // One allocation. Holding a reference pins it: Free() makes it
  // unfindable at once, but its pages are released (and its bytes returned
  // to the free count) only when the last reference is dropped, so a task
  // that validated a range can never touch unmapped memory.
  class Block {
   public:
    Block(DeviceMemory* owner, uint64_t address, uint64_t size, uint64_t reserved, int fd)
        : owner_(owner), address_(address), size_(size), reserved_(reserved), fd_(fd) {}
    ~Block();
    Block(const Block&) = delete;
    Block& operator=(const Block&) = delete;

    uint64_t address() const { return address_; }
    // Size the caller asked for.
    uint64_t size() const { return size_; }
    // Size accounted against capacity (page rounded).
    uint64_t reserved() const { return reserved_; }
    uint8_t* data() const { return reinterpret_cast<uint8_t*>(address_); }
    // The memory file of this allocation (`reserved` bytes; owned).
    int fd() const { return fd_; }

   private:
    DeviceMemory* const owner_;
    const uint64_t address_;
    const uint64_t size_;
    const uint64_t reserved_;
    const int fd_;
  };
  using BlockRef = std::shared_ptr<const Block>;

  // Reserves address space for `capacity` bytes of device memory (plus room
  // for guard gaps), at `preferred_base` if that range is free, else where
  // the kernel puts it. Fails if the address space cannot be reserved.
  // Allocations also take their bytes from `budget` (shared by all devices;
  // may be null), which must outlive this object.
  static absl::StatusOr<std::unique_ptr<DeviceMemory>> Create(uint64_t capacity,
                                                              uint64_t preferred_base = 0,
                                                              HostMemoryBudget* budget = nullptr);

  // Address space one device needs for `capacity` bytes.
  static uint64_t SpanFor(uint64_t capacity);

  ~DeviceMemory();
  DeviceMemory(const DeviceMemory&) = delete;
  DeviceMemory& operator=(const DeviceMemory&) = delete;

  // Allocates `size` bytes (> 0). Returns the device address, or
  // kRtMemoryAllocation when the capacity would be exceeded.
  absl::StatusOr<uint64_t> Allocate(uint64_t size) ABSL_LOCKS_EXCLUDED(mu_);

  // Frees the allocation starting exactly at `address` (see Block for when
  // the memory is really released).
  absl::Status Free(uint64_t address) ABSL_LOCKS_EXCLUDED(mu_);

  // Counts `bytes` of memory that lives outside the address range (physical
  // memory, see PhysicalMemory) against the capacity, or fails with
  // kRtMemoryAllocation when it does not fit. Uncharge gives them back.
  absl::Status Charge(uint64_t bytes) ABSL_LOCKS_EXCLUDED(mu_);
  void Uncharge(uint64_t bytes) ABSL_LOCKS_EXCLUDED(mu_);

  // Number of live (not yet freed) allocations.
  size_t allocation_count() const ABSL_LOCKS_EXCLUDED(mu_);

  // The allocation that contains the whole range [address, address + size),
  // pinned for as long as the caller holds the reference, or kRtParamInvalid
  // naming the problem.
  absl::StatusOr<BlockRef> Find(uint64_t address, uint64_t size) const ABSL_LOCKS_EXCLUDED(mu_);

  // True if `address` lies in this device's reservation (allocated or not).
  bool InRange(uint64_t address) const { return address >= base_ && address < base_ + span_; }

  // Called with (address, page-rounded size) of every allocation whose last
  // reference went, before its pages are dropped and the range can be
  // handed out again; must return only once no other process maps it. Set
  // once, before the first allocation.
  using ReleaseObserver = std::function<void(uint64_t address, uint64_t size)>;
  void SetReleaseObserver(ReleaseObserver observer) { release_observer_ = std::move(observer); }

  uint64_t capacity() const { return capacity_; }
  uint64_t base() const { return base_; }
  uint64_t span() const { return span_; }
  uint64_t used_bytes() const ABSL_LOCKS_EXCLUDED(mu_);
  // The most used_bytes() has been.
  uint64_t peak_used_bytes() const ABSL_LOCKS_EXCLUDED(mu_);

 private:
  DeviceMemory(uint64_t base, uint64_t span, uint64_t capacity, HostMemoryBudget* budget);
  // Takes `bytes` from the host budget, or kRtMemoryAllocation.
  absl::Status TakeFromBudget(uint64_t bytes);

  // Called by ~Block: unmaps the pages, closes the file and returns the
  // range.
  void Release(uint64_t address, uint64_t reserved, int fd) ABSL_LOCKS_EXCLUDED(mu_);

  // Constant after construction.
  const uint64_t base_;
  const uint64_t span_;
  const uint64_t capacity_;
  HostMemoryBudget* const budget_;
  ReleaseObserver release_observer_;

  mutable absl::Mutex mu_;
  // Live allocations by start address.
  std::map<uint64_t, BlockRef> allocations_ ABSL_GUARDED_BY(mu_);
  // Address ranges; each allocation takes its pages plus a guard page.
  RangeAllocator ranges_ ABSL_GUARDED_BY(mu_);
  uint64_t used_ ABSL_GUARDED_BY(mu_) = 0;
  uint64_t peak_ ABSL_GUARDED_BY(mu_) = 0;
};

}  // namespace npud::sim

#endif  // NPUD_SIMDEVICE_DEVICE_MEMORY_H_

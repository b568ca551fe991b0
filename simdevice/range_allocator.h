// range_allocator.h
//
// RangeAllocator: hands out sub-ranges of one address range, next-fit.
//
// A freed range is reused only after the cursor has gone round the whole
// space, which keeps stale pointers from silently hitting a new owner's data
// for as long as possible. Free ranges are coalesced.
//
// Not thread-safe: the owner (DeviceMemory, VirtualAddressSpace) locks.

#ifndef NPUD_SIMDEVICE_RANGE_ALLOCATOR_H_
#define NPUD_SIMDEVICE_RANGE_ALLOCATOR_H_

#include <cstdint>
#include <map>

namespace npud::sim {

class RangeAllocator {
 public:
  // Manages [base, base + size).
  RangeAllocator(uint64_t base, uint64_t size);

  // Takes `length` bytes starting at a multiple of `alignment` (a power of
  // two), at or after the cursor, wrapping once. Returns 0 if none is free.
  uint64_t Take(uint64_t length, uint64_t alignment);
  // Takes exactly [address, address + length) if all of it is free.
  bool TakeAt(uint64_t address, uint64_t length);
  // Gives back a range taken before.
  void Return(uint64_t address, uint64_t length);

 private:
  // Carves [at, at + length) out of the free range starting at `it`.
  void Carve(std::map<uint64_t, uint64_t>::iterator it, uint64_t at, uint64_t length);

  // Free ranges (start -> length).
  std::map<uint64_t, uint64_t> free_;
  uint64_t cursor_;
};

}  // namespace npud::sim

#endif  // NPUD_SIMDEVICE_RANGE_ALLOCATOR_H_

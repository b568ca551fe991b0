// device_range.h
//
// DeviceRange: a validated range of device memory, pinned for as long as the
// range is held: the allocation (DeviceMemory::Block) or mapping
// (VirtualAddressSpace) behind it stays in place even if its owner frees or
// unmaps it meanwhile.

#ifndef NPUD_SIMDEVICE_DEVICE_RANGE_H_
#define NPUD_SIMDEVICE_DEVICE_RANGE_H_

#include <cstdint>
#include <memory>

namespace npud::sim {

struct DeviceRange {
  std::shared_ptr<const void> pin;
  int device_id = -1;
  uint64_t address = 0;
  uint64_t size = 0;
  // Start and size of the allocation or mapping that holds the range.
  uint64_t base = 0;
  uint64_t extent = 0;
  // The memory file that holds [base, base + extent) and nothing of any
  // other allocation (another process may map it), and where base lies in
  // it; -1 when there is none. Owned by what `pin` holds.
  int fd = -1;
  uint64_t fd_offset = 0;

  uint8_t* data() const { return reinterpret_cast<uint8_t*>(address); }
  // Where `at` (inside the memory file's part of the address range) lies in
  // the memory file.
  uint64_t FileOffsetOf(uint64_t at) const { return fd_offset + (at - base); }
};

}  // namespace npud::sim

#endif  // NPUD_SIMDEVICE_DEVICE_RANGE_H_

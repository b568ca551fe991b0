// device_range.h
//
// DeviceRange: a validated range of device memory, pinned (see
// DeviceMemory::Block) for as long as the range is held.

#ifndef NPUD_SIMDEVICE_DEVICE_RANGE_H_
#define NPUD_SIMDEVICE_DEVICE_RANGE_H_

#include <cstdint>

#include "simdevice/device_memory.h"

namespace npud::sim {

struct DeviceRange {
  DeviceMemory::BlockRef block;
  int device_id = -1;
  uint64_t address = 0;
  uint64_t size = 0;

  uint8_t* data() const { return reinterpret_cast<uint8_t*>(address); }
};

}  // namespace npud::sim

#endif  // NPUD_SIMDEVICE_DEVICE_RANGE_H_

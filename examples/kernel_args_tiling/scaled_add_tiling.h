// The tiling data scaled_add reads through its placeholder argument; shared
// by the kernel and the host program.
#ifndef SCALED_ADD_TILING_H_
#define SCALED_ADD_TILING_H_

#include <cstdint>

struct ScaledAddTiling {
  uint32_t total;  // elements in all
  uint32_t tile;   // elements per step; a multiple of 8 (32 bytes)
  float scale;
};

#endif  // SCALED_ADD_TILING_H_

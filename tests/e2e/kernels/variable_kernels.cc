// Kernels with device variables, for device_variables_test. The variables are
// written as npud-ascendc-scan's source pass marks `__gm__ uint32_t launches = 5;`
// and `__gm__ float bias[4];` (variable_markers.h), so this object gets them
// without the scanner.

#include <cstdint>

#include "kernel_operator.h"
#include "npud_ascendc/device_variables.h"

NPUD_GM_BEGIN(launches) __gm__ uint32_t launches = 5; NPUD_GM_END(launches);
NPUD_GM_BEGIN(bias) __gm__ float bias[4] = {0.5f, 1.5f, 2.5f, 3.5f}; NPUD_GM_END(bias);

// out[i] = bias[i] for the four blocks; block 0 counts the launch.
extern "C" __global__ __aicore__ void read_bias(GM_ADDR out) {
  reinterpret_cast<__gm__ float*>(out)[block_idx] = bias[block_idx];
  if (block_idx == 0) launches = launches + 1;
}

NPUD_KERNEL_REGISTER(read_bias);

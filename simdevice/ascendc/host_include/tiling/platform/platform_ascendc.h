// <root>/include/tiling/platform/platform_ascendc.h: where CANN's host programs
// include PlatformAscendC from (-I<root>/include). The header itself lives with
// the AscendC toolchain's (tikcpp/ascendc_kernel_cmake/include), beside the
// workspace constant it shares with the kernels; this file only leads there,
// so that host code and kernels read one definition.
#ifndef NPUD_HOST_TILING_PLATFORM_PLATFORM_ASCENDC_H_
#define NPUD_HOST_TILING_PLATFORM_PLATFORM_ASCENDC_H_

#include "../../../tikcpp/ascendc_kernel_cmake/include/tiling/platform/platform_ascendc.h"

#endif  // NPUD_HOST_TILING_PLATFORM_PLATFORM_ASCENDC_H_

// tikicpulib.h: CANN's CPU-debug header for host programs built together with their
// kernels (under ASCENDC_CPU_DEBUG): the AscendC kernel API plus GmAlloc, GmFree,
// SetKernelMode, ICPU_SET_TILING_KEY and ICPU_RUN_KF (npud_ascendc/cpu_debug.h).
#ifndef NPUD_TIKICPULIB_H_
#define NPUD_TIKICPULIB_H_

#include "kernel_operator.h"
#include "npud_ascendc/cpu_debug.h"

#endif  // NPUD_TIKICPULIB_H_

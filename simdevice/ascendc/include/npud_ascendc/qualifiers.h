// qualifiers.h: AscendC keywords, address-space qualifiers and compile-time builtins.
//
// On the CPU every function and address-space qualifier means nothing (as in upstream's
// CPU debug mode): GM is ordinary memory shared by all blocks, so `__gm__ T*` is a
// plain host pointer. Consequence, also as upstream: two functions that differ only in
// these qualifiers are redefinitions.
#ifndef NPUD_ASCENDC_QUALIFIERS_H_
#define NPUD_ASCENDC_QUALIFIERS_H_

#include <cstdint>

// Function qualifiers.
#define __global__
#define __aicore__
#define __vector__
#define __cube__
#define __mix__(cube_num, vector_num)
#define __host_aicore__
#define __inout_pipe__(pipe)
#define __in_pipe__(pipe)
#define __out_pipe__(pipe)
#define __sync_alias__
#define __sync_in__
#define __sync_out__

// Address-space qualifiers.
#define __gm__
#define __ubuf__
#define __cbuf__
#define __ca__
#define __cb__
#define __cc__
#define __fbuf__
#define __ssbuf__

#define GM_ADDR __gm__ uint8_t*

// Architecture: Ascend910B (dav-2201) unless the build selects another.
#ifndef __NPU_ARCH__
#define __NPU_ARCH__ 2201
#endif

// Kernel type tags accepted by KERNEL_TASK_TYPE_DEFAULT / KERNEL_TASK_TYPE. The
// kernel scanner reads a kernel's KERNEL_TASK_TYPE_DEFAULT into its registration
// (its core type; scanner/kernel_scan.cc), so here the macros only have to compile.
enum KernelMetaType : uint8_t {
  KERNEL_TYPE_AIV_ONLY,
  KERNEL_TYPE_AIC_ONLY,
  KERNEL_TYPE_MIX_AIV_1_0,
  KERNEL_TYPE_MIX_AIC_1_0,
  KERNEL_TYPE_MIX_AIC_1_1,
  KERNEL_TYPE_MIX_AIC_1_2,
  KERNEL_TYPE_AICORE,
  KERNEL_TYPE_VECTORCORE,
  KERNEL_TYPE_MIX_AICORE,
  KERNEL_TYPE_MIX_VECTOR_CORE,
  KERNEL_TYPE_MAX,
};
#define KERNEL_TASK_TYPE_DEFAULT(type) static_cast<void>(type)
#define KERNEL_TASK_TYPE(key, type) (static_cast<void>(key), static_cast<void>(type))

// Data-cache maintenance (needed on 3510 after scalar GM stores). GM is coherent host
// memory here, so dcci does nothing.
enum cache_line_t { SINGLE_CACHE_LINE = 0, ENTIRE_DATA_CACHE };
enum dcci_dst_t { CACHELINE_ALL = 0, CACHELINE_UB, CACHELINE_OUT, CACHELINE_ATOMIC };
template <class T>
inline void dcci(__gm__ T* /*addr*/, cache_line_t /*entire*/) {}
template <class T>
inline void dcci(__gm__ T* /*addr*/, cache_line_t /*entire*/, dcci_dst_t /*dst*/) {}

#endif  // NPUD_ASCENDC_QUALIFIERS_H_

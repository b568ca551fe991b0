// utils/debug/asc_printf.h: plain `printf` in kernels, as CANN 9 sources write it
// (`__global__ void hello() { printf("Hello\n"); }`).
//
// In the kernel object (the device half of a source, NPUD_ASCENDC_DEVICE_HALF) a
// printf prints through the running block, like AscendC::printf, with the prefix
// CANN 9 shows: "[AIV Block <idx>/<num>] " (AIC for cube kernels); AscendC::printf
// does the same in a source that includes this header. The host half
// keeps the C library's printf: its kernel bodies never run, and its host code
// prints to stdout as written. The device half's host code is dead code that
// --gc-sections drops, so which printf it would call does not matter.
#ifndef NPUD_UTILS_DEBUG_ASC_PRINTF_H_
#define NPUD_UTILS_DEBUG_ASC_PRINTF_H_

#include <cstdarg>
#include <cstdio>
#include <type_traits>

#include "npud_ascendc/printf.h"

#if defined(NPUD_ASCENDC_DEVICE_HALF)

namespace npud::ascendc {

// Formats one printf of a block with CANN 9's prefix and emits it whole.
inline void EmitPrefixed(const char* fmt, ...) {
  TextBuffer text;
  if (const NpudBlockContext* ctx = Context(); ctx != nullptr) {
    text.Append("[%s Block %u/%u] ", ctx->core_type == NPUD_CORE_TYPE_CUBE ? "AIC" : "AIV",
                ctx->block_idx, ctx->block_num);
  }
  va_list ap;
  va_start(ap, fmt);
  text.VAppend(fmt, ap);
  va_end(ap);
  text.Emit();
}

}  // namespace npud::ascendc

// Arguments as AscendC::printf passes them (half and bfloat16_t as double).
template <class... Args>
void npud_asc_printf(const char* fmt, Args&&... args) {
  if constexpr (::npud::ascendc::kDeviceOutput) {
    ::npud::ascendc::EmitPrefixed(fmt, ::npud::ascendc::PrintfArg<std::decay_t<Args>>(args)...);
  }
}

namespace AscendC {
using ::npud_asc_printf;
}  // namespace AscendC

namespace std {
using ::npud_asc_printf;
}  // namespace std

#define printf npud_asc_printf

#endif  // NPUD_ASCENDC_DEVICE_HALF

#endif  // NPUD_UTILS_DEBUG_ASC_PRINTF_H_

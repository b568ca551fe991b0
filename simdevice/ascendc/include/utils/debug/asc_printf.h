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
#include <string>
#include <type_traits>

#include "npud_ascendc/printf.h"

#if defined(NPUD_ASCENDC_DEVICE_HALF)

namespace npud::ascendc {

// Formats one printf of a block with CANN 9's prefix and emits it whole.
inline void EmitPrefixed(const char* fmt, ...) {
  std::string text;
  if (const NpudBlockContext* ctx = Context(); ctx != nullptr) {
    char prefix[64];  // (not std::to_string: its digit table would be an exported symbol)
    std::snprintf(prefix, sizeof(prefix), "[%s Block %u/%u] ",
                  ctx->core_type == NPUD_CORE_TYPE_CUBE ? "AIC" : "AIV", ctx->block_idx,
                  ctx->block_num);
    text = prefix;
  }
  va_list ap;
  va_start(ap, fmt);
  va_list again;
  va_copy(again, ap);
  const int n = std::vsnprintf(nullptr, 0, fmt, ap);
  va_end(ap);
  if (n > 0) {
    const std::size_t start = text.size();
    text.resize(start + static_cast<std::size_t>(n) + 1);
    std::vsnprintf(&text[start], static_cast<std::size_t>(n) + 1, fmt, again);
    text.resize(start + static_cast<std::size_t>(n));
  }
  va_end(again);
  EmitText(text.data(), text.size());
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

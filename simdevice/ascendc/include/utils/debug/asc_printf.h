// utils/debug/asc_printf.h: plain `printf` in kernels, as CANN 9 sources write it
// (`__global__ void hello() { printf("Hello\n"); }`).
//
// In the kernel object (the device half of a source, NPUD_ASCENDC_DEVICE_HALF) a
// printf prints through the running block, like AscendC::printf, with the prefix
// CANN 9 shows: "[AIV Block <idx>/<num>] " (AIC for cube kernels). The host half
// keeps the C library's printf: its kernel bodies never run, and its host code
// prints to stdout as written. The device half's host code is dead code that
// --gc-sections drops, so which printf it would call does not matter.
#ifndef NPUD_UTILS_DEBUG_ASC_PRINTF_H_
#define NPUD_UTILS_DEBUG_ASC_PRINTF_H_

#include <cstdarg>
#include <cstdio>
#include <string>

#include "npud_ascendc/printf.h"

#if defined(NPUD_ASCENDC_DEVICE_HALF)

inline int npud_asc_printf(const char* fmt, ...) {
  std::string text;
  if (const NpudBlockContext* ctx = ::npud::ascendc::Context(); ctx != nullptr) {
    text = "[";
    text += ctx->core_type == NPUD_CORE_TYPE_CUBE ? "AIC" : "AIV";
    text +=
        " Block " + std::to_string(ctx->block_idx) + "/" + std::to_string(ctx->block_num) + "] ";
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
  if constexpr (::npud::ascendc::kDeviceOutput) ::npud::ascendc::EmitText(text.data(), text.size());
  return n;
}

namespace std {
using ::npud_asc_printf;
}  // namespace std

#define printf npud_asc_printf

#endif  // NPUD_ASCENDC_DEVICE_HALF

#endif  // NPUD_UTILS_DEBUG_ASC_PRINTF_H_

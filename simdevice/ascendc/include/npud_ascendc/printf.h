// printf.h: device-side printf and DumpTensor.
//
// AscendC::printf(fmt, args...) (and its alias PRINTF) formats exactly as C printf
// (vsnprintf) and hands the text of each call, whole, to the block's print callback
// (NpudBlockContext::print): no prefix, no added newline, never split, so blocks
// printing concurrently cannot interleave within a call. half and bfloat16_t
// arguments are promoted to double, so print them with %f like any float. Outside a
// kernel entry the text goes to stdout. Compiling with ASCENDC_DUMP=0 turns printf and
// DumpTensor into no-ops, as upstream.
//
// DumpTensor(tensor, desc, dumpSize) prints a header line
//   DumpTensor: desc=<desc>, addr=<hex offset in UB, or GM address>, data_type=<type>,
//   position=<position>, dump_size=<n>
// followed by "[v0, v1, ...]" with the first dumpSize elements (floats as %f).
#ifndef NPUD_ASCENDC_PRINTF_H_
#define NPUD_ASCENDC_PRINTF_H_

#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <type_traits>
#include <utility>

#include "npud_ascendc/block_context.h"
#include "npud_ascendc/numeric.h"
#include "npud_ascendc/tensor.h"
#include "npud_ascendc/visibility.h"

namespace npud::ascendc {

#if defined(ASCENDC_DUMP) && ASCENDC_DUMP == 0
NPUD_ASCENDC_HIDDEN inline constexpr bool kDeviceOutput = false;
#else
NPUD_ASCENDC_HIDDEN inline constexpr bool kDeviceOutput = true;
#endif

inline void EmitText(const char* text, size_t len) {
  const NpudBlockContext* ctx = Context();
  if (ctx != nullptr && ctx->print != nullptr) {
    ctx->print(ctx->host, text, len);
  } else {
    std::fwrite(text, 1, len, stdout);
  }
}

// vsnprintf into a stack buffer, or a heap one for long output, then EmitText.
inline void VEmitFormatted(const char* fmt, va_list ap) {
  char small[512];
  va_list again;
  va_copy(again, ap);
  const int n = std::vsnprintf(small, sizeof(small), fmt, ap);
  if (n >= 0 && static_cast<size_t>(n) < sizeof(small)) {
    EmitText(small, static_cast<size_t>(n));
  } else if (n >= 0) {
    char* big = static_cast<char*>(std::malloc(static_cast<size_t>(n) + 1));
    if (big != nullptr) {
      std::vsnprintf(big, static_cast<size_t>(n) + 1, fmt, again);
      EmitText(big, static_cast<size_t>(n));
      std::free(big);
    }
  }
  va_end(again);
}

inline void EmitFormatted(const char* fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  VEmitFormatted(fmt, ap);
  va_end(ap);
}

// What each printf argument is passed to vsnprintf as.
template <class A>
auto PrintfArg(A value) {
  if constexpr (kIsReduced<A>) {
    return static_cast<double>(static_cast<float>(value));
  } else if constexpr (std::is_enum_v<A>) {
    return static_cast<std::underlying_type_t<A>>(value);
  } else {
    static_assert(std::is_arithmetic_v<A> || std::is_pointer_v<A> || std::is_null_pointer_v<A>,
                  "AscendC::printf takes numbers, half/bfloat16_t, pointers and strings");
    return value;
  }
}

// Text accumulated for one DumpTensor call (emitted whole).
class TextBuffer {
 public:
  TextBuffer() = default;
  ~TextBuffer() { std::free(data_); }
  TextBuffer(const TextBuffer&) = delete;
  TextBuffer& operator=(const TextBuffer&) = delete;

  void Append(const char* fmt, ...) __attribute__((format(printf, 2, 3))) {
    va_list ap;
    va_start(ap, fmt);
    VAppend(fmt, ap);
    va_end(ap);
  }
  void VAppend(const char* fmt, va_list ap) {
    va_list again;
    va_copy(again, ap);
    const int n = std::vsnprintf(nullptr, 0, fmt, ap);
    if (n > 0 && Reserve(len_ + static_cast<size_t>(n) + 1)) {
      std::vsnprintf(data_ + len_, static_cast<size_t>(n) + 1, fmt, again);
      len_ += static_cast<size_t>(n);
    }
    va_end(again);
  }
  void Emit() const {
    if (len_ != 0) EmitText(data_, len_);
  }

 private:
  bool Reserve(size_t need) {
    if (need <= cap_) return true;
    size_t cap = cap_ == 0 ? 256 : cap_;
    while (cap < need) cap *= 2;
    char* grown = static_cast<char*>(std::realloc(data_, cap));
    if (grown == nullptr) return false;
    data_ = grown;
    cap_ = cap;
    return true;
  }

  char* data_ = nullptr;
  size_t len_ = 0;
  size_t cap_ = 0;
};

template <class T>
void AppendValue(TextBuffer& out, T v) {
  if constexpr (kIsFloating<T>) {
    out.Append("%f", static_cast<double>(static_cast<float>(v)));
  } else if constexpr (std::is_signed_v<T>) {
    out.Append("%lld", static_cast<long long>(v));
  } else {
    out.Append("%llu", static_cast<unsigned long long>(v));
  }
}

template <class T>
void Dump(const T* data, uint64_t addr, const char* position, uint32_t desc, uint32_t count) {
  TextBuffer out;
  out.Append("DumpTensor: desc=%u, addr=%llx, data_type=%s, position=%s, dump_size=%u\n[", desc,
             static_cast<unsigned long long>(addr), TypeName<T>(), position, count);
  for (uint32_t i = 0; i < count; ++i) {
    if (i != 0) out.Append(", ");
    AppendValue(out, data[i]);
  }
  out.Append("]\n");
  out.Emit();
}

}  // namespace npud::ascendc

namespace AscendC {

template <class... Args>
void printf(__gm__ const char* fmt, Args&&... args) {
  if constexpr (::npud::ascendc::kDeviceOutput) {
    ::npud::ascendc::EmitFormatted(fmt, ::npud::ascendc::PrintfArg<std::decay_t<Args>>(args)...);
  } else {
    static_cast<void>(fmt);
    (static_cast<void>(args), ...);
  }
}

template <class... Args>
void PRINTF(__gm__ const char* fmt, Args&&... args) {
  AscendC::printf(fmt, std::forward<Args>(args)...);
}

template <class T>
void DumpTensor(const LocalTensor<T>& tensor, uint32_t desc, uint32_t dumpSize) {
  if constexpr (::npud::ascendc::kDeviceOutput) {
    const uint32_t n = dumpSize < tensor.GetSize() ? dumpSize : tensor.GetSize();
    const NpudBlockContext* ctx = ::npud::ascendc::Context();
    uint64_t addr = tensor.GetPhyAddr();
    if (ctx != nullptr && addr >= reinterpret_cast<uint64_t>(ctx->ub_base) &&
        addr < reinterpret_cast<uint64_t>(ctx->ub_base) + ctx->ub_size) {
      addr -= reinterpret_cast<uint64_t>(ctx->ub_base);
    }
    ::npud::ascendc::Dump(tensor.Data(), addr, PositionName(tensor.Position()), desc, n);
  } else {
    static_cast<void>(tensor);
    static_cast<void>(desc);
    static_cast<void>(dumpSize);
  }
}

template <class T>
void DumpTensor(const GlobalTensor<T>& tensor, uint32_t desc, uint32_t dumpSize) {
  if constexpr (::npud::ascendc::kDeviceOutput) {
    ::npud::ascendc::Dump(tensor.GetPhyAddr(), reinterpret_cast<uint64_t>(tensor.GetPhyAddr()),
                          "GM", desc, dumpSize);
  } else {
    static_cast<void>(tensor);
    static_cast<void>(desc);
    static_cast<void>(dumpSize);
  }
}

// The shape argument only changes upstream's layout of the dump; it is ignored here.
template <class T, class Shape>
void DumpTensor(const LocalTensor<T>& tensor, uint32_t desc, uint32_t dumpSize,
                const Shape& /*shape*/) {
  DumpTensor(tensor, desc, dumpSize);
}
template <class T, class Shape>
void DumpTensor(const GlobalTensor<T>& tensor, uint32_t desc, uint32_t dumpSize,
                const Shape& /*shape*/) {
  DumpTensor(tensor, desc, dumpSize);
}

}  // namespace AscendC

#endif  // NPUD_ASCENDC_PRINTF_H_

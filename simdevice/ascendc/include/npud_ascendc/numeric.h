// numeric.h: how the vector unit computes on each element type.
//
// half and bfloat16_t are computed in float and rounded back to nearest-even after
// every operation (one rounding per instruction, as the hardware does). float is
// computed in float. Integer arithmetic wraps modulo 2^bits (computed unsigned, so it
// is never undefined behaviour). The CTRL register's saturation bits
// (ctrl_register.h, SetSaturationFlag) change that: half/bfloat16_t results saturate
// (inf to the largest finite value, NaN to 0), integer + - * saturate.
#ifndef NPUD_ASCENDC_NUMERIC_H_
#define NPUD_ASCENDC_NUMERIC_H_

#include <cstdint>
#include <type_traits>

#include <cmath>
#include <limits>

#include "npud_ascendc/bf16.h"
#include "npud_ascendc/block_context.h"
#include "npud_ascendc/fp16.h"

namespace npud::ascendc {

template <class T>
inline constexpr bool kIsReduced = std::is_same_v<T, half> || std::is_same_v<T, bfloat16_t>;
template <class T>
inline constexpr bool kIsFloating = std::is_floating_point_v<T> || kIsReduced<T>;
template <class T>
inline constexpr bool kIsVectorType = kIsFloating<T> || std::is_integral_v<T>;

// The type an element is computed in.
template <class T>
using ComputeOf = std::conditional_t<kIsReduced<T>, float, T>;

template <class T>
inline ComputeOf<T> Widen(T v) {
  return static_cast<ComputeOf<T>>(v);
}
// The CTRL register's saturation modes (block_context.h's BlockState::ctrl).
inline bool FloatSaturation() { return ((tls_block.ctrl >> 48) & 1) == 0; }
inline bool IntSaturation() { return ((tls_block.ctrl >> 53) & 1) != 0; }
inline bool CastTruncation() { return ((tls_block.ctrl >> 59) & 1) != 0; }

// A half or bfloat16_t result in saturation mode: inf to the largest finite value of
// its sign, NaN to 0.
template <class T>
inline T SaturateReduced(T r) {
  const float f = static_cast<float>(r);
  if (std::isnan(f)) return T(0.0f);
  if (!std::isinf(f)) return r;
  constexpr uint16_t kMax = std::is_same_v<T, half> ? 0x7BFF : 0x7F7F;  // largest finite
  return T::FromBits(static_cast<uint16_t>(f > 0 ? kMax : kMax | 0x8000));
}

template <class T>
inline T Narrow(ComputeOf<T> v) {
  if constexpr (kIsReduced<T>) {
    const T r = T(v);
    return FloatSaturation() ? SaturateReduced(r) : r;
  } else {
    return T(v);
  }
}

// Integer + - * clamped to T's range (the integer saturation mode).
template <class T>
inline T SatAdd(T a, T b) {
  T r;
  if (!__builtin_add_overflow(a, b, &r)) return r;
  return b > 0 ? std::numeric_limits<T>::max() : std::numeric_limits<T>::min();
}
template <class T>
inline T SatSub(T a, T b) {
  T r;
  if (!__builtin_sub_overflow(a, b, &r)) return r;
  return b < 0 ? std::numeric_limits<T>::max() : std::numeric_limits<T>::min();
}
template <class T>
inline T SatMul(T a, T b) {
  T r;
  if (!__builtin_mul_overflow(a, b, &r)) return r;
  return (a < 0) != (b < 0) ? std::numeric_limits<T>::min() : std::numeric_limits<T>::max();
}

// Integer + - * that wrap instead of overflowing.
template <class T>
inline T WrapAdd(T a, T b) {
  return static_cast<T>(static_cast<uint64_t>(a) + static_cast<uint64_t>(b));
}
template <class T>
inline T WrapSub(T a, T b) {
  return static_cast<T>(static_cast<uint64_t>(a) - static_cast<uint64_t>(b));
}
template <class T>
inline T WrapMul(T a, T b) {
  return static_cast<T>(static_cast<uint64_t>(a) * static_cast<uint64_t>(b));
}

template <class T>
inline T AddOf(T a, T b) {
  if constexpr (kIsFloating<T>) {
    return Narrow<T>(Widen(a) + Widen(b));
  } else {
    return WrapAdd(a, b);
  }
}
template <class T>
inline T MaxOf(T a, T b) {
  return Widen(a) < Widen(b) ? b : a;
}
template <class T>
inline T MinOf(T a, T b) {
  return Widen(b) < Widen(a) ? b : a;
}

// A printable name of the element type, as DumpTensor reports it.
template <class T>
inline const char* TypeName() {
  if constexpr (std::is_same_v<T, half>)
    return "float16";
  else if constexpr (std::is_same_v<T, bfloat16_t>)
    return "bfloat16";
  else if constexpr (std::is_same_v<T, float>)
    return "float32";
  else if constexpr (std::is_same_v<T, double>)
    return "float64";
  else if constexpr (std::is_same_v<T, bool>)
    return "bool";
  else if constexpr (std::is_integral_v<T> && std::is_signed_v<T>) {
    return sizeof(T) == 1 ? "int8" : sizeof(T) == 2 ? "int16" : sizeof(T) == 4 ? "int32" : "int64";
  } else if constexpr (std::is_integral_v<T>) {
    return sizeof(T) == 1   ? "uint8"
           : sizeof(T) == 2 ? "uint16"
           : sizeof(T) == 4 ? "uint32"
                            : "uint64";
  } else {
    return "unknown";
  }
}

}  // namespace npud::ascendc

#endif  // NPUD_ASCENDC_NUMERIC_H_

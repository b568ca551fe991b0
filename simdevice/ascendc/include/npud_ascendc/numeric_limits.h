// numeric_limits.h: NumericLimits<T>, the extreme and special values of an element
// type, as values (NumericLimits<half>::Max()) or filled into a tensor
// (NumericLimits<float>::Infinity(dst, count)). Integer types have Max, Lowest and
// Min; half, bfloat16_t and float all eight. Min is the smallest normal value.
#ifndef NPUD_ASCENDC_NUMERIC_LIMITS_H_
#define NPUD_ASCENDC_NUMERIC_LIMITS_H_

#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>

#include "npud_ascendc/bf16.h"
#include "npud_ascendc/fp16.h"
#include "npud_ascendc/tensor.h"
#include "npud_ascendc/vector_ops.h"

namespace npud::ascendc {

// The value of T with the bit pattern of binary16 `h`, bfloat16 `b` or binary32 `f`.
template <class T>
T FloatFromBits(uint16_t h, uint16_t b, uint32_t f) {
  if constexpr (std::is_same_v<T, half>) {
    return half::FromBits(h);
  } else if constexpr (std::is_same_v<T, bfloat16_t>) {
    return bfloat16_t::FromBits(b);
  } else {
    static_assert(std::is_same_v<T, float>, "NumericLimits: unsupported type");
    float v;
    std::memcpy(&v, &f, sizeof(v));
    return v;
  }
}

}  // namespace npud::ascendc

namespace AscendC {

template <class T>
struct NumericLimits {
  static T Max() {
    if constexpr (std::is_integral_v<T>) {
      return std::numeric_limits<T>::max();
    } else {
      return ::npud::ascendc::FloatFromBits<T>(0x7BFF, 0x7F7F, 0x7F7FFFFF);
    }
  }
  static T Lowest() {
    if constexpr (std::is_integral_v<T>) {
      return std::numeric_limits<T>::lowest();
    } else {
      return ::npud::ascendc::FloatFromBits<T>(0xFBFF, 0xFF7F, 0xFF7FFFFF);
    }
  }
  static T Min() {
    if constexpr (std::is_integral_v<T>) {
      return std::numeric_limits<T>::min();
    } else {
      return ::npud::ascendc::FloatFromBits<T>(0x0400, 0x0080, 0x00800000);
    }
  }
  static T Infinity() { return Float(0x7C00, 0x7F80, 0x7F800000); }
  static T NegativeInfinity() { return Float(0xFC00, 0xFF80, 0xFF800000); }
  static T QuietNaN() { return Float(0x7E00, 0x7FC0, 0x7FC00000); }
  static T SignalingNaN() { return Float(0x7D00, 0x7FA0, 0x7FA00000); }
  static T DeNormMin() { return Float(0x0001, 0x0001, 0x00000001); }

  static void Max(const LocalTensor<T>& dst, uint32_t count) { Fill(dst, Max(), count); }
  static void Lowest(const LocalTensor<T>& dst, uint32_t count) { Fill(dst, Lowest(), count); }
  static void Min(const LocalTensor<T>& dst, uint32_t count) { Fill(dst, Min(), count); }
  static void Infinity(const LocalTensor<T>& dst, uint32_t count) { Fill(dst, Infinity(), count); }
  static void NegativeInfinity(const LocalTensor<T>& dst, uint32_t count) {
    Fill(dst, NegativeInfinity(), count);
  }
  static void QuietNaN(const LocalTensor<T>& dst, uint32_t count) { Fill(dst, QuietNaN(), count); }
  static void SignalingNaN(const LocalTensor<T>& dst, uint32_t count) {
    Fill(dst, SignalingNaN(), count);
  }
  static void DeNormMin(const LocalTensor<T>& dst, uint32_t count) {
    Fill(dst, DeNormMin(), count);
  }

 private:
  static T Float(uint16_t h, uint16_t b, uint32_t f) {
    static_assert(!std::is_integral_v<T>, "integer types have Max, Lowest and Min only");
    return ::npud::ascendc::FloatFromBits<T>(h, b, f);
  }
  static void Fill(const LocalTensor<T>& dst, T value, uint32_t count) {
    Duplicate(dst, value, static_cast<int32_t>(count));
  }
};

}  // namespace AscendC

#endif  // NPUD_ASCENDC_NUMERIC_LIMITS_H_

// fp16.h: `half`, the AscendC 16-bit float: IEEE 754 binary16 storage (sizeof 2, the
// same bytes the host writes as aclFloat16/uint16_t).
//
// Conversions: from any arithmetic type by round-to-nearest-even (what the hardware and
// upstream's CPU fp16 do; overflow gives infinity), to float exactly. Arithmetic is done
// in float: `a + b` on two halves is a float, and storing it into a half rounds once,
// which equals the correctly rounded binary16 result for + - * / and sqrt (float keeps
// more than twice binary16's precision). The compound operators (+= ...) round back.
// There is deliberately no half-by-half operator+: with implicit conversions both
// ways it would make mixed `half + float` ambiguous.
#ifndef NPUD_ASCENDC_FP16_H_
#define NPUD_ASCENDC_FP16_H_

#include <cstdint>
#include <cstring>
#include <type_traits>

#include "npud_ascendc/float_format.h"

namespace npud::ascendc {

inline uint16_t FloatToHalfBits(double v, Rounding r = Rounding::kNearestEven) {
  return static_cast<uint16_t>(EncodeBinary(v, kBinary16, r));
}

// The same for a float, without the trip through double: a float's bits give the
// result by integer arithmetic (one rounding, to nearest even), which kernels need
// per element (Fixpipe's F322F16, Cast). Overflow raises FE_OVERFLOW like EncodeBinary.
inline uint16_t SingleToHalfBits(float v) {
  uint32_t x;
  std::memcpy(&x, &v, sizeof(x));
  const uint16_t sign = static_cast<uint16_t>((x >> 16) & 0x8000u);
  const uint32_t mag = x & 0x7fffffffu;
  if (mag >= 0x7f800000u) {  // infinity, or a NaN kept quiet with its payload's top bits
    return static_cast<uint16_t>(sign | 0x7c00u |
                                 (mag > 0x7f800000u ? 0x200u | (mag & 0x7fffffu) >> 13 : 0u));
  }
  if (mag >= 0x477ff000u) {  // 65520 and up round to infinity
    return static_cast<uint16_t>(RaiseOverflow(sign | 0x7c00u));
  }
  if (mag >= 0x38800000u) {  // a normal half: rebias, drop 13 bits rounding to even
    const uint32_t rebiased = mag - 0x38000000u;
    return static_cast<uint16_t>(sign | ((rebiased + 0xfffu + ((rebiased >> 13) & 1u)) >> 13));
  }
  if (mag <= 0x33000000u) return sign;  // 2^-25 and below (a tie with 0) round to zero
  // A subnormal half: the significand in units of 2^-24, rounded to even.
  const uint32_t shift = 126u - (mag >> 23);  // 14 .. 24
  const uint32_t significand = (mag & 0x7fffffu) | 0x800000u;
  const uint32_t q = significand >> shift;
  const uint32_t rest = significand & ((1u << shift) - 1u), tie = 1u << (shift - 1u);
  return static_cast<uint16_t>(sign | (q + (rest > tie || (rest == tie && (q & 1u) != 0))));
}

inline float HalfBitsToFloat(uint16_t h) {
  const uint32_t sign = static_cast<uint32_t>(h & 0x8000u) << 16;
  const uint32_t exp = (h >> 10) & 0x1fu;
  const uint32_t frac = h & 0x3ffu;
  if (exp == 0) {
    const float mag = static_cast<float>(frac) * 5.9604644775390625e-8f;  // frac * 2^-24
    return sign != 0 ? -mag : mag;
  }
  const uint32_t bits =
      exp == 0x1f ? sign | 0x7f800000u | (frac << 13) : sign | ((exp + 112u) << 23) | (frac << 13);
  float f;
  std::memcpy(&f, &bits, sizeof(f));
  return f;
}

}  // namespace npud::ascendc

struct half {
  half() = default;
  template <class T, std::enable_if_t<std::is_arithmetic_v<T>, int> = 0>
  half(T v)
      : bits_(std::is_same_v<T, float> ? ::npud::ascendc::SingleToHalfBits(static_cast<float>(v))
                                       : ::npud::ascendc::FloatToHalfBits(static_cast<double>(v))) {
  }

  operator float() const { return ::npud::ascendc::HalfBitsToFloat(bits_); }

  static half FromBits(uint16_t bits) {
    half h;
    h.bits_ = bits;
    return h;
  }
  uint16_t ToBits() const { return bits_; }

  half& operator+=(float v) { return *this = half(static_cast<float>(*this) + v); }
  half& operator-=(float v) { return *this = half(static_cast<float>(*this) - v); }
  half& operator*=(float v) { return *this = half(static_cast<float>(*this) * v); }
  half& operator/=(float v) { return *this = half(static_cast<float>(*this) / v); }
  half& operator++() { return *this += 1.0f; }
  half& operator--() { return *this -= 1.0f; }
  half operator++(int) {
    half old = *this;
    *this += 1.0f;
    return old;
  }
  half operator--(int) {
    half old = *this;
    *this -= 1.0f;
    return old;
  }

 private:
  uint16_t bits_;
};

static_assert(sizeof(half) == 2 && alignof(half) == 2, "half must be binary16 storage");
static_assert(std::is_trivially_copyable_v<half> && std::is_standard_layout_v<half>);

#endif  // NPUD_ASCENDC_FP16_H_

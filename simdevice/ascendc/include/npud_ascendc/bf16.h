// bf16.h: `bfloat16_t`, the upper 16 bits of a binary32 (8 exponent bits, 7 fraction
// bits). Same conventions as `half` (fp16.h): round-to-nearest-even from any arithmetic
// type, exact widening to float, arithmetic in float.
#ifndef NPUD_ASCENDC_BF16_H_
#define NPUD_ASCENDC_BF16_H_

#include <cstdint>
#include <cstring>
#include <type_traits>

#include "npud_ascendc/float_format.h"

namespace npud::ascendc {

// A float rounded to nearest even into bfloat16, by integer arithmetic on its bits:
// what EncodeBinary gives (quiet NaNs with the payload's top bits, FE_OVERFLOW when
// a finite value rounds to infinity), without the trip through double.
inline uint16_t FloatToBfloat16Bits(float v) {
  uint32_t x;
  std::memcpy(&x, &v, sizeof(x));
  const uint32_t mag = x & 0x7fffffffu;
  if (mag > 0x7f800000u) return static_cast<uint16_t>((x >> 16) | 0x40u);
  if (mag >= 0x7f7f8000u && mag < 0x7f800000u) {
    return static_cast<uint16_t>(RaiseOverflow(((x >> 16) & 0x8000u) | 0x7f80u));
  }
  return static_cast<uint16_t>((x + 0x7fffu + ((x >> 16) & 1u)) >> 16);
}

}  // namespace npud::ascendc

struct bfloat16_t {
  bfloat16_t() = default;
  template <class T, std::enable_if_t<std::is_arithmetic_v<T>, int> = 0>
  bfloat16_t(T v)
      : bits_(std::is_same_v<T, float> ? ::npud::ascendc::FloatToBfloat16Bits(static_cast<float>(v))
                                       : static_cast<uint16_t>(::npud::ascendc::EncodeBinary(
                                             static_cast<double>(v), ::npud::ascendc::kBfloat16,
                                             ::npud::ascendc::Rounding::kNearestEven))) {}

  operator float() const {
    const uint32_t bits = static_cast<uint32_t>(bits_) << 16;
    float f;
    std::memcpy(&f, &bits, sizeof(f));
    return f;
  }

  static bfloat16_t FromBits(uint16_t bits) {
    bfloat16_t b;
    b.bits_ = bits;
    return b;
  }
  uint16_t ToBits() const { return bits_; }

  bfloat16_t& operator+=(float v) { return *this = bfloat16_t(static_cast<float>(*this) + v); }
  bfloat16_t& operator-=(float v) { return *this = bfloat16_t(static_cast<float>(*this) - v); }
  bfloat16_t& operator*=(float v) { return *this = bfloat16_t(static_cast<float>(*this) * v); }
  bfloat16_t& operator/=(float v) { return *this = bfloat16_t(static_cast<float>(*this) / v); }

 private:
  uint16_t bits_;
};

static_assert(sizeof(bfloat16_t) == 2 && std::is_trivially_copyable_v<bfloat16_t>);

#endif  // NPUD_ASCENDC_BF16_H_

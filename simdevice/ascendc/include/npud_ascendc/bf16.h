// bf16.h: `bfloat16_t`, the upper 16 bits of a binary32 (8 exponent bits, 7 fraction
// bits). Same conventions as `half` (fp16.h): round-to-nearest-even from any arithmetic
// type, exact widening to float, arithmetic in float.
#ifndef NPUD_ASCENDC_BF16_H_
#define NPUD_ASCENDC_BF16_H_

#include <cstdint>
#include <cstring>
#include <type_traits>

#include "npud_ascendc/float_format.h"

struct bfloat16_t {
  bfloat16_t() = default;
  template <class T, std::enable_if_t<std::is_arithmetic_v<T>, int> = 0>
  bfloat16_t(T v)
      : bits_(static_cast<uint16_t>(
            ::npud::ascendc::EncodeBinary(static_cast<double>(v), ::npud::ascendc::kBfloat16,
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

// cast.h: Cast(dst, src, RoundMode, count), element type conversion.
//
// Between half, bfloat16_t, float and the integer types. Each source value is taken
// exactly and rounded once to the destination:
//   CAST_RINT   to nearest, ties to even      CAST_ROUND  to nearest, ties away from zero
//   CAST_FLOOR  toward -infinity              CAST_CEIL   toward +infinity
//   CAST_TRUNC  toward zero                   CAST_ODD    toward zero, then the last bit
//                                                         set if inexact (float->half)
//   CAST_NONE   CAST_RINT where the conversion can lose precision (upstream's
//               definition), exact otherwise.
// To floating types overflow gives infinity or the largest finite value according to
// the direction (IEEE). To integer types results saturate to the type's range and NaN
// becomes 0. The CTRL register (ctrl_register.h) can make half/bfloat16_t results
// saturate (inf to the largest value, NaN to 0) and integer results truncate. Checks (trap kind 1):
// count fits both tensors.
#ifndef NPUD_ASCENDC_CAST_H_
#define NPUD_ASCENDC_CAST_H_

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>

#include "npud_ascendc/check.h"
#include "npud_ascendc/float_format.h"
#include "npud_ascendc/numeric.h"
#include "npud_ascendc/tensor.h"

namespace AscendC {

enum RoundMode : uint8_t {
  CAST_NONE = 0,
  CAST_RINT,
  CAST_FLOOR,
  CAST_CEIL,
  CAST_ROUND,
  CAST_TRUNC,
  CAST_ODD,
};

}  // namespace AscendC

namespace npud::ascendc {

inline Rounding RoundingOf(AscendC::RoundMode mode) {
  switch (mode) {
    case AscendC::CAST_FLOOR:
      return Rounding::kDown;
    case AscendC::CAST_CEIL:
      return Rounding::kUp;
    case AscendC::CAST_ROUND:
      return Rounding::kNearestAway;
    case AscendC::CAST_TRUNC:
      return Rounding::kTowardZero;
    case AscendC::CAST_ODD:
      return Rounding::kOdd;
    case AscendC::CAST_NONE:
    case AscendC::CAST_RINT:
      break;
  }
  return Rounding::kNearestEven;
}

// x rounded to an integral value in direction r (x finite).
inline double RoundIntegral(double x, Rounding r) {
  switch (r) {
    case Rounding::kNearestEven: {
      const double f = std::floor(x);
      const double diff = x - f;
      if (diff > 0.5) return f + 1;
      if (diff < 0.5) return f;
      return std::fmod(f, 2.0) == 0 ? f : f + 1;
    }
    case Rounding::kNearestAway:
      return std::round(x);
    case Rounding::kTowardZero:
      return std::trunc(x);
    case Rounding::kDown:
      return std::floor(x);
    case Rounding::kUp:
      return std::ceil(x);
    case Rounding::kOdd: {
      const double t = std::trunc(x);
      if (t == x || std::fmod(t, 2.0) != 0) return t;
      return t + (x > 0 ? 1 : -1);
    }
  }
  return x;
}

template <class D>
D ConvertElement(double x, Rounding r) {
  if constexpr (std::is_same_v<D, half>) {
    const half h = half::FromBits(static_cast<uint16_t>(EncodeBinary(x, kBinary16, r)));
    return FloatSaturation() ? SaturateReduced(h) : h;
  } else if constexpr (std::is_same_v<D, bfloat16_t>) {
    const bfloat16_t b = bfloat16_t::FromBits(static_cast<uint16_t>(EncodeBinary(x, kBfloat16, r)));
    return FloatSaturation() ? SaturateReduced(b) : b;
  } else if constexpr (std::is_same_v<D, float>) {
    const uint32_t bits = EncodeBinary(x, kBinary32, r);
    float f;
    std::memcpy(&f, &bits, sizeof(f));
    return f;
  } else {
    static_assert(std::is_integral_v<D>, "Cast: unsupported destination type");
    if (std::isnan(x)) return D(0);
    const double v = RoundIntegral(x, r);
    if (CastTruncation() && std::fabs(v) < 0x1p63) {
      // The truncation mode (CTRL bit 59): the low bits of the integer.
      return static_cast<D>(static_cast<uint64_t>(static_cast<int64_t>(v)));
    }
    // Compare against the range ends as doubles; the upper end 2^k is exact.
    const double lo = static_cast<double>(std::numeric_limits<D>::min());
    const double hi_excl = static_cast<double>(std::numeric_limits<D>::max()) + 1.0;
    if (v < lo) return std::numeric_limits<D>::min();
    if (v >= hi_excl) return std::numeric_limits<D>::max();
    return static_cast<D>(v);
  }
}

}  // namespace npud::ascendc

namespace AscendC {

template <class D, class S>
void Cast(const LocalTensor<D>& dst, const LocalTensor<S>& src, const RoundMode& mode,
          uint32_t count) {
  using namespace ::npud::ascendc;
  static_assert(kIsVectorType<S> && kIsVectorType<D>, "Cast: unsupported element type");
  if (count > dst.GetSize() || count > src.GetSize()) {
    Fail("Cast: count %u exceeds the destination (%u) or source (%u) tensor", count, dst.GetSize(),
         src.GetSize());
  }
  const Rounding r = RoundingOf(mode);
  D* d = dst.Data();
  const S* s = src.Data();
  for (uint32_t i = 0; i < count; ++i)
    d[i] = ConvertElement<D>(static_cast<double>(Widen(s[i])), r);
}

}  // namespace AscendC

#endif  // NPUD_ASCENDC_CAST_H_

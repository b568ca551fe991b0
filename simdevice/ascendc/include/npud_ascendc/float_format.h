// float_format.h: rounding a double to a narrower IEEE binary format (binary16,
// bfloat16, binary32) under an explicit rounding direction, and decoding back.
//
// EncodeBinary is exact: the double is split into its integer significand and binary
// exponent and the significand is shifted and rounded once, so there is no double
// rounding. Every value of the narrow formats and every int32 is a double, so any
// conversion between half/bfloat16/float/int32 can go through it. Overflow gives
// infinity or the largest finite value as IEEE 754 prescribes for the direction;
// NaN stays a quiet NaN (payload truncated); signed zeros are kept. Overflow also
// raises FE_OVERFLOW.
#ifndef NPUD_ASCENDC_FLOAT_FORMAT_H_
#define NPUD_ASCENDC_FLOAT_FORMAT_H_

#include <cfenv>
#include <cmath>
#include <cstdint>
#include <cstring>

#include "npud_ascendc/visibility.h"

namespace npud::ascendc {

enum class Rounding : uint8_t {
  kNearestEven,  // ties to even (IEEE default, "rint")
  kNearestAway,  // ties away from zero ("round")
  kTowardZero,   // "trunc"
  kDown,         // toward -infinity ("floor")
  kUp,           // toward +infinity ("ceil")
  kOdd,          // truncate, then set the last bit if inexact (von Neumann rounding)
};

struct BinaryFormat {
  int mant_bits;  // stored fraction bits
  int exp_bits;
};
// Hidden: passed by value they are odr-used, and a default-visibility inline variable
// would become an STB_GNU_UNIQUE symbol (which makes a kernel object unloadable).
NPUD_ASCENDC_HIDDEN inline constexpr BinaryFormat kBinary16{10, 5};
NPUD_ASCENDC_HIDDEN inline constexpr BinaryFormat kBfloat16{7, 8};
NPUD_ASCENDC_HIDDEN inline constexpr BinaryFormat kBinary32{23, 8};

// Whether rounding `neg * (q + rem / 2^s)` away from q's magnitude is required. `rem`
// is the discarded part, `half` is 2^(s-1) (tie point) or 0 when s is out of range.
inline bool RoundsUp(Rounding r, bool neg, uint64_t q, uint64_t rem, uint64_t half) {
  switch (r) {
    case Rounding::kNearestEven:
      return half != 0 && (rem > half || (rem == half && (q & 1) != 0));
    case Rounding::kNearestAway:
      return half != 0 && rem >= half;
    case Rounding::kTowardZero:
    case Rounding::kOdd:
      return false;
    case Rounding::kDown:
      return neg && rem != 0;
    case Rounding::kUp:
      return !neg && rem != 0;
  }
  return false;
}

// A finite value too large for a narrow format sets the CPU's overflow flag,
// as a float conversion would: the kernel's overflow status reads it.
inline uint32_t RaiseOverflow(uint32_t bits) {
  std::feraiseexcept(FE_OVERFLOW);
  return bits;
}

// Rounds x to format f; returns its bit pattern (sign bit at mant_bits + exp_bits).
inline uint32_t EncodeBinary(double x, BinaryFormat f, Rounding r) {
  uint64_t b;
  std::memcpy(&b, &x, sizeof(b));
  const bool neg = (b >> 63) != 0;
  const int dexp = static_cast<int>((b >> 52) & 0x7ff);
  const uint64_t dfrac = b & ((uint64_t{1} << 52) - 1);

  const int bias = (1 << (f.exp_bits - 1)) - 1;
  const int emin = 1 - bias;
  const int emax = bias;
  const uint32_t sign = neg ? uint32_t{1} << (f.mant_bits + f.exp_bits) : 0;
  const uint32_t inf = ((uint32_t{1} << f.exp_bits) - 1) << f.mant_bits;
  const uint32_t max_finite = inf - 1;
  // Overflow: infinity when rounding goes outward, else the largest finite value.
  const bool to_inf = r == Rounding::kNearestEven || r == Rounding::kNearestAway ||
                      (r == Rounding::kUp && !neg) || (r == Rounding::kDown && neg);
  const uint32_t overflow = sign | (to_inf ? inf : max_finite);

  if (dexp == 0x7ff) {
    if (dfrac == 0) return sign | inf;
    return sign | inf | (uint32_t{1} << (f.mant_bits - 1)) |
           static_cast<uint32_t>(dfrac >> (52 - f.mant_bits));
  }
  if (dexp == 0 && dfrac == 0) return sign;

  // |x| = m * 2^(e - 52)
  const int e = dexp == 0 ? -1022 : dexp - 1023;
  const uint64_t m = dexp == 0 ? dfrac : dfrac | (uint64_t{1} << 52);
  if (e > emax) return RaiseOverflow(overflow);

  // Quantum of the result: 2^(E - mant_bits) with E = max(e, emin).
  const int big_e = e < emin ? emin : e;
  const int s = 52 - f.mant_bits + (big_e - e);
  uint64_t q = 0;
  uint64_t rem = m;
  uint64_t half = 0;
  if (s < 64) {
    q = m >> s;
    rem = m & ((uint64_t{1} << s) - 1);
    half = uint64_t{1} << (s - 1);
  }
  if (RoundsUp(r, neg, q, rem, half)) ++q;
  if (r == Rounding::kOdd && rem != 0) q |= 1;

  // q carries the implicit bit for normals, so the exponent field adds up (and a carry
  // out of the significand bumps it).
  const uint64_t bits = (static_cast<uint64_t>(big_e - emin) << f.mant_bits) + q;
  if (bits >= inf) return RaiseOverflow(overflow);
  return sign | static_cast<uint32_t>(bits);
}

// The exact value of a bit pattern of format f.
inline double DecodeBinary(uint32_t bits, BinaryFormat f) {
  const bool neg = ((bits >> (f.mant_bits + f.exp_bits)) & 1) != 0;
  const uint32_t exp_field = (bits >> f.mant_bits) & ((uint32_t{1} << f.exp_bits) - 1);
  const uint32_t frac = bits & ((uint32_t{1} << f.mant_bits) - 1);
  const int bias = (1 << (f.exp_bits - 1)) - 1;
  double v;
  if (exp_field == (uint32_t{1} << f.exp_bits) - 1) {
    v = frac == 0 ? HUGE_VAL : std::nan("");
  } else if (exp_field == 0) {
    v = std::ldexp(static_cast<double>(frac), 1 - bias - f.mant_bits);
  } else {
    v = std::ldexp(static_cast<double>(frac | (uint32_t{1} << f.mant_bits)),
                   static_cast<int>(exp_field) - bias - f.mant_bits);
  }
  return neg ? -v : v;
}

}  // namespace npud::ascendc

#endif  // NPUD_ASCENDC_FLOAT_FORMAT_H_

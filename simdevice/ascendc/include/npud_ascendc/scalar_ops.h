// scalar_ops.h: the scalar unit's bit operations and helpers.
//
//   GetBitCount<1|0>(v)            how many bits of v are 1 (or 0)
//   CountLeadingZero(v)            leading zero bits of v (64 for 0)
//   CountBitsCntSameAsSignBit(v)   bits below the sign bit equal to it, counted down
//                                  from bit 62 (-1 for 0 and -1, as upstream)
//   GetSFFValue<1|0>(v)            the lowest bit position holding 1 (or 0), -1 if none
//   CeilDivision(a, b), DivCeil(a, b)  ceil(a / b), 0 when b is 0
//   ReadGmByPassDCache / WriteGmByPassDCache  plain GM accesses (no data cache here)
#ifndef NPUD_ASCENDC_SCALAR_OPS_H_
#define NPUD_ASCENDC_SCALAR_OPS_H_

#include <cstdint>
#include <type_traits>

#include "npud_ascendc/qualifiers.h"

namespace AscendC {

template <int countValue>
inline int64_t GetBitCount(uint64_t valueIn) {
  static_assert(countValue == 0 || countValue == 1, "GetBitCount counts 0 or 1 bits");
  const int64_t ones = __builtin_popcountll(valueIn);
  return countValue == 1 ? ones : 64 - ones;
}

inline int64_t CountLeadingZero(uint64_t valueIn) {
  return valueIn == 0 ? 64 : __builtin_clzll(valueIn);
}

inline int64_t CountBitsCntSameAsSignBit(int64_t valueIn) {
  if (valueIn == 0 || valueIn == -1) return -1;
  const uint64_t v = static_cast<uint64_t>(valueIn);
  const uint64_t sign = v >> 63;
  int64_t n = 0;
  for (int bit = 62; bit >= 0 && ((v >> bit) & 1) == sign; --bit) ++n;
  return n;
}

template <int countValue>
inline int64_t GetSFFValue(uint64_t valueIn) {
  static_assert(countValue == 0 || countValue == 1, "GetSFFValue finds a 0 or a 1 bit");
  const uint64_t v = countValue == 1 ? valueIn : ~valueIn;
  return v == 0 ? -1 : __builtin_ctzll(v);
}

constexpr int32_t CeilDivision(int32_t num1, int32_t num2) {
  return num2 == 0 ? 0 : (num1 + num2 - 1) / num2;
}

template <class T, class U>
constexpr auto DivCeil(T a, U b) -> decltype(a / b) {
  return b == 0 ? 0 : (a + b - 1) / b;
}

// Ceil(a, b) of two integers: a / b rounded up, as DivCeil (the tensor Ceil is
// adv_math.h's; kernels use both names).
template <class T, class = std::enable_if_t<std::is_integral_v<T>>>
constexpr T Ceil(T a, T b) {
  return b == 0 ? 0 : (a + b - 1) / b;
}

template <class T>
inline T ReadGmByPassDCache(__gm__ T* addr) {
  return *static_cast<volatile T*>(addr);
}
template <class T>
inline void WriteGmByPassDCache(__gm__ T* addr, T value) {
  *static_cast<volatile T*>(addr) = value;
}

}  // namespace AscendC

#endif  // NPUD_ASCENDC_SCALAR_OPS_H_

// ctrl_register.h: the core's CTRL register as the Atlas A2 exposes it.
//
//   SetCtrlSpr<48, 48>(value), GetCtrlSpr<48, 48>()   CTRL[48], the only bits the A2's
//                                                      SetCtrlSpr/GetCtrlSpr take
//   SetSaturationFlag<SaturationMode::FLOAT | INT | CAST>(enableSat),
//   GetSaturationFlag<mode>()
//
// The bits act on the block's vector unit (numeric.h, cast.h):
//   CTRL[48] (FLOAT)  0: half and bfloat16_t results of vector instructions and
//                     conversions to them saturate (inf to the largest finite value,
//                     NaN to 0); 1: they keep inf and NaN. A block starts at 1, the
//                     INF/NAN mode npud's devices run in.
//   CTRL[53] (INT)    1: integer + - * (Add, Sub, Mul, Adds, Muls) saturate; 0: wrap.
//   CTRL[59] (CAST)   0: conversions to integer types saturate; 1: keep the low bits.
// SetSaturationFlag(true) selects the saturating side of the mode's bit (as the
// reference's A2 implementation maps them). The advanced APIs compute on their own
// and are not affected. FLOAT8 (Ascend 950) does not compile here, nor other CTRL bits.
// Checks (trap kind 1): SetCtrlSpr's value fits the bits.
#ifndef NPUD_ASCENDC_CTRL_REGISTER_H_
#define NPUD_ASCENDC_CTRL_REGISTER_H_

#include <cstdint>

#include "npud_ascendc/block_context.h"
#include "npud_ascendc/check.h"

namespace AscendC {

enum class SaturationMode : uint8_t { FLOAT, FLOAT8, INT, CAST };

template <int8_t startBit, int8_t endBit>
inline void SetCtrlSpr(int64_t value) {
  static_assert(startBit == 48 && endBit == 48,
                "startBit and endBit must be both 48 on the Atlas A2");
  constexpr uint64_t kWidth = endBit - startBit + 1;
  if ((static_cast<uint64_t>(value) >> kWidth) != 0) {
    ::npud::ascendc::Fail("SetCtrlSpr<%d, %d>: value %lld does not fit %llu bits", startBit, endBit,
                          static_cast<long long>(value), static_cast<unsigned long long>(kWidth));
  }
  constexpr uint64_t kMask = ((uint64_t{1} << kWidth) - 1) << startBit;
  uint64_t& ctrl = ::npud::ascendc::tls_block.ctrl;
  ctrl = (ctrl & ~kMask) | (static_cast<uint64_t>(value) << startBit);
}

template <int8_t startBit, int8_t endBit>
inline int64_t GetCtrlSpr() {
  static_assert(startBit == 48 && endBit == 48,
                "startBit and endBit must be both 48 on the Atlas A2");
  constexpr uint64_t kWidth = endBit - startBit + 1;
  return static_cast<int64_t>((::npud::ascendc::tls_block.ctrl >> startBit) &
                              ((uint64_t{1} << kWidth) - 1));
}

namespace npud_detail {

template <SaturationMode mode>
constexpr int SaturationBit() {
  static_assert(mode != SaturationMode::FLOAT8, "SaturationMode::FLOAT8 is an Ascend 950 mode");
  return mode == SaturationMode::FLOAT ? 48 : mode == SaturationMode::INT ? 53 : 59;
}

}  // namespace npud_detail

template <SaturationMode mode>
inline void SetSaturationFlag(bool enableSat) {
  constexpr int kBit = npud_detail::SaturationBit<mode>();
  // INT saturates with its bit set; FLOAT and CAST with theirs clear.
  const bool set = mode == SaturationMode::INT ? enableSat : !enableSat;
  uint64_t& ctrl = ::npud::ascendc::tls_block.ctrl;
  ctrl = set ? (ctrl | (uint64_t{1} << kBit)) : (ctrl & ~(uint64_t{1} << kBit));
}

template <SaturationMode mode>
inline bool GetSaturationFlag() {
  constexpr int kBit = npud_detail::SaturationBit<mode>();
  const bool set = ((::npud::ascendc::tls_block.ctrl >> kBit) & 1) != 0;
  return mode == SaturationMode::INT ? set : !set;
}

}  // namespace AscendC

#endif  // NPUD_ASCENDC_CTRL_REGISTER_H_

// hf32.h: the cube's HF32 format on the 910B family (dav-2201), which Mmad rounds
// float operands to when SetHF32Mode enables it (mmad_config.h).
//
// HF32 has float's sign and 8-bit exponent and an 11-bit mantissa (the 950's has 10,
// not simulated): the 12 low bits of a float's mantissa are rounded away, to nearest,
// ties to even (HF32TransMode::NEAREST_EVEN, the default) or away from zero
// (NEAREST_ZERO: the Matmul API's SetHF32 documents transMode 1, the register bit
// NEAREST_ZERO sets, as "ties away from 0"). A rounding that carries out of the
// largest finite exponent gives infinity, as IEEE rounding to nearest does; an
// infinity stays, a NaN stays a (quiet) NaN. Plain arithmetic on bits, so that the
// host tests can call it.
#ifndef NPUD_ASCENDC_HF32_H_
#define NPUD_ASCENDC_HF32_H_

#include <cstdint>
#include <cstring>

namespace npud::ascendc {

inline float RoundToHf32(float value, bool ties_away) {
  constexpr uint32_t kDropped = 0xFFFu;  // 23 - 11 mantissa bits
  constexpr uint32_t kHalf = 0x800u;
  constexpr uint32_t kUnit = 0x1000u;
  uint32_t bits;
  std::memcpy(&bits, &value, sizeof(bits));
  if ((bits & 0x7F800000u) == 0x7F800000u) {
    // Infinity keeps its bits; a NaN whose payload is all in the dropped bits must
    // not become infinity.
    if ((bits & 0x007FFFFFu) != 0) bits = (bits & ~kDropped) | 0x00400000u;
  } else {
    const uint32_t rest = bits & kDropped;
    uint32_t kept = bits & ~kDropped;
    const bool up = ties_away ? rest >= kHalf : rest > kHalf || (rest == kHalf && (kept & kUnit));
    // The sign is apart from the magnitude: adding a unit rounds either sign away
    // from zero, and a carry into the exponent is the next binade (or infinity).
    if (up) kept += kUnit;
    bits = kept;
  }
  float out;
  std::memcpy(&out, &bits, sizeof(out));
  return out;
}

}  // namespace npud::ascendc

#endif  // NPUD_ASCENDC_HF32_H_

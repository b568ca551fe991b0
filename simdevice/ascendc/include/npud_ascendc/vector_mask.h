// vector_mask.h: the vector mask register and how level-0 instructions read it.
//
// A level-0 ("high-dimension slicing") vector instruction works on repeats of 256
// bytes (8 blocks of 32 bytes) and a 128-bit lane mask. In normal mode the mask
// selects the same lanes of every repeat and the instruction runs repeatTime
// repeats; in counter mode (SetMaskCount) the low 64 bits are an element count:
// ceil(count / lanes) repeats, all lanes but the last repeat's tail, whatever
// repeatTime says. An instruction with isSetMask = true writes the register from
// its mask argument first (the continuous form `uint64_t mask` sets the first
// `mask` lanes, the bit form `uint64_t mask[2]` is {low, high}; in counter mode
// either is the count); with isSetMask = false it uses what SetVectorMask left.
// The level-2 (count) forms run in counter mode and leave normal mode and a full
// mask behind, as upstream's do. The register lives in the block's state
// (block_context.h), so blocks and the cores of a mix group each have their own.
#ifndef NPUD_ASCENDC_VECTOR_MASK_H_
#define NPUD_ASCENDC_VECTOR_MASK_H_

#include <cstdint>
#include <type_traits>

#include "npud_ascendc/block_context.h"

namespace AscendC {

enum class MaskMode : uint8_t { NORMAL = 0, COUNTER };

// The mask argument of an instruction that reads the register (isSetMask = false).
inline constexpr uint64_t MASK_PLACEHOLDER = 0;
inline constexpr uint64_t MASK_PLACEHOLDER_LIST[2] = {0, 0};

inline constexpr uint64_t FULL_MASK = ~uint64_t{0};
inline constexpr int32_t ONE_BLK_SIZE = 32;
inline constexpr uint32_t DEFAULT_C0_SIZE = 32;  // bytes of a fractal row (C0)
inline constexpr int32_t ONE_REPEAT_BYTE_SIZE = 256;
inline constexpr int32_t DEFAULT_BLK_NUM = 8;
inline constexpr int32_t DEFAULT_BLK_STRIDE = 1;
inline constexpr uint8_t DEFAULT_REPEAT_STRIDE = 8;
inline constexpr int32_t MAX_REPEAT_TIMES = 255;

inline void SetMaskCount() { ::npud::ascendc::tls_block.mask_counter = true; }
inline void SetMaskNorm() { ::npud::ascendc::tls_block.mask_counter = false; }
// All lanes; the mode stays.
inline void ResetMask() {
  ::npud::ascendc::tls_block.mask_high = FULL_MASK;
  ::npud::ascendc::tls_block.mask_low = FULL_MASK;
}

// Normal mode: the raw lane bits (high word first, as upstream); counter mode:
// maskLow is the element count.
template <class T, MaskMode mode = MaskMode::NORMAL>
inline void SetVectorMask(const uint64_t maskHigh, const uint64_t maskLow) {
  ::npud::ascendc::tls_block.mask_high = mode == MaskMode::COUNTER ? 0 : maskHigh;
  ::npud::ascendc::tls_block.mask_low = maskLow;
}

}  // namespace AscendC

namespace npud::ascendc {

// The register value of "the first `len` lanes".
inline void LaneBitsOfLength(uint64_t len, uint64_t* high, uint64_t* low) {
  *low = len >= 64 ? ~uint64_t{0} : (uint64_t{1} << len) - 1;
  *high = len >= 128 ? ~uint64_t{0} : len > 64 ? (uint64_t{1} << (len - 64)) - 1 : 0;
}

// What one level-0 instruction covers.
struct LaneMask {
  bool counter = false;
  uint64_t bits[2] = {0, 0};  // normal mode: lane k is active if bit k % 64 of bits[k / 64]
  uint64_t count = 0;         // counter mode: elements in all
};

inline LaneMask MaskFromRegister() {
  LaneMask m;
  m.counter = tls_block.mask_counter;
  m.bits[0] = tls_block.mask_low;
  m.bits[1] = tls_block.mask_high;
  m.count = tls_block.mask_low;
  return m;
}

// The continuous form: the first `mask` lanes (normal mode) or `mask` elements
// (counter mode).
template <bool kSetMask>
LaneMask MaskOfLength(uint64_t mask) {
  if constexpr (kSetMask) {
    if (tls_block.mask_counter) {
      tls_block.mask_high = 0;
      tls_block.mask_low = mask;
    } else {
      LaneBitsOfLength(mask, &tls_block.mask_high, &tls_block.mask_low);
    }
  }
  return MaskFromRegister();
}

// The bit form: mask[0] the low lanes, mask[1] the high ones (or, in counter
// mode, mask[0] the element count).
template <bool kSetMask>
LaneMask MaskOfBits(const uint64_t mask[]) {
  if constexpr (kSetMask) {
    tls_block.mask_low = mask[0];
    tls_block.mask_high = tls_block.mask_counter ? 0 : mask[1];
  }
  return MaskFromRegister();
}

// Either form of an instruction's mask argument: a pointer is the bit form, a
// number the continuous one (a negative one selects nothing).
template <bool kSetMask, class Mask>
LaneMask MaskOf(Mask mask) {
  if constexpr (std::is_pointer_v<Mask>) {
    return MaskOfBits<kSetMask>(mask);
  } else {
    if constexpr (std::is_signed_v<Mask>) {
      if (mask < 0) return MaskOfLength<kSetMask>(0);
    }
    return MaskOfLength<kSetMask>(static_cast<uint64_t>(mask));
  }
}

// The element count of a level-2 instruction (counter mode over contiguous
// data): `count`, or with kSetMask = false what the register holds (it must be
// in counter mode). Afterwards the register is back to normal mode and all lanes.
template <bool kSetMask>
int64_t Level2Count(int64_t count) {
  if constexpr (!kSetMask) {
    return tls_block.mask_counter ? static_cast<int64_t>(tls_block.mask_low) : count;
  }
  tls_block.mask_counter = false;
  tls_block.mask_high = ~uint64_t{0};
  tls_block.mask_low = ~uint64_t{0};
  return count;
}

}  // namespace npud::ascendc

namespace AscendC {

// Normal mode: the first `len` lanes of each repeat of T; counter mode: `len`
// elements.
template <class T, MaskMode mode = MaskMode::NORMAL>
inline void SetVectorMask(int32_t len) {
  const uint64_t n = len < 0 ? 0 : static_cast<uint64_t>(len);
  if constexpr (mode == MaskMode::COUNTER) {
    SetVectorMask<T, mode>(0, n);
  } else {
    uint64_t high = 0, low = 0;
    ::npud::ascendc::LaneBitsOfLength(n, &high, &low);
    SetVectorMask<T, mode>(high, low);
  }
}

}  // namespace AscendC

#endif  // NPUD_ASCENDC_VECTOR_MASK_H_

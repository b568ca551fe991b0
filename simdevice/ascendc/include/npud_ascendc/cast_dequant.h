// cast_dequant.h: CastDequant and the SetDeqScale forms it reads.
//
//   SetDeqScale(float scale, int16_t offset, bool signMode)  one set of parameters
//   SetDeqScale<uint64_t>(vdeq, VdeqInfo{scales, offsets, signModes})
//       16 sets, written into the 16 uint64_t of vdeq (128 bytes of UB) in the
//       register's format; CastDequant reads them from vdeq when it runs
//   CastDequant<T, U, isVecDeq, halfBlock>(dst, src, count)
//   CastDequant<T, U, isSetMask, isVecDeq, halfBlock>(dst, src, mask | mask[2],
//                                                     repeatTime, UnaryRepeatParams)
//
// int16_t -> int8_t / uint8_t: dst = saturate(round(src * scale + offset)), with the
// register's view of the parameters: scale a float cut to 10 mantissa bits (the
// hardware's (1, 8, 10) format), offset the low 9 bits, signed; signMode picks
// [-128, 127] or [0, 255]. isVecDeq takes element e of each 16-element block with set
// e of vdeq, else the single set. Each 32-byte source block of 16 elements gives 16
// bytes, stored in the second half of its destination block with halfBlock (the
// instruction's "h" form), in the first half without; the other half is not written.
// Destination blocks are those of the source's position (level 2) or of the
// destination strides (level 0).
// int32_t -> half: dst = half(src * scale), scale SetDeqScale(half)'s, rounded to
// nearest even (the reference's CAST_RINT) from the exact product.
// The rounding of the b8 results (to nearest, ties to even) is npud's choice: the
// reference does not say. Checks (trap kind 1): the tensors hold what is read and
// written; isVecDeq needs SetDeqScale(vdeq, ...) first.
#ifndef NPUD_ASCENDC_CAST_DEQUANT_H_
#define NPUD_ASCENDC_CAST_DEQUANT_H_

#include <cmath>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "npud_ascendc/block_context.h"
#include "npud_ascendc/cast.h"
#include "npud_ascendc/check.h"
#include "npud_ascendc/compound_cast.h"
#include "npud_ascendc/fp16.h"
#include "npud_ascendc/repeat.h"
#include "npud_ascendc/tensor.h"
#include "npud_ascendc/vector_mask.h"

namespace AscendC {

struct VdeqInfo {
  VdeqInfo() {}
  VdeqInfo(const float vdeqScaleIn[16], const int16_t vdeqOffsetIn[16],
           const bool vdeqSignModeIn[16]) {
    for (int i = 0; i < 16; ++i) {
      vdeqScale[i] = vdeqScaleIn[i];
      vdeqOffset[i] = vdeqOffsetIn[i];
      vdeqSignMode[i] = vdeqSignModeIn[i];
    }
  }
  float vdeqScale[16] = {};
  int16_t vdeqOffset[16] = {};
  bool vdeqSignMode[16] = {};
};

}  // namespace AscendC

namespace npud::ascendc {

// The DEQSCALE register's layout: scale bits 0-31, offset bits 37-45, signMode 46.
inline uint64_t DeqConfig(float scale, int16_t offset, bool sign_mode) {
  uint32_t bits = 0;
  std::memcpy(&bits, &scale, 4);
  return (uint64_t{sign_mode} << 46) | ((static_cast<uint64_t>(offset) & 0x1FF) << 37) | bits;
}

// One int16 -> b8 conversion under the register value `config`.
inline uint8_t DequantB8(int16_t x, uint64_t config) {
  const uint32_t bits = static_cast<uint32_t>(config) & 0xFFFFE000u;  // (1, 8, 10)
  float scale = 0;
  std::memcpy(&scale, &bits, 4);
  int32_t offset = static_cast<int32_t>((config >> 37) & 0x1FF);
  if (offset & 0x100) offset -= 0x200;
  const bool sign_mode = ((config >> 46) & 1) != 0;
  double v = std::nearbyint(static_cast<double>(x) * static_cast<double>(scale) + offset);
  if (std::isnan(v)) v = 0;
  const double lo = sign_mode ? -128 : 0, hi = sign_mode ? 127 : 255;
  v = v < lo ? lo : v > hi ? hi : v;
  return static_cast<uint8_t>(static_cast<int32_t>(v));
}

template <bool kVecDeq>
uint64_t DeqConfigFor(uint32_t lane_in_block) {
  if constexpr (kVecDeq) {
    if (tls_block.vdeq == nullptr) {
      Fail("CastDequant: isVecDeq needs SetDeqScale(vdeq, vdeqInfo) first");
    }
    return tls_block.vdeq[lane_in_block];
  } else {
    return tls_block.deq_config;
  }
}

// The byte of element k (0..15) of a source block stored in destination block `block`.
template <bool kHalfBlock>
constexpr uint64_t B8Byte(uint64_t block, uint32_t k) {
  return block * 32 + (kHalfBlock ? 16 : 0) + k;
}

template <bool kVecDeq, bool kHalfBlock, class T>
void StoreB8(const AscendC::LocalTensor<T>& dst, uint64_t byte, int16_t x, uint32_t k) {
  if (byte >= dst.GetSize()) {
    Fail("CastDequant: destination byte %llu is beyond the %u-byte tensor",
         static_cast<unsigned long long>(byte), dst.GetSize());
  }
  reinterpret_cast<uint8_t*>(dst.Data())[byte] = DequantB8(x, DeqConfigFor<kVecDeq>(k));
}

template <class T, class U, bool isSetMask = true, bool isVecDeq = true, bool halfBlock = true,
          class Mask>
void CastDequantRepeat(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<U>& src,
                       Mask mask, uint8_t repeatTime, const AscendC::UnaryRepeatParams& p) {
  const Strided<U> s("CastDequant", "source", src, p.srcBlkStride, p.srcRepStride);
  if constexpr (std::is_same_v<U, int32_t>) {
    static_assert(std::is_same_v<T, half>, "CastDequant: int32_t converts to half");
    const Strided<half> d("CastDequant", "destination", dst, p.dstBlkStride, p.dstRepStride);
    const double scale = tls_block.deq_scale;
    RunRepeats(MaskOf<isSetMask>(mask), repeatTime, LanesFor(4), d, [&](uint32_t r, uint32_t k) {
      return ConvertElement<half>(static_cast<double>(s.At(r, k)) * scale, Rounding::kNearestEven);
    });
  } else {
    static_assert(
        std::is_same_v<U, int16_t> && (std::is_same_v<T, int8_t> || std::is_same_v<T, uint8_t>),
        "CastDequant: int16_t converts to int8_t or uint8_t");
    ForEachRepeat(
        MaskOf<isSetMask>(mask), repeatTime, LanesFor(2),
        [&](uint32_t r, const uint64_t active[2]) {
          ForEachLane(active, [&](uint32_t k) {
            const uint64_t block = uint64_t{r} * p.dstRepStride + uint64_t{k / 16} * p.dstBlkStride;
            StoreB8<isVecDeq, halfBlock>(dst, B8Byte<halfBlock>(block, k % 16), s.At(r, k), k % 16);
          });
        });
  }
}

}  // namespace npud::ascendc

namespace AscendC {

inline void SetDeqScale(float scale, int16_t offset, bool signMode) {
  ::npud::ascendc::tls_block.deq_config = ::npud::ascendc::DeqConfig(scale, offset, signMode);
}

template <class T>
void SetDeqScale(const LocalTensor<T>& vdeq, const VdeqInfo& vdeqInfo) {
  static_assert(std::is_same_v<T, uint64_t>, "SetDeqScale: the vdeq tensor holds uint64_t");
  if (vdeq.GetSize() < 16) {
    ::npud::ascendc::Fail("SetDeqScale: vdeq has %u elements, 16 are needed", vdeq.GetSize());
  }
  for (int i = 0; i < 16; ++i) {
    vdeq.Data()[i] = ::npud::ascendc::DeqConfig(vdeqInfo.vdeqScale[i], vdeqInfo.vdeqOffset[i],
                                                vdeqInfo.vdeqSignMode[i]);
  }
  ::npud::ascendc::tls_block.vdeq = vdeq.Data();
}

template <class T, class U, bool isVecDeq = true, bool halfBlock = true>
void CastDequant(const LocalTensor<T>& dst, const LocalTensor<U>& src, const uint32_t count) {
  using namespace ::npud::ascendc;
  if constexpr (std::is_same_v<U, int32_t>) {
    static_assert(std::is_same_v<T, half>, "CastDequant: int32_t converts to half");
    const int32_t n = static_cast<int32_t>(count);
    CheckOperand("CastDequant", dst, n, "destination");
    CheckOperand("CastDequant", src, n, "source");
    const double scale = tls_block.deq_scale;
    for (int32_t i = 0; i < n; ++i) {
      dst.Data()[i] =
          ConvertElement<half>(static_cast<double>(src.Data()[i]) * scale, Rounding::kNearestEven);
    }
  } else {
    static_assert(
        std::is_same_v<U, int16_t> && (std::is_same_v<T, int8_t> || std::is_same_v<T, uint8_t>),
        "CastDequant: int16_t converts to int8_t or uint8_t");
    CheckOperand("CastDequant", src, static_cast<int32_t>(count), "source");
    for (uint32_t i = 0; i < count; ++i) {
      StoreB8<isVecDeq, halfBlock>(dst, B8Byte<halfBlock>(i / 16, i % 16), src.Data()[i], i % 16);
    }
  }
}

template <class T, class U, bool isSetMask = true, bool isVecDeq = true, bool halfBlock = true>
void CastDequant(const LocalTensor<T>& dst, const LocalTensor<U>& src, const uint64_t mask[],
                 uint8_t repeatTime, const UnaryRepeatParams& repeatParams) {
  ::npud::ascendc::CastDequantRepeat<T, U, isSetMask, isVecDeq, halfBlock>(
      dst, src, mask, repeatTime, repeatParams);
}
template <class T, class U, bool isSetMask = true, bool isVecDeq = true, bool halfBlock = true>
void CastDequant(const LocalTensor<T>& dst, const LocalTensor<U>& src, const int32_t mask,
                 uint8_t repeatTime, const UnaryRepeatParams& repeatParams) {
  ::npud::ascendc::CastDequantRepeat<T, U, isSetMask, isVecDeq, halfBlock>(
      dst, src, mask, repeatTime, repeatParams);
}

}  // namespace AscendC

#endif  // NPUD_ASCENDC_CAST_DEQUANT_H_

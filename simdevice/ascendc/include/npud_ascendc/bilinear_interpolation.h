// bilinear_interpolation.h: BilinearInterpolation (half), the reference's software
// form for the Atlas A2, made of the instructions its A2 implementation issues, so
// results round as there (each product and each sum to half):
//
//   1. Gatherb: hRepeat * vRepeat repeats of 8 blocks of src0 at the byte offsets of
//      src0Offset, into sharedTmpBuffer;
//   2. Brcb: src1 broadcast, each element over a 32-byte block, after them;
//   3. Mul in counter mode (all gathered elements): repeatMode false multiplies
//      every block of repeat r by src1[r], true block j of repeat r by src1[8r + j];
//   4. per vertical repeat i, Add (with the caller's mask) accumulates its hRepeat
//      products into the first, acc = p_k + acc for k = 1 .. hRepeat - 1;
//   5. Adds(dst, sums, 0) with the caller's mask over vRepeat repeats, the
//      destination's blocks dstBlkStride apart and repeats vROffset elements apart.
//
// sharedTmpBuffer needs hRepeat * vRepeat * 256 bytes plus src1.GetSize() * 32.
// Checks (trap kind 1): those of the instructions (offsets are whole blocks inside
// src0, every access inside its tensor), vROffset in [128, 65535) and a multiple of
// 32 bytes, hRepeat and vRepeat at least 1. The mask register is left normal, all
// lanes, as after the reference's call.
#ifndef NPUD_ASCENDC_BILINEAR_INTERPOLATION_H_
#define NPUD_ASCENDC_BILINEAR_INTERPOLATION_H_

#include <cstdint>

#include "npud_ascendc/check.h"
#include "npud_ascendc/data_fill.h"
#include "npud_ascendc/fp16.h"
#include "npud_ascendc/gather_transpose.h"
#include "npud_ascendc/repeat.h"
#include "npud_ascendc/tensor.h"
#include "npud_ascendc/vector_mask.h"
#include "npud_ascendc/vector_ops.h"

namespace npud::ascendc {

template <class Mask>
void BilinearInterpolationSteps(const AscendC::LocalTensor<half>& dst,
                                const AscendC::LocalTensor<half>& src0,
                                const AscendC::LocalTensor<uint32_t>& src0Offset,
                                const AscendC::LocalTensor<half>& src1, Mask mask, uint8_t hRepeat,
                                bool repeatMode, uint16_t dstBlkStride, uint16_t vROffset,
                                uint8_t vRepeat,
                                const AscendC::LocalTensor<uint8_t>& sharedTmpBuffer) {
  using namespace AscendC;
  if (hRepeat == 0 || vRepeat == 0) {
    Fail("BilinearInterpolation: hRepeat %u and vRepeat %u must be at least 1", hRepeat, vRepeat);
  }
  if (vROffset < 128 || vROffset * sizeof(half) % 32 != 0) {
    Fail("BilinearInterpolation: vROffset %u is not in [128, 65535) or not 32-byte aligned",
         vROffset);
  }
  constexpr uint32_t kPerRepeat = 128;  // 256 bytes of half
  LocalTensor<half> tmp = sharedTmpBuffer.ReinterpretCast<half>();
  const uint32_t inner = uint32_t{hRepeat} * vRepeat;
  Gatherb(tmp, src0, src0Offset, static_cast<uint8_t>(inner), GatherRepeatParams());
  const uint32_t brcb_at = inner * kPerRepeat;
  Brcb(tmp[brcb_at], src1, static_cast<uint8_t>(src1.GetSize() / 8), BrcbRepeatParams());
  BinaryRepeatParams mul_params;
  if (!repeatMode) {
    mul_params.src0RepStride = 1;
    mul_params.src0BlkStride = 0;
  }
  SetMaskCount();
  SetVectorMask<half, MaskMode::COUNTER>(0, uint64_t{inner} * kPerRepeat);
  Mul<half, false>(tmp, tmp[brcb_at], tmp, mask, static_cast<uint8_t>(inner), mul_params);
  SetMaskNorm();
  ResetMask();
  BinaryRepeatParams add_params;
  add_params.dstRepStride = 0;
  add_params.src1RepStride = 0;
  for (uint32_t i = 0; i < vRepeat; ++i) {
    if (hRepeat > 1) {
      Add(tmp[i * hRepeat * kPerRepeat], tmp[(i * hRepeat + 1) * kPerRepeat],
          tmp[i * hRepeat * kPerRepeat], mask, static_cast<uint8_t>(hRepeat - 1), add_params);
    }
  }
  UnaryRepeatParams adds_params;
  adds_params.srcRepStride = static_cast<uint8_t>(hRepeat * 8);
  adds_params.dstBlkStride = dstBlkStride;
  adds_params.dstRepStride = static_cast<uint8_t>(vROffset * sizeof(half) / 32);
  Adds(dst, tmp, half(0.0f), mask, vRepeat, adds_params);
}

}  // namespace npud::ascendc

namespace AscendC {

template <class T>
void BilinearInterpolation(const LocalTensor<T>& dst, const LocalTensor<T>& src0,
                           const LocalTensor<uint32_t>& src0Offset, const LocalTensor<T>& src1,
                           uint64_t mask[], uint8_t hRepeat, bool repeatMode, uint16_t dstBlkStride,
                           uint16_t vROffset, uint8_t vRepeat,
                           const LocalTensor<uint8_t>& sharedTmpBuffer) {
  static_assert(std::is_same_v<T, half>, "BilinearInterpolation takes half tensors");
  ::npud::ascendc::BilinearInterpolationSteps(
      dst, src0, src0Offset, src1, static_cast<const uint64_t*>(mask), hRepeat, repeatMode,
      dstBlkStride, vROffset, vRepeat, sharedTmpBuffer);
}
template <class T>
void BilinearInterpolation(const LocalTensor<T>& dst, const LocalTensor<T>& src0,
                           const LocalTensor<uint32_t>& src0Offset, const LocalTensor<T>& src1,
                           uint64_t mask, uint8_t hRepeat, bool repeatMode, uint16_t dstBlkStride,
                           uint16_t vROffset, uint8_t vRepeat,
                           const LocalTensor<uint8_t>& sharedTmpBuffer) {
  static_assert(std::is_same_v<T, half>, "BilinearInterpolation takes half tensors");
  ::npud::ascendc::BilinearInterpolationSteps(dst, src0, src0Offset, src1, mask, hRepeat,
                                              repeatMode, dstBlkStride, vROffset, vRepeat,
                                              sharedTmpBuffer);
}

}  // namespace AscendC

#endif  // NPUD_ASCENDC_BILINEAR_INTERPOLATION_H_

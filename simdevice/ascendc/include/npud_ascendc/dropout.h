// dropout.h: DropOut, which keeps the elements a mask selects, scaled by 1 / keepProb,
// and zeroes the others (ND rows of [firstAxis, srcLastAxis]).
//
//   DropOut<T, isInitBitMode, dropOutMode>(dst, src, mask[, sharedTmpBuffer], keepProb, info)
//     dropOutMode 1: byte mask, rows of maskLastAxis bytes (the tail of each is padding)
//                 2: byte mask, srcLastAxis bytes a row, stored back to back
//                 3: bit mask, one bit per element, back to back (bit b of byte n is
//                    element 8n + b)
//                 4: bit mask, rows of maskLastAxis bytes (the bits past srcLastAxis
//                    are padding)
//                 0: chosen from the shape: 2 if maskLastAxis == srcLastAxis, 1 if it
//                    is larger, 3 if maskLastAxis * 8 == srcLastAxis, else 4.
//   kept element: dst = src * (1 / keepProb), the reciprocal taken in float as the
//   vector unit's Muls does (and the asc-devkit golden script); dropped: dst = 0.
// Computed in float, rounded once to T. isInitBitMode and sharedTmpBuffer change
// nothing here.
// Checks (trap kind 1): the shape fits dst, src and mask; keepProb is not 0.
#ifndef NPUD_ASCENDC_DROPOUT_H_
#define NPUD_ASCENDC_DROPOUT_H_

#include <cstdint>
#include <type_traits>

#include "npud_ascendc/check.h"
#include "npud_ascendc/tensor.h"

namespace AscendC {

struct DropOutShapeInfo {
  DropOutShapeInfo() {}
  uint32_t firstAxis = 0;
  uint32_t srcLastAxis = 0;
  uint32_t maskLastAxis = 0;
};

}  // namespace AscendC

namespace npud::ascendc {

inline uint32_t DropOutModeOf(uint32_t mode, const AscendC::DropOutShapeInfo& info) {
  if (mode != 0) return mode;
  if (info.maskLastAxis == info.srcLastAxis) return 2;
  if (info.maskLastAxis > info.srcLastAxis) return 1;
  if (uint64_t{info.maskLastAxis} * 8 == info.srcLastAxis) return 3;
  return 4;
}

template <class T>
void DropOutRows(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src,
                 const AscendC::LocalTensor<uint8_t>& mask, float keep_prob,
                 const AscendC::DropOutShapeInfo& info, uint32_t requested_mode) {
  static_assert(std::is_same_v<T, half> || std::is_same_v<T, float>,
                "DropOut takes half or float tensors");
  const char* op = "DropOut";
  const uint32_t mode = DropOutModeOf(requested_mode, info);
  if (mode > 4) Fail("%s: dropOutMode %u is not 0 to 4", op, mode);
  if (keep_prob == 0.0f) Fail("%s: keepProb is 0", op);
  const uint64_t elements = uint64_t{info.firstAxis} * info.srcLastAxis;
  uint64_t mask_bytes = 0;
  switch (mode) {
    case 1:
    case 4:
      mask_bytes = uint64_t{info.firstAxis} * info.maskLastAxis;
      break;
    case 2:
      mask_bytes = elements;
      break;
    default:
      mask_bytes = (elements + 7) / 8;
      break;
  }
  if (elements > dst.GetSize() || elements > src.GetSize() || mask_bytes > mask.GetSize()) {
    Fail("%s: [%u, %u] with a %u-wide mask (mode %u) does not fit dst (%u), src (%u) or mask (%u)",
         op, info.firstAxis, info.srcLastAxis, info.maskLastAxis, mode, dst.GetSize(),
         src.GetSize(), mask.GetSize());
  }
  const float scale = 1.0f / keep_prob;
  const uint8_t* m = mask.Data();
  for (uint32_t i = 0; i < info.firstAxis; ++i) {
    for (uint32_t j = 0; j < info.srcLastAxis; ++j) {
      const uint64_t e = uint64_t{i} * info.srcLastAxis + j;
      bool keep = false;
      switch (mode) {
        case 1:
          keep = m[uint64_t{i} * info.maskLastAxis + j] != 0;
          break;
        case 2:
          keep = m[e] != 0;
          break;
        case 3:
          keep = (m[e / 8] >> (e % 8)) & 1;
          break;
        default:
          keep = (m[uint64_t{i} * info.maskLastAxis + j / 8] >> (j % 8)) & 1;
          break;
      }
      dst.Data()[e] = keep ? T(static_cast<float>(src.Data()[e]) * scale) : T(0.0f);
    }
  }
}

}  // namespace npud::ascendc

namespace AscendC {

template <typename T, bool isInitBitMode = false, uint32_t dropOutMode = 0>
void DropOut(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal,
             const LocalTensor<uint8_t>& maskLocal, const LocalTensor<uint8_t>& /*sharedTmpBuffer*/,
             const float keepProb, const DropOutShapeInfo& info) {
  ::npud::ascendc::DropOutRows(dstLocal, srcLocal, maskLocal, keepProb, info, dropOutMode);
}
template <typename T, bool isInitBitMode = false, uint32_t dropOutMode = 0>
void DropOut(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal,
             const LocalTensor<uint8_t>& maskLocal, const float keepProb,
             const DropOutShapeInfo& info) {
  ::npud::ascendc::DropOutRows(dstLocal, srcLocal, maskLocal, keepProb, info, dropOutMode);
}

}  // namespace AscendC

#endif  // NPUD_ASCENDC_DROPOUT_H_

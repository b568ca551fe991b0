// data_fill.h: Brcb and CreateVecIndex (Duplicate is in vector_ops.h).
//
//   Brcb(dst, src, repeatTime, {dstBlkStride, dstRepStride})
//       repeat r fills the 8 destination blocks at (r * dstRepStride + j *
//       dstBlkStride) 32-byte blocks with copies of src[8r + j] (src read in order).
//   CreateVecIndex(dst, first, count)   dst[i] = first + i
//   CreateVecIndex(dst, first, mask, repeatTime, dstBlkStride, dstRepStride)
//       lane k of repeat r = first + r * lanes + k, at its level-0 place.
// Checks (trap kind 1): everything written or read lies inside its tensor.
#ifndef NPUD_ASCENDC_DATA_FILL_H_
#define NPUD_ASCENDC_DATA_FILL_H_

#include <cstdint>
#include <type_traits>

#include "npud_ascendc/check.h"
#include "npud_ascendc/repeat.h"
#include "npud_ascendc/tensor.h"
#include "npud_ascendc/vector_ops.h"

namespace AscendC {

struct BrcbRepeatParams {
  BrcbRepeatParams() {}
  BrcbRepeatParams(const uint16_t dstBlkStrideIn, const uint16_t dstRepStrideIn)
      : dstRepStride(dstRepStrideIn), dstBlkStride(dstBlkStrideIn) {}
  uint32_t blockNumber = DEFAULT_BLK_NUM;
  uint16_t dstRepStride = DEFAULT_REPEAT_STRIDE;
  uint16_t dstBlkStride = DEFAULT_BLK_STRIDE;
};

template <class T>
void Brcb(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint8_t repeatTime,
          const BrcbRepeatParams& repeatParams) {
  using namespace ::npud::ascendc;
  static_assert(sizeof(T) == 2 || sizeof(T) == 4, "Brcb takes 2- or 4-byte elements");
  constexpr uint32_t kPerBlock = 32 / sizeof(T);
  CheckOperand("Brcb", src, int32_t{repeatTime} * 8, "source");
  for (uint32_t r = 0; r < repeatTime; ++r) {
    for (uint32_t j = 0; j < 8; ++j) {
      const uint64_t block =
          uint64_t{r} * repeatParams.dstRepStride + uint64_t{j} * repeatParams.dstBlkStride;
      if ((block + 1) * kPerBlock > dst.GetSize()) {
        Fail("Brcb: repeat %u writes block %llu, beyond the destination's %u elements", r,
             static_cast<unsigned long long>(block), dst.GetSize());
      }
      const T value = src.Data()[r * 8 + j];
      T* out = dst.Data() + block * kPerBlock;
      for (uint32_t e = 0; e < kPerBlock; ++e) out[e] = value;
    }
  }
}

template <class T>
void CreateVecIndex(LocalTensor<T> dst, const T& firstValue, uint32_t count) {
  using namespace ::npud::ascendc;
  const int32_t n = static_cast<int32_t>(Level2Count<true>(count));
  CheckOperand("CreateVecIndex", dst, n, "destination");
  const auto first = Widen(firstValue);
  for (int32_t i = 0; i < n; ++i) dst.Data()[i] = Narrow<T>(Plus(first, ComputeOf<T>(i)));
}
template <class T, class Mask>
void CreateVecIndex(LocalTensor<T>& dst, const T& firstValue, Mask mask, uint8_t repeatTime,
                    uint16_t dstBlkStride, uint8_t dstRepStride) {
  using namespace ::npud::ascendc;
  const LaneMask m = MaskOf<true>(mask);
  constexpr uint32_t kLanes = LanesFor(sizeof(T));
  const Strided<T> d("CreateVecIndex", "destination", dst, dstBlkStride, dstRepStride);
  const auto first = Widen(firstValue);
  RunRepeats(m, repeatTime, kLanes, d, [&](uint32_t r, uint32_t k) {
    return Narrow<T>(Plus(first, ComputeOf<T>(r * kLanes + k)));
  });
}

}  // namespace AscendC

#endif  // NPUD_ASCENDC_DATA_FILL_H_

// softmax_flash_v2.h: SoftmaxFlashV2, the FlashAttention-2 softmax step over rows (ND).
//
//   SoftmaxFlashV2<T, isUpdate, ...>(dst, expSum, max, src, expMax, inExpSum, inMax
//                                    [, sharedTmpBuffer], tiling[, shapeInfo])
//     isUpdate false, per row r: max_r = max_k x, dst = e^(x - max_r),
//                                expSum_r = sum_k dst
//     isUpdate true:  max_r = max(inMax_r, max_k x), dst = e^(x - max_r),
//                     expMax_r = e^(inMax_r - max_r), expSum_r = expMax_r * inExpSum_r +
//                     sum_k dst
// expSum, max, inExpSum and inMax hold each row's value over one 32-byte block of their
// type (float with half data is allowed); expMax is in the data type. Kernels pass the
// outputs aliasing the inputs (dst = src, expSum = inExpSum, max = inMax), so each row
// reads its inputs before writing. The reductions cover the first oriSrcK columns
// (all if 0). Sums are taken in double and rounded once, so results are within float
// rounding of the reference's; the exponentials are computed in float. The shape comes
// from shapeInfo, or the tiling when shapeInfo is all zero. NZ is not simulated.
// Checks (trap kind 1): the shape fits every tensor.
#ifndef NPUD_ASCENDC_SOFTMAX_FLASH_V2_H_
#define NPUD_ASCENDC_SOFTMAX_FLASH_V2_H_

#include <cmath>
#include <cstdint>
#include <type_traits>

#include "kernel_tiling/kernel_tiling.h"
#include "npud_ascendc/softmax.h"
#include "npud_ascendc/tensor.h"

namespace npud::ascendc {

template <class D, class R>
void SoftmaxFlashV2Rows(const AscendC::LocalTensor<D>& dst, const AscendC::LocalTensor<R>& exp_sum,
                        const AscendC::LocalTensor<R>& max, const AscendC::LocalTensor<D>& src,
                        const AscendC::LocalTensor<D>& exp_max,
                        const AscendC::LocalTensor<R>& in_exp_sum,
                        const AscendC::LocalTensor<R>& in_max, const RowShape& s, bool update) {
  static_assert(std::is_same_v<D, half> || std::is_same_v<D, float>,
                "SoftmaxFlashV2 takes half or float tensors");
  const char* op = "SoftmaxFlashV2";
  constexpr uint32_t kReducePerBlock = 32 / sizeof(R);
  constexpr uint32_t kDataPerBlock = 32 / sizeof(D);
  const uint64_t n = uint64_t{s.rows} * s.cols;
  const uint64_t reduced = uint64_t{s.rows} * kReducePerBlock;
  CheckRows(op, dst, n, "destination");
  CheckRows(op, src, n, "source");
  CheckRows(op, exp_sum, reduced, "expSum");
  CheckRows(op, max, reduced, "max");
  if (update) {
    CheckRows(op, in_exp_sum, reduced, "inExpSum");
    CheckRows(op, in_max, reduced, "inMax");
    CheckRows(op, exp_max, uint64_t{s.rows} * kDataPerBlock, "expMax");
  }
  for (uint32_t r = 0; r < s.rows; ++r) {
    const D* x = src.Data() + uint64_t{r} * s.cols;
    D* y = dst.Data() + uint64_t{r} * s.cols;
    float row_max = -INFINITY;
    for (uint32_t k = 0; k < s.reduced; ++k) row_max = std::fmax(row_max, static_cast<float>(x[k]));
    float old_max = 0, old_sum = 0;
    if (update) {
      old_max = static_cast<float>(in_max.Data()[r * kReducePerBlock]);
      old_sum = static_cast<float>(in_exp_sum.Data()[r * kReducePerBlock]);
      row_max = std::fmax(row_max, old_max);
    }
    double sum = 0;
    for (uint32_t k = 0; k < s.cols; ++k) {
      const D e = D(std::exp(static_cast<float>(x[k]) - row_max));
      if (k < s.reduced) sum += static_cast<double>(static_cast<float>(e));
      y[k] = e;
    }
    if (update) {
      const float scale = std::exp(old_max - row_max);
      sum += static_cast<double>(scale) * static_cast<double>(old_sum);
      StoreRowBlock(exp_max, r, scale);
    }
    StoreRowBlock(exp_sum, r, static_cast<float>(sum));
    StoreRowBlock(max, r, row_max);
  }
}

}  // namespace npud::ascendc

namespace AscendC {

template <class T, bool isUpdate = false, bool isReuseSource = false, bool isBasicBlock = false,
          bool isDataFormatNZ = false, const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG, class D,
          class R>
void SoftmaxFlashV2(const LocalTensor<D>& dstTensor, const LocalTensor<R>& expSumTensor,
                    const LocalTensor<R>& maxTensor, const LocalTensor<D>& srcTensor,
                    const LocalTensor<D>& expMaxTensor, const LocalTensor<R>& inExpSumTensor,
                    const LocalTensor<R>& inMaxTensor,
                    const LocalTensor<uint8_t>& /*sharedTmpBuffer*/, const SoftMaxTiling& tiling,
                    const SoftMaxShapeInfo& softmaxShapeInfo = {}) {
  static_assert(!isDataFormatNZ, "SoftmaxFlashV2: the NZ format is not simulated");
  ::npud::ascendc::SoftmaxFlashV2Rows(
      dstTensor, expSumTensor, maxTensor, srcTensor, expMaxTensor, inExpSumTensor, inMaxTensor,
      ::npud::ascendc::RowShapeOf(tiling, softmaxShapeInfo), isUpdate);
}
template <class T, bool isUpdate = false, bool isReuseSource = false, bool isBasicBlock = false,
          bool isDataFormatNZ = false, const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG, class D,
          class R>
void SoftmaxFlashV2(const LocalTensor<D>& dstTensor, const LocalTensor<R>& expSumTensor,
                    const LocalTensor<R>& maxTensor, const LocalTensor<D>& srcTensor,
                    const LocalTensor<D>& expMaxTensor, const LocalTensor<R>& inExpSumTensor,
                    const LocalTensor<R>& inMaxTensor, const SoftMaxTiling& tiling,
                    const SoftMaxShapeInfo& softmaxShapeInfo = {}) {
  SoftmaxFlashV2<T, isUpdate, isReuseSource, isBasicBlock, isDataFormatNZ, config>(
      dstTensor, expSumTensor, maxTensor, srcTensor, expMaxTensor, inExpSumTensor, inMaxTensor,
      LocalTensor<uint8_t>(), tiling, softmaxShapeInfo);
}

}  // namespace AscendC

#endif  // NPUD_ASCENDC_SOFTMAX_FLASH_V2_H_

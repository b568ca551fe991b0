// softmax_flash.h: SoftmaxFlash, the first flash softmax (the reference deprecates it
// for SoftmaxFlashV2, softmax_flash_v2.h), over rows (ND).
//
//   SoftmaxFlash<T, isReuseSource, isBasicBlock>(dst, sum, max, src, expMax, inSum,
//                                                inMax[, sharedTmpBuffer], tiling,
//                                                isUpdate, shapeInfo)
//     isUpdate false: SoftMax (softmax.h): max_r = max_k x, sum_r = sum_k e^(x - max_r),
//                     dst = e^(x - max_r) / sum_r; expMax is not written
//     isUpdate true:  max_r = max(inMax_r, max_k x), e = e^(x - max_r),
//                     s = e^(inMax_r - max_r), sum_r = s * inSum_r + sum_k e,
//                     expMax_r = s * inSum_r / sum_r, dst = e / sum_r
// (the reference's formula, as its Python form gives it). sum, max, inSum and inMax
// hold each row's value over one 32-byte block of their type (float with half data
// is allowed); expMax is in the data type. Outputs may alias inputs (sum = inSum,
// max = inMax): a row reads its inputs first. In float: the exponentials once each,
// the sums in order of the columns. The reductions cover the first oriSrcK columns
// (all if 0); the shape comes from shapeInfo, or the tiling when it is all zero.
// Checks (trap kind 1): the shape fits every tensor.
#ifndef NPUD_ASCENDC_SOFTMAX_FLASH_H_
#define NPUD_ASCENDC_SOFTMAX_FLASH_H_

#include <cmath>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "kernel_tiling/kernel_tiling.h"
#include "npud_ascendc/softmax.h"
#include "npud_ascendc/tensor.h"

namespace npud::ascendc {

template <class D, class R>
void SoftmaxFlashUpdateRows(const AscendC::LocalTensor<D>& dst, const AscendC::LocalTensor<R>& sum,
                            const AscendC::LocalTensor<R>& max, const AscendC::LocalTensor<D>& src,
                            const AscendC::LocalTensor<D>& exp_max,
                            const AscendC::LocalTensor<R>& in_sum,
                            const AscendC::LocalTensor<R>& in_max, const RowShape& s) {
  static_assert(std::is_same_v<D, half> || std::is_same_v<D, float>,
                "SoftmaxFlash takes half or float tensors");
  const char* op = "SoftmaxFlash";
  constexpr uint32_t kReducePerBlock = 32 / sizeof(R);
  constexpr uint32_t kDataPerBlock = 32 / sizeof(D);
  const uint64_t n = uint64_t{s.rows} * s.cols;
  const uint64_t reduced = uint64_t{s.rows} * kReducePerBlock;
  CheckRows(op, dst, n, "destination");
  CheckRows(op, src, n, "source");
  CheckRows(op, sum, reduced, "sum");
  CheckRows(op, max, reduced, "max");
  CheckRows(op, in_sum, reduced, "inSum");
  CheckRows(op, in_max, reduced, "inMax");
  CheckRows(op, exp_max, uint64_t{s.rows} * kDataPerBlock, "expMax");
  std::vector<float> e(s.cols);
  for (uint32_t r = 0; r < s.rows; ++r) {
    const D* x = src.Data() + uint64_t{r} * s.cols;
    D* y = dst.Data() + uint64_t{r} * s.cols;
    const float old_max = static_cast<float>(in_max.Data()[r * kReducePerBlock]);
    const float old_sum = static_cast<float>(in_sum.Data()[r * kReducePerBlock]);
    float row_max = old_max;
    for (uint32_t k = 0; k < s.reduced; ++k) row_max = std::fmax(row_max, static_cast<float>(x[k]));
    float row_sum = 0;
    for (uint32_t k = 0; k < s.cols; ++k) {
      e[k] = std::exp(static_cast<float>(x[k]) - row_max);
      if (k < s.reduced) row_sum += e[k];
    }
    const float scale = std::exp(old_max - row_max);
    const float carried = scale * old_sum;
    row_sum = carried + row_sum;
    for (uint32_t k = 0; k < s.cols; ++k) y[k] = D(e[k] / row_sum);
    StoreRowBlock(exp_max, r, carried / row_sum);
    StoreRowBlock(sum, r, row_sum);
    StoreRowBlock(max, r, row_max);
  }
}

}  // namespace npud::ascendc

namespace AscendC {

template <class T, bool isReuseSource = false, bool isBasicBlock = false, class D, class R>
void SoftmaxFlash(const LocalTensor<D>& dstTensor, const LocalTensor<R>& sumTensor,
                  const LocalTensor<R>& maxTensor, const LocalTensor<D>& srcTensor,
                  const LocalTensor<D>& expMaxTensor, const LocalTensor<R>& inSumTensor,
                  const LocalTensor<R>& inMaxTensor,
                  const LocalTensor<uint8_t>& /*sharedTmpBuffer*/, const SoftMaxTiling& tiling,
                  bool isUpdate = false, const SoftMaxShapeInfo& softmaxShapeInfo = {}) {
  const ::npud::ascendc::RowShape shape = ::npud::ascendc::RowShapeOf(tiling, softmaxShapeInfo);
  if (isUpdate) {
    ::npud::ascendc::SoftmaxFlashUpdateRows(dstTensor, sumTensor, maxTensor, srcTensor,
                                            expMaxTensor, inSumTensor, inMaxTensor, shape);
  } else {
    ::npud::ascendc::SoftMaxRows("SoftmaxFlash", dstTensor, &sumTensor, &maxTensor, srcTensor,
                                 shape, true);
  }
}
template <class T, bool isReuseSource = false, bool isBasicBlock = false, class D, class R>
void SoftmaxFlash(const LocalTensor<D>& dstTensor, const LocalTensor<R>& sumTensor,
                  const LocalTensor<R>& maxTensor, const LocalTensor<D>& srcTensor,
                  const LocalTensor<D>& expMaxTensor, const LocalTensor<R>& inSumTensor,
                  const LocalTensor<R>& inMaxTensor, const SoftMaxTiling& tiling,
                  bool isUpdate = false, const SoftMaxShapeInfo& softmaxShapeInfo = {}) {
  SoftmaxFlash<T, isReuseSource, isBasicBlock>(
      dstTensor, sumTensor, maxTensor, srcTensor, expMaxTensor, inSumTensor, inMaxTensor,
      LocalTensor<uint8_t>(), tiling, isUpdate, softmaxShapeInfo);
}

}  // namespace AscendC

#endif  // NPUD_ASCENDC_SOFTMAX_FLASH_H_

// softmax_grad.h: the backward pass of SoftMax over rows (ND format).
//
//   SoftmaxGradFront(dst, grad, src[, sharedTmpBuffer], tiling[, shapeInfo])
//       d_r = sum_k grad[r][k] * src[r][k], written over row r's 32-byte block of dst
//       (8 floats or 16 halves per row).
//   SoftmaxGrad(dst, grad, src[, sharedTmpBuffer], tiling, isFront[, shapeInfo])
//       isFront: as SoftmaxGradFront; otherwise dst = (grad - d_r) * src.
// The shape comes from shapeInfo (srcM rows of srcK; the sum covers the first oriSrcK
// columns, oriSrcK 0 meaning all) or from the tiling when shapeInfo is all zero, as
// SoftMax reads it. Kernels pass dst aliasing grad or src (the asc-devkit example
// writes over src), so each row's sum is taken before the row is written. Half rows
// are computed in float and rounded once. The NZ format is not simulated (a compile
// error); isReuseSource and isBasicBlock change nothing.
// Checks (trap kind 1): the shape fits dst, grad and src.
#ifndef NPUD_ASCENDC_SOFTMAX_GRAD_H_
#define NPUD_ASCENDC_SOFTMAX_GRAD_H_

#include <cstdint>
#include <type_traits>

#include "kernel_tiling/kernel_tiling.h"
#include "npud_ascendc/softmax.h"
#include "npud_ascendc/tensor.h"

namespace npud::ascendc {

template <class T>
void SoftmaxGradRows(const char* op, const AscendC::LocalTensor<T>& dst,
                     const AscendC::LocalTensor<T>& grad, const AscendC::LocalTensor<T>& src,
                     const RowShape& s, bool front) {
  static_assert(std::is_same_v<T, half> || std::is_same_v<T, float>,
                "SoftmaxGrad takes half or float tensors");
  constexpr uint32_t kPerBlock = 32 / sizeof(T);
  const uint64_t n = uint64_t{s.rows} * s.cols;
  CheckRows(op, grad, n, "grad");
  CheckRows(op, src, n, "source");
  CheckRows(op, dst, front ? uint64_t{s.rows} * kPerBlock : n, "destination");
  for (uint32_t r = 0; r < s.rows; ++r) {
    const T* g = grad.Data() + uint64_t{r} * s.cols;
    const T* x = src.Data() + uint64_t{r} * s.cols;
    float dot = 0;
    for (uint32_t k = 0; k < s.reduced; ++k)
      dot += static_cast<float>(g[k]) * static_cast<float>(x[k]);
    if (front) {
      StoreRowBlock(dst, r, dot);
      continue;
    }
    T* y = dst.Data() + uint64_t{r} * s.cols;
    for (uint32_t k = 0; k < s.cols; ++k)
      y[k] = T((static_cast<float>(g[k]) - dot) * static_cast<float>(x[k]));
  }
}

}  // namespace npud::ascendc

namespace AscendC {

template <class T, bool isReuseSource = false, bool isDataFormatNZ = false>
void SoftmaxGrad(const LocalTensor<T>& dstTensor, const LocalTensor<T>& gradTensor,
                 const LocalTensor<T>& srcTensor, const LocalTensor<uint8_t>& /*sharedTmpBuffer*/,
                 const SoftMaxTiling& tiling, bool isFront = false,
                 const SoftMaxShapeInfo& softmaxShapeInfo = {}) {
  static_assert(!isDataFormatNZ, "SoftmaxGrad: the NZ format is not simulated");
  ::npud::ascendc::SoftmaxGradRows("SoftmaxGrad", dstTensor, gradTensor, srcTensor,
                                   ::npud::ascendc::RowShapeOf(tiling, softmaxShapeInfo), isFront);
}
template <class T, bool isReuseSource = false, bool isDataFormatNZ = false>
void SoftmaxGrad(const LocalTensor<T>& dstTensor, const LocalTensor<T>& gradTensor,
                 const LocalTensor<T>& srcTensor, const SoftMaxTiling& tiling, bool isFront = false,
                 const SoftMaxShapeInfo& softmaxShapeInfo = {}) {
  SoftmaxGrad<T, isReuseSource, isDataFormatNZ>(
      dstTensor, gradTensor, srcTensor, LocalTensor<uint8_t>(), tiling, isFront, softmaxShapeInfo);
}

template <class T, bool isBasicBlock = false, bool isDataFormatNZ = false>
void SoftmaxGradFront(const LocalTensor<T>& dstTensor, const LocalTensor<T>& gradTensor,
                      const LocalTensor<T>& srcTensor,
                      const LocalTensor<uint8_t>& /*sharedTmpBuffer*/, const SoftMaxTiling& tiling,
                      const SoftMaxShapeInfo& softmaxShapeInfo = {}) {
  static_assert(!isDataFormatNZ, "SoftmaxGradFront: the NZ format is not simulated");
  ::npud::ascendc::SoftmaxGradRows("SoftmaxGradFront", dstTensor, gradTensor, srcTensor,
                                   ::npud::ascendc::RowShapeOf(tiling, softmaxShapeInfo), true);
}
template <class T, bool isBasicBlock = false, bool isDataFormatNZ = false>
void SoftmaxGradFront(const LocalTensor<T>& dstTensor, const LocalTensor<T>& gradTensor,
                      const LocalTensor<T>& srcTensor, const SoftMaxTiling& tiling,
                      const SoftMaxShapeInfo& softmaxShapeInfo = {}) {
  SoftmaxGradFront<T, isBasicBlock, isDataFormatNZ>(
      dstTensor, gradTensor, srcTensor, LocalTensor<uint8_t>(), tiling, softmaxShapeInfo);
}

}  // namespace AscendC

#endif  // NPUD_ASCENDC_SOFTMAX_GRAD_H_

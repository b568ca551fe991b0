// log_softmax.h: LogSoftMax over rows (ND format).
//
//   LogSoftMax<T, isReuseSource, isDataFormatNZ>(dst, sum, max, src, sharedTmpBuffer,
//                                                tiling[, shapeInfo])
//       per row r: max_r = max_k x, sum_r = sum_k e^(x - max_r),
//       dst = log10(e^(x - max_r) / sum_r); sum and max hold each row's value over one
//       32-byte block. The logarithm is base 10, as upstream defines the API (its
//       reference script uses np.log10), not the natural log of torch's log_softmax.
// The shape comes from shapeInfo (srcM rows of srcK, the reductions over the first
// oriSrcK columns) or from the tiling when shapeInfo is all zero, as SoftMax reads it;
// LogSoftMaxTiling has SoftMaxTiling's layout. Computed in float, rounded once to T.
// The NZ format is not simulated (a compile error).
// Checks (trap kind 1): the shape fits dst, src, sum and max.
#ifndef NPUD_ASCENDC_LOG_SOFTMAX_H_
#define NPUD_ASCENDC_LOG_SOFTMAX_H_

#include <cmath>
#include <cstdint>
#include <type_traits>

#include "kernel_tiling/kernel_tiling.h"
#include "npud_ascendc/softmax.h"
#include "npud_ascendc/tensor.h"

namespace AscendC {

template <typename T, bool isReuseSource = false, bool isDataFormatNZ = false>
void LogSoftMax(const LocalTensor<T>& dst, const LocalTensor<T>& sum, const LocalTensor<T>& max,
                const LocalTensor<T>& src, const LocalTensor<uint8_t>& /*sharedTmpBuffer*/,
                const LogSoftMaxTiling& tiling, const SoftMaxShapeInfo& softmaxShapeInfo = {}) {
  static_assert(!isDataFormatNZ, "LogSoftMax: the NZ format is not simulated");
  static_assert(std::is_same_v<T, half> || std::is_same_v<T, float>,
                "LogSoftMax takes half or float tensors");
  using ::npud::ascendc::CheckRows;
  const ::npud::ascendc::RowShape s = ::npud::ascendc::RowShapeOf(tiling, softmaxShapeInfo);
  constexpr uint32_t kPerBlock = 32 / sizeof(T);
  const uint64_t n = uint64_t{s.rows} * s.cols;
  CheckRows("LogSoftMax", dst, n, "destination");
  CheckRows("LogSoftMax", src, n, "source");
  CheckRows("LogSoftMax", sum, uint64_t{s.rows} * kPerBlock, "sum");
  CheckRows("LogSoftMax", max, uint64_t{s.rows} * kPerBlock, "max");
  for (uint32_t r = 0; r < s.rows; ++r) {
    const T* x = src.Data() + uint64_t{r} * s.cols;
    T* y = dst.Data() + uint64_t{r} * s.cols;
    float row_max = -INFINITY;
    for (uint32_t k = 0; k < s.reduced; ++k) row_max = std::fmax(row_max, static_cast<float>(x[k]));
    float row_sum = 0;
    for (uint32_t k = 0; k < s.reduced; ++k)
      row_sum += std::exp(static_cast<float>(x[k]) - row_max);
    for (uint32_t k = 0; k < s.cols; ++k) {
      y[k] = T(std::log10(std::exp(static_cast<float>(x[k]) - row_max) / row_sum));
    }
    ::npud::ascendc::StoreRowBlock(sum, r, row_sum);
    ::npud::ascendc::StoreRowBlock(max, r, row_max);
  }
}

}  // namespace AscendC

#endif  // NPUD_ASCENDC_LOG_SOFTMAX_H_

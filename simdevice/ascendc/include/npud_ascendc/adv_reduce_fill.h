// adv_reduce_fill.h: the advanced Sum, CumSum, Arange and Fill.
//
//   Sum<T>(dst, src[, sharedTmpBuffer], {outter, inner, n})
//       dst[i] = src[i * inner] + ... + src[i * inner + n - 1] for each of the outter
//       rows (inner the row pitch, n the elements summed), in float, rounded once
//   CumSum<T, config>(dst, lastRow, src[, sharedTmpBuffer], {outter, inner})
//       running sums of the outter x inner matrix src: along each row when
//       config.isLastAxis, else down each column. Added in float in upstream's
//       line-by-line order, each sum rounded once to T. With config.outputLastRow
//       (set in defaultCumSumConfig) lastRow also gets dst's last row. The Sklansky
//       algorithm is Ascend 950 only: upstream's Atlas A2 code ignores
//       config.algorithm, and so does npud.
//   Arange(dst, first, diff, count)   dst[i] = first + i * diff
//   Fill(gm, size, value)             the first size elements of a GlobalTensor
// Checks (trap kind 1): the rows or count fit the tensors; CumSum's outter and inner
// are positive and a row (inner elements) is a multiple of 32 bytes.
#ifndef NPUD_ASCENDC_ADV_REDUCE_FILL_H_
#define NPUD_ASCENDC_ADV_REDUCE_FILL_H_

#include <cstdint>
#include <type_traits>

#include "npud_ascendc/check.h"
#include "npud_ascendc/numeric.h"
#include "npud_ascendc/tensor.h"

namespace AscendC {

struct SumParams {
  uint32_t outter = 1;
  uint32_t inner = 0;
  uint32_t n = 0;
};

template <class T, int32_t reduceDim = -1, bool isReuseSource = false, bool isBasicBlock = false>
void Sum(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
         const LocalTensor<uint8_t>& /*sharedTmpBuffer*/, const SumParams& sumParams) {
  static_assert(::npud::ascendc::kIsFloating<T>, "Sum takes half or float tensors");
  const SumParams& p = sumParams;
  if (p.n > p.inner || uint64_t{p.outter} * p.inner > srcTensor.GetSize() ||
      p.outter > dstTensor.GetSize()) {
    ::npud::ascendc::Fail(
        "Sum: %u rows of %u (n %u) do not fit the source (%u elements) or the destination (%u)",
        p.outter, p.inner, p.n, srcTensor.GetSize(), dstTensor.GetSize());
  }
  for (uint32_t i = 0; i < p.outter; ++i) {
    float sum = 0;
    for (uint32_t k = 0; k < p.n; ++k) sum += static_cast<float>(srcTensor.Data()[i * p.inner + k]);
    dstTensor.Data()[i] = T(sum);
  }
}
template <class T, int32_t reduceDim = -1, bool isReuseSource = false, bool isBasicBlock = false>
void Sum(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
         const SumParams& sumParams) {
  Sum<T, reduceDim, isReuseSource, isBasicBlock>(dstTensor, srcTensor, LocalTensor<uint8_t>(),
                                                 sumParams);
}

enum class CumSumAlgorithm { CUMSUM_ALGORITHM_LINEBYLINE = 0, CUMSUM_ALGORITHM_SKLANSKY = 1 };
struct CumSumConfig {
  bool isLastAxis{true};
  bool isReuseSource{false};
  bool outputLastRow{false};
  CumSumAlgorithm algorithm{CumSumAlgorithm::CUMSUM_ALGORITHM_LINEBYLINE};
};
struct CumSumInfo {
  uint32_t outter{0};
  uint32_t inner{0};
};
// Unlike CumSumConfig's own defaults, upstream's default writes the last row.
inline constexpr CumSumConfig defaultCumSumConfig{true, false, true};

template <typename T, const CumSumConfig& config = defaultCumSumConfig>
void CumSum(LocalTensor<T>& dstTensor, LocalTensor<T>& lastRowTensor,
            const LocalTensor<T>& srcTensor, LocalTensor<uint8_t>& /*sharedTmpBuffer*/,
            const CumSumInfo& cumSumInfo) {
  static_assert(std::is_same_v<T, half> || std::is_same_v<T, float>,
                "CumSum takes half or float tensors");
  const uint32_t rows = cumSumInfo.outter, cols = cumSumInfo.inner;
  if (rows == 0 || cols == 0) {
    ::npud::ascendc::Fail("CumSum: outter %u and inner %u must both be positive", rows, cols);
  }
  if (cols * sizeof(T) % 32 != 0) {
    ::npud::ascendc::Fail("CumSum: a row of inner %u elements is %zu bytes, not a multiple of 32",
                          cols, cols * sizeof(T));
  }
  const uint64_t elements = uint64_t{rows} * cols;
  if (elements > dstTensor.GetSize() || elements > srcTensor.GetSize()) {
    ::npud::ascendc::Fail(
        "CumSum: %u x %u elements do not fit the source (%u elements) or the destination (%u)",
        rows, cols, srcTensor.GetSize(), dstTensor.GetSize());
  }
  if (config.outputLastRow && cols > lastRowTensor.GetSize()) {
    ::npud::ascendc::Fail("CumSum: the last row of %u elements does not fit lastRowTensor (%u)",
                          cols, lastRowTensor.GetSize());
  }
  // One float sum per row (last axis) or per column (first axis); each element is read
  // before it is written, so dst may be src.
  const uint32_t lines = config.isLastAxis ? rows : cols;
  const uint32_t length = config.isLastAxis ? cols : rows;
  const uint32_t line_step = config.isLastAxis ? cols : 1;
  const uint32_t element_step = config.isLastAxis ? 1 : cols;
  T* d = dstTensor.Data();
  const T* s = srcTensor.Data();
  for (uint32_t line = 0; line < lines; ++line) {
    float sum = 0;
    for (uint32_t k = 0; k < length; ++k) {
      const uint32_t i = line * line_step + k * element_step;
      sum += static_cast<float>(s[i]);
      d[i] = T(sum);
    }
  }
  if (config.outputLastRow) {
    for (uint32_t k = 0; k < cols; ++k) lastRowTensor.Data()[k] = d[(rows - 1) * cols + k];
  }
}
template <typename T, const CumSumConfig& config = defaultCumSumConfig>
void CumSum(LocalTensor<T>& dstTensor, LocalTensor<T>& lastRowTensor,
            const LocalTensor<T>& srcTensor, const CumSumInfo& cumSumInfo) {
  LocalTensor<uint8_t> sharedTmpBuffer;
  CumSum<T, config>(dstTensor, lastRowTensor, srcTensor, sharedTmpBuffer, cumSumInfo);
}

template <class T>
void Arange(const LocalTensor<T>& dst, const T firstValue, const T diffValue, const int32_t count) {
  ::npud::ascendc::CheckOperand("Arange", dst, count, "destination");
  const double first = static_cast<double>(::npud::ascendc::Widen(firstValue));
  const double diff = static_cast<double>(::npud::ascendc::Widen(diffValue));
  for (int32_t i = 0; i < count; ++i) dst.Data()[i] = T(first + diff * i);
}

template <class T>
void Fill(GlobalTensor<T>& gmWorkspaceAddr, const uint64_t size, const T value) {
  for (uint64_t i = 0; i < size; ++i) gmWorkspaceAddr.SetValue(i, value);
}

// The older name of the same (CANN marks it deprecated).
template <class T>
void InitOutput(GlobalTensor<T> gmWorkspaceAddr, uint32_t size, T value = 0) {
  Fill(gmWorkspaceAddr, size, value);
}

}  // namespace AscendC

#endif  // NPUD_ASCENDC_ADV_REDUCE_FILL_H_

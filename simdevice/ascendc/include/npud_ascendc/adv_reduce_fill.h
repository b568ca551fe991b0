// adv_reduce_fill.h: the advanced Sum, Arange and Fill.
//
//   Sum<T>(dst, src[, sharedTmpBuffer], {outter, inner, n})
//       dst[i] = src[i * inner] + ... + src[i * inner + n - 1] for each of the outter
//       rows (inner the row pitch, n the elements summed), in float, rounded once
//   Arange(dst, first, diff, count)   dst[i] = first + i * diff
//   Fill(gm, size, value)             the first size elements of a GlobalTensor
// Checks (trap kind 1): the rows or count fit the tensors.
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

}  // namespace AscendC

#endif  // NPUD_ASCENDC_ADV_REDUCE_FILL_H_

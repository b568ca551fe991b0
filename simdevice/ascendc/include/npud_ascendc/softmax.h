// softmax.h: SoftMax, SimpleSoftMax and AdjustSoftMaxRes over rows (ND format).
//
//   SoftMax(dst, sum, max, src[, sharedTmpBuffer], tiling[, shapeInfo])
//   SoftMax(dst, src[, sharedTmpBuffer], tiling[, shapeInfo])
//       row r of src (srcM rows of srcK): max_r = max_k x, sum_r = sum_k e^(x - max_r),
//       dst = e^(x - max_r) / sum_r; sum and max (if given) hold each row's value
//       repeated over one 32-byte block (8 floats or 16 halves); half data may have
//       float sum and max.
//   SimpleSoftMax(dst, sum, max, src[, sharedTmpBuffer], tiling[, shapeInfo])
//       dst = e^(x - max_r) / sum_r from the given sum and max.
//   AdjustSoftMaxRes(res, max, from, to, shapeInfo)
//       rows whose max has the bit pattern `from` are set to `to`; true if any was.
// The shape comes from shapeInfo (srcM, srcK; the reductions cover the first oriSrcK
// columns, oriSrcK 0 meaning all), or from the tiling when shapeInfo is all zero. The
// row is computed in float and rounded once to T. The NZ format is not simulated (a
// compile error); isReuseSource, isBasicBlock and the config change nothing.
// Checks (trap kind 1): the shape fits dst, src, sum and max.
#ifndef NPUD_ASCENDC_SOFTMAX_H_
#define NPUD_ASCENDC_SOFTMAX_H_

#include <cmath>
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <vector>

#include "kernel_tiling/kernel_tiling.h"
#include "npud_ascendc/check.h"
#include "npud_ascendc/numeric.h"
#include "npud_ascendc/tensor.h"

namespace AscendC {

struct SoftMaxShapeInfo {
  uint32_t srcM = 0;
  uint32_t srcK = 0;
  uint32_t oriSrcM = 0;
  uint32_t oriSrcK = 0;
};

enum class SoftmaxMode { SOFTMAX_NORMAL = 0, SOFTMAX_OUTPUT_WITHOUT_BRC = 1 };
struct SoftmaxConfig {
  bool isCheckTiling = true;
  uint32_t oriSrcM = 0;
  uint32_t oriSrcK = 0;
  SoftmaxMode mode = SoftmaxMode::SOFTMAX_NORMAL;
};
inline constexpr SoftmaxConfig SOFTMAX_DEFAULT_CFG{};

}  // namespace AscendC

namespace npud::ascendc {

struct RowShape {
  uint32_t rows = 0;
  uint32_t cols = 0;     // the row pitch
  uint32_t reduced = 0;  // the columns the reductions cover
};

inline RowShape RowShapeOf(const SoftMaxTiling& tiling, const AscendC::SoftMaxShapeInfo& info) {
  RowShape s;
  if (info.srcM == 0 && info.srcK == 0) {
    s.rows = tiling.srcM;
    s.cols = tiling.srcK;
  } else {
    s.rows = info.srcM;
    s.cols = info.srcK;
  }
  s.reduced = info.oriSrcK != 0 && info.oriSrcK < s.cols ? info.oriSrcK : s.cols;
  return s;
}

template <class T>
void CheckRows(const char* op, const AscendC::LocalTensor<T>& t, uint64_t elements,
               const char* role) {
  if (elements > t.GetSize()) {
    Fail("%s: the %s tensor has %u elements, the shape needs %llu", op, role, t.GetSize(),
         static_cast<unsigned long long>(elements));
  }
}

// Row r's value repeated over its 32-byte block of `t`.
template <class R>
void StoreRowBlock(const AscendC::LocalTensor<R>& t, uint32_t r, float value) {
  constexpr uint32_t kPerBlock = 32 / sizeof(R);
  for (uint32_t i = 0; i < kPerBlock; ++i) t.Data()[r * kPerBlock + i] = R(value);
}

// dst = e^(x - max) / sum per row; with `reduce`, max and sum are computed first (and
// stored when the tensors are given).
template <class T, class R>
void SoftMaxRows(const char* op, const AscendC::LocalTensor<T>& dst,
                 const AscendC::LocalTensor<R>* sum, const AscendC::LocalTensor<R>* max,
                 const AscendC::LocalTensor<T>& src, const RowShape& s, bool reduce) {
  static_assert(std::is_same_v<T, half> || std::is_same_v<T, float>,
                "SoftMax takes half or float tensors");
  constexpr uint32_t kPerBlock = 32 / sizeof(R);
  const uint64_t n = uint64_t{s.rows} * s.cols;
  CheckRows(op, dst, n, "destination");
  CheckRows(op, src, n, "source");
  if (sum != nullptr) CheckRows(op, *sum, uint64_t{s.rows} * kPerBlock, "sum");
  if (max != nullptr) CheckRows(op, *max, uint64_t{s.rows} * kPerBlock, "max");
  // Each row's exponentials, computed once: the sum adds those of the
  // reduced columns, the quotients divide them all.
  std::vector<float> e(s.cols);
  for (uint32_t r = 0; r < s.rows; ++r) {
    const T* x = src.Data() + uint64_t{r} * s.cols;
    T* y = dst.Data() + uint64_t{r} * s.cols;
    float row_max, row_sum;
    if (reduce) {
      row_max = -INFINITY;
      for (uint32_t k = 0; k < s.reduced; ++k)
        row_max = std::fmax(row_max, static_cast<float>(x[k]));
    } else {
      row_max = static_cast<float>(max->Data()[r * kPerBlock]);
    }
    for (uint32_t k = 0; k < s.cols; ++k) e[k] = std::exp(static_cast<float>(x[k]) - row_max);
    if (reduce) {
      row_sum = 0;
      for (uint32_t k = 0; k < s.reduced; ++k) row_sum += e[k];
    } else {
      row_sum = static_cast<float>(sum->Data()[r * kPerBlock]);
    }
    for (uint32_t k = 0; k < s.cols; ++k) y[k] = T(e[k] / row_sum);
    if (reduce && sum != nullptr) StoreRowBlock(*sum, r, row_sum);
    if (reduce && max != nullptr) StoreRowBlock(*max, r, row_max);
  }
}

}  // namespace npud::ascendc

namespace AscendC {

template <class T, bool isReuseSource = false, bool isBasicBlock = false,
          bool isDataFormatNZ = false, const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG, class D,
          class R>
void SoftMax(const LocalTensor<D>& dstTensor, const LocalTensor<R>& sumTensor,
             const LocalTensor<R>& maxTensor, const LocalTensor<D>& srcTensor,
             const LocalTensor<uint8_t>& /*sharedTmpBuffer*/, const SoftMaxTiling& tiling,
             const SoftMaxShapeInfo& softmaxShapeInfo = {}) {
  static_assert(!isDataFormatNZ, "SoftMax: the NZ format is not simulated");
  ::npud::ascendc::SoftMaxRows("SoftMax", dstTensor, &sumTensor, &maxTensor, srcTensor,
                               ::npud::ascendc::RowShapeOf(tiling, softmaxShapeInfo), true);
}
template <class T, bool isReuseSource = false, bool isBasicBlock = false,
          bool isDataFormatNZ = false, const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG, class D,
          class R>
void SoftMax(const LocalTensor<D>& dstTensor, const LocalTensor<R>& sumTensor,
             const LocalTensor<R>& maxTensor, const LocalTensor<D>& srcTensor,
             const SoftMaxTiling& tiling, const SoftMaxShapeInfo& softmaxShapeInfo = {}) {
  SoftMax<T, isReuseSource, isBasicBlock, isDataFormatNZ, config>(
      dstTensor, sumTensor, maxTensor, srcTensor, LocalTensor<uint8_t>(), tiling, softmaxShapeInfo);
}
template <class T, bool isReuseSource = false, bool isBasicBlock = false,
          const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
void SoftMax(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
             const LocalTensor<uint8_t>& /*sharedTmpBuffer*/, const SoftMaxTiling& tiling,
             const SoftMaxShapeInfo& softmaxShapeInfo = {}) {
  ::npud::ascendc::SoftMaxRows<T, T>("SoftMax", dstTensor, nullptr, nullptr, srcTensor,
                                     ::npud::ascendc::RowShapeOf(tiling, softmaxShapeInfo), true);
}
template <class T, bool isReuseSource = false, bool isBasicBlock = false,
          const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
void SoftMax(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
             const SoftMaxTiling& tiling, const SoftMaxShapeInfo& softmaxShapeInfo = {}) {
  SoftMax<T, isReuseSource, isBasicBlock, config>(dstTensor, srcTensor, LocalTensor<uint8_t>(),
                                                  tiling, softmaxShapeInfo);
}

template <class T, bool isReuseSource = false, bool isBasicBlock = false,
          bool isDataFormatNZ = false, const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG, class D,
          class R>
void SimpleSoftMax(const LocalTensor<D>& dstTensor, const LocalTensor<R>& sumTensor,
                   const LocalTensor<R>& maxTensor, const LocalTensor<D>& srcTensor,
                   const LocalTensor<uint8_t>& /*sharedTmpBuffer*/, const SoftMaxTiling& tiling,
                   const SoftMaxShapeInfo& softmaxShapeInfo = {}) {
  static_assert(!isDataFormatNZ, "SimpleSoftMax: the NZ format is not simulated");
  ::npud::ascendc::SoftMaxRows("SimpleSoftMax", dstTensor, &sumTensor, &maxTensor, srcTensor,
                               ::npud::ascendc::RowShapeOf(tiling, softmaxShapeInfo), false);
}
template <class T, bool isReuseSource = false, bool isBasicBlock = false,
          bool isDataFormatNZ = false, const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG, class D,
          class R>
void SimpleSoftMax(const LocalTensor<D>& dstTensor, const LocalTensor<R>& sumTensor,
                   const LocalTensor<R>& maxTensor, const LocalTensor<D>& srcTensor,
                   const SoftMaxTiling& tiling, const SoftMaxShapeInfo& softmaxShapeInfo = {}) {
  SimpleSoftMax<T, isReuseSource, isBasicBlock, isDataFormatNZ, config>(
      dstTensor, sumTensor, maxTensor, srcTensor, LocalTensor<uint8_t>(), tiling, softmaxShapeInfo);
}

template <class T1, class T2, bool isDataFormatNZ = false, uint8_t stepSizeMode = 0>
bool AdjustSoftMaxRes(const LocalTensor<T1>& softMaxRes, const LocalTensor<T2>& maxTensor,
                      const uint32_t from, const T1 to, const SoftMaxShapeInfo& softmaxShapeInfo) {
  static_assert(!isDataFormatNZ, "AdjustSoftMaxRes: the NZ format is not simulated");
  constexpr uint32_t kPerBlock = 32 / sizeof(T2);
  const uint64_t n = uint64_t{softmaxShapeInfo.srcM} * softmaxShapeInfo.srcK;
  ::npud::ascendc::CheckRows("AdjustSoftMaxRes", softMaxRes, n, "result");
  ::npud::ascendc::CheckRows("AdjustSoftMaxRes", maxTensor,
                             uint64_t{softmaxShapeInfo.srcM} * kPerBlock, "max");
  bool adjusted = false;
  for (uint32_t r = 0; r < softmaxShapeInfo.srcM; ++r) {
    using Bits = std::conditional_t<sizeof(T2) == 2, uint16_t, uint32_t>;
    Bits bits;
    std::memcpy(&bits, &maxTensor.Data()[r * kPerBlock], sizeof(bits));
    if (bits != static_cast<Bits>(from)) continue;
    adjusted = true;
    T1* row = softMaxRes.Data() + uint64_t{r} * softmaxShapeInfo.srcK;
    for (uint32_t k = 0; k < softmaxShapeInfo.srcK; ++k) row[k] = to;
  }
  return adjusted;
}

}  // namespace AscendC

#endif  // NPUD_ASCENDC_SOFTMAX_H_

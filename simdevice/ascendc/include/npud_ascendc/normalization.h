// normalization.h: LayerNorm and RmsNorm over the rows of a [B, S, H] tensor.
//
//   LayerNorm(output, mean, variance, x, gamma, beta[, sharedTmpBuffer], epsilon, tiling)
//       for each of the B * S rows of hLength elements: mean and variance over the
//       first originalHLength elements (all if 0), output = (x - mean) /
//       sqrt(variance + epsilon) * gamma + beta; mean[r], variance[r] per row.
//   RmsNorm(dst, src, gamma[, sharedTmpBuffer], epsilon, tiling)
//       for each of the B * S rows of hLength elements:
//       dst = src / sqrt(mean(src^2) + epsilon) * gamma, the mean over the first
//       originalHLength elements (all if 0) as sum * reciprocalOfHLength (1 / that
//       length if 0); computed in float, rounded once to T.
// Checks (trap kind 1): the shape fits dst, src and gamma.
#ifndef NPUD_ASCENDC_NORMALIZATION_H_
#define NPUD_ASCENDC_NORMALIZATION_H_

#include <cmath>
#include <cstdint>
#include <type_traits>

#include "kernel_tiling/kernel_tiling.h"
#include "npud_ascendc/check.h"
#include "npud_ascendc/tensor.h"

namespace AscendC {

template <class T, bool isReuseSource = false>
void LayerNorm(const LocalTensor<T>& output, const LocalTensor<T>& outputMean,
               const LocalTensor<T>& outputVariance, const LocalTensor<T>& inputX,
               const LocalTensor<T>& gamma, const LocalTensor<T>& beta,
               const LocalTensor<uint8_t>& /*sharedTmpBuffer*/, const T epsilon,
               LayerNormTiling& tiling) {
  static_assert(std::is_same_v<T, half> || std::is_same_v<T, float>,
                "LayerNorm takes half or float tensors");
  const uint64_t rows = uint64_t{tiling.bLength} * tiling.sLength;
  const uint32_t h = tiling.hLength;
  const uint32_t valid =
      tiling.originalHLength != 0 && tiling.originalHLength < h ? tiling.originalHLength : h;
  if (rows * h > output.GetSize() || rows * h > inputX.GetSize() || h > gamma.GetSize() ||
      h > beta.GetSize() || rows > outputMean.GetSize() || rows > outputVariance.GetSize()) {
    ::npud::ascendc::Fail(
        "LayerNorm: %llu rows of %u elements do not fit the output, input, gamma, beta, mean or "
        "variance tensors",
        static_cast<unsigned long long>(rows), h);
  }
  const float eps = static_cast<float>(epsilon);
  for (uint64_t r = 0; r < rows; ++r) {
    const T* x = inputX.Data() + r * h;
    T* y = output.Data() + r * h;
    float mean = 0;
    for (uint32_t k = 0; k < valid; ++k) mean += static_cast<float>(x[k]);
    mean /= static_cast<float>(valid == 0 ? 1 : valid);
    float variance = 0;
    for (uint32_t k = 0; k < valid; ++k) {
      const float d = static_cast<float>(x[k]) - mean;
      variance += d * d;
    }
    variance /= static_cast<float>(valid == 0 ? 1 : valid);
    const float scale = 1.0f / std::sqrt(variance + eps);
    for (uint32_t k = 0; k < h; ++k) {
      y[k] = T((static_cast<float>(x[k]) - mean) * scale * static_cast<float>(gamma.Data()[k]) +
               static_cast<float>(beta.Data()[k]));
    }
    outputMean.Data()[r] = T(mean);
    outputVariance.Data()[r] = T(variance);
  }
}
template <class T, bool isReuseSource = false>
void LayerNorm(const LocalTensor<T>& output, const LocalTensor<T>& outputMean,
               const LocalTensor<T>& outputVariance, const LocalTensor<T>& inputX,
               const LocalTensor<T>& gamma, const LocalTensor<T>& beta, const T epsilon,
               LayerNormTiling& tiling) {
  LayerNorm<T, isReuseSource>(output, outputMean, outputVariance, inputX, gamma, beta,
                              LocalTensor<uint8_t>(), epsilon, tiling);
}

template <class T, bool isBasicBlock = false>
void RmsNorm(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal,
             const LocalTensor<T>& gammaLocal, const LocalTensor<uint8_t>& /*sharedTmpBuffer*/,
             const T epsilon, const RmsNormTiling& tiling) {
  static_assert(std::is_same_v<T, half> || std::is_same_v<T, float>,
                "RmsNorm takes half or float tensors");
  const uint64_t rows = uint64_t{tiling.bLength} * tiling.sLength;
  const uint32_t h = tiling.hLength;
  const uint32_t valid =
      tiling.originalHLength != 0 && tiling.originalHLength < h ? tiling.originalHLength : h;
  if (rows * h > dstLocal.GetSize() || rows * h > srcLocal.GetSize() || h > gammaLocal.GetSize()) {
    ::npud::ascendc::Fail(
        "RmsNorm: %llu rows of %u elements do not fit dst (%u), src (%u) or gamma (%u)",
        static_cast<unsigned long long>(rows), h, dstLocal.GetSize(), srcLocal.GetSize(),
        gammaLocal.GetSize());
  }
  const float reciprocal = tiling.reciprocalOfHLength != 0
                               ? tiling.reciprocalOfHLength
                               : (valid == 0 ? 0.0f : 1.0f / static_cast<float>(valid));
  const float eps = static_cast<float>(epsilon);
  for (uint64_t r = 0; r < rows; ++r) {
    const T* x = srcLocal.Data() + r * h;
    T* y = dstLocal.Data() + r * h;
    float squares = 0;
    for (uint32_t k = 0; k < valid; ++k)
      squares += static_cast<float>(x[k]) * static_cast<float>(x[k]);
    const float scale = 1.0f / std::sqrt(squares * reciprocal + eps);
    for (uint32_t k = 0; k < h; ++k) {
      y[k] = T(static_cast<float>(x[k]) * scale * static_cast<float>(gammaLocal.Data()[k]));
    }
  }
}
template <class T, bool isBasicBlock = false>
void RmsNorm(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal,
             const LocalTensor<T>& gammaLocal, const T epsilon, const RmsNormTiling& tiling) {
  RmsNorm<T, isBasicBlock>(dstLocal, srcLocal, gammaLocal, LocalTensor<uint8_t>(), epsilon, tiling);
}

}  // namespace AscendC

#endif  // NPUD_ASCENDC_NORMALIZATION_H_

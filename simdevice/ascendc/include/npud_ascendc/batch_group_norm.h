// batch_group_norm.h: the advanced BatchNorm and GroupNorm.
//
//   BatchNorm<T, isReuseSource, isBasicBlock>(output, outputMean, outputVariance, inputX,
//                                             gamm, beta[, sharedTmpBuffer], epsilon, tiling)
//       inputX and output [B, S, H], normalised over B for each (s, h): mean and
//       variance ([S, H]) over the tiling's originalBLength rows, then
//       output[b] = beta[b] + gamm[b] * ((x - mean) * rstd), gamm and beta of shape
//       [B] (the reference's definition).
//   GroupNorm<T, isReuseSource>(output, outputMean, outputVariance, inputX, gamma, beta
//                               [, sharedTmpBuffer], epsilon, tiling)
//       inputX and output [N, C, H, W], each channel's H * W elements padded to 32
//       bytes (tiling.hwAlignSize); the C channels form tiling.g groups of d; mean and
//       variance per (n, group) ([N, g]); output = (x - mean) * rstd * gamma[c] +
//       beta[c]. Padding is neither read nor written.
//
// Numerics (the reference's A2 implementation): in float; rstd = 1 / sqrt(var + eps);
// variances are the population ones. BatchNorm's mean adds x * (1 / originB) (the
// tiling's firstDimValueBack) row by row, its variance the squares row by row times
// that factor; GroupNorm adds x, then the squares, in order and multiplies each sum by
// tiling.factor (1 / (d * H * W)). half results (means and variances too) are rounded
// once from float. sharedTmpBuffer, isReuseSource and isBasicBlock change nothing.
// Checks (trap kind 1): the tensors hold the shapes the tiling gives; S * H is a
// multiple of 32 bytes (BatchNorm); C is a multiple of g (GroupNorm).
#ifndef NPUD_ASCENDC_BATCH_GROUP_NORM_H_
#define NPUD_ASCENDC_BATCH_GROUP_NORM_H_

#include <cmath>
#include <cstdint>
#include <type_traits>

#include "kernel_tiling/kernel_tiling.h"
#include "npud_ascendc/check.h"
#include "npud_ascendc/fp16.h"
#include "npud_ascendc/tensor.h"

namespace npud::ascendc {

template <class T>
void CheckNormTensor(const char* api, const char* what, const AscendC::LocalTensor<T>& t,
                     uint64_t need) {
  if (need > t.GetSize()) {
    Fail("%s: %s has %u elements, the tiling's shape needs %llu", api, what, t.GetSize(),
         static_cast<unsigned long long>(need));
  }
}

}  // namespace npud::ascendc

namespace AscendC {

template <class T, bool isReuseSource = false, bool isBasicBlock = false>
void BatchNorm(const LocalTensor<T>& output, const LocalTensor<T>& outputMean,
               const LocalTensor<T>& outputVariance, const LocalTensor<T>& inputX,
               const LocalTensor<T>& gamm, const LocalTensor<T>& beta,
               const LocalTensor<uint8_t>& /*sharedTmpBuffer*/, const T epsilon,
               BatchNormTiling& tiling) {
  static_assert(std::is_same_v<T, half> || std::is_same_v<T, float>,
                "BatchNorm takes half or float tensors");
  using ::npud::ascendc::CheckNormTensor;
  const uint32_t b_count = tiling.originalBLength, sh = tiling.meanVarSize;
  if (uint64_t{sh} * sizeof(T) % 32 != 0) {
    ::npud::ascendc::Fail("BatchNorm: S * H (%u) is not a multiple of 32 bytes", sh);
  }
  CheckNormTensor("BatchNorm", "inputX", inputX, uint64_t{b_count} * sh);
  CheckNormTensor("BatchNorm", "output", output, uint64_t{b_count} * sh);
  CheckNormTensor("BatchNorm", "outputMean", outputMean, sh);
  CheckNormTensor("BatchNorm", "outputVariance", outputVariance, sh);
  CheckNormTensor("BatchNorm", "gamm", gamm, b_count);
  CheckNormTensor("BatchNorm", "beta", beta, b_count);
  const float inv = tiling.firstDimValueBack;
  const float eps = static_cast<float>(epsilon);
  const T* x = inputX.Data();
  T* out = output.Data();
  for (uint32_t j = 0; j < sh; ++j) {
    float mean = 0;
    for (uint32_t b = 0; b < b_count; ++b) mean += static_cast<float>(x[b * sh + j]) * inv;
    float var = 0;
    for (uint32_t b = 0; b < b_count; ++b) {
      const float diff = static_cast<float>(x[b * sh + j]) - mean;
      var += diff * diff;
    }
    var *= inv;
    const float rstd = 1.0f / std::sqrt(var + eps);
    for (uint32_t b = 0; b < b_count; ++b) {
      const float norm = (static_cast<float>(x[b * sh + j]) - mean) * rstd;
      out[b * sh + j] =
          T(static_cast<float>(beta.Data()[b]) + static_cast<float>(gamm.Data()[b]) * norm);
    }
    outputMean.Data()[j] = T(mean);
    outputVariance.Data()[j] = T(var);
  }
}
template <class T, bool isReuseSource = false, bool isBasicBlock = false>
void BatchNorm(const LocalTensor<T>& output, const LocalTensor<T>& outputMean,
               const LocalTensor<T>& outputVariance, const LocalTensor<T>& inputX,
               const LocalTensor<T>& gamm, const LocalTensor<T>& beta, const T epsilon,
               BatchNormTiling& tiling) {
  BatchNorm<T, isReuseSource, isBasicBlock>(output, outputMean, outputVariance, inputX, gamm, beta,
                                            LocalTensor<uint8_t>(), epsilon, tiling);
}

template <class T, bool isReuseSource = false>
void GroupNorm(const LocalTensor<T>& output, const LocalTensor<T>& outputMean,
               const LocalTensor<T>& outputVariance, const LocalTensor<T>& inputX,
               const LocalTensor<T>& gamma, const LocalTensor<T>& beta,
               const LocalTensor<uint8_t>& /*sharedTmpBuffer*/, const T epsilon,
               GroupNormTiling& tiling) {
  static_assert(std::is_same_v<T, half> || std::is_same_v<T, float>,
                "GroupNorm takes half or float tensors");
  using ::npud::ascendc::CheckNormTensor;
  const uint32_t n = tiling.n, c = tiling.c, hw = tiling.hw, g = tiling.g;
  if (g == 0 || c % g != 0 || hw > tiling.hwAlignSize) {
    ::npud::ascendc::Fail("GroupNorm: %u channels in %u groups of H * W %u (padded to %u)", c, g,
                          hw, tiling.hwAlignSize);
  }
  const uint32_t d = c / g, pitch = tiling.hwAlignSize;
  CheckNormTensor("GroupNorm", "inputX", inputX, uint64_t{n} * c * pitch);
  CheckNormTensor("GroupNorm", "output", output, uint64_t{n} * c * pitch);
  CheckNormTensor("GroupNorm", "outputMean", outputMean, uint64_t{n} * g);
  CheckNormTensor("GroupNorm", "outputVariance", outputVariance, uint64_t{n} * g);
  CheckNormTensor("GroupNorm", "gamma", gamma, c);
  CheckNormTensor("GroupNorm", "beta", beta, c);
  const float factor = tiling.factor;
  const float eps = static_cast<float>(epsilon);
  for (uint32_t ni = 0; ni < n; ++ni) {
    for (uint32_t gi = 0; gi < g; ++gi) {
      const uint64_t first = (uint64_t{ni} * c + uint64_t{gi} * d) * pitch;
      const T* x = inputX.Data() + first;
      float sum = 0;
      for (uint32_t ch = 0; ch < d; ++ch) {
        for (uint32_t k = 0; k < hw; ++k) sum += static_cast<float>(x[ch * pitch + k]);
      }
      const float mean = sum * factor;
      float squares = 0;
      for (uint32_t ch = 0; ch < d; ++ch) {
        for (uint32_t k = 0; k < hw; ++k) {
          const float diff = static_cast<float>(x[ch * pitch + k]) - mean;
          squares += diff * diff;
        }
      }
      const float var = squares * factor;
      const float rstd = 1.0f / std::sqrt(var + eps);
      T* out = output.Data() + first;
      for (uint32_t ch = 0; ch < d; ++ch) {
        const float scale = static_cast<float>(gamma.Data()[gi * d + ch]);
        const float shift = static_cast<float>(beta.Data()[gi * d + ch]);
        for (uint32_t k = 0; k < hw; ++k) {
          const float norm = (static_cast<float>(x[ch * pitch + k]) - mean) * rstd;
          out[ch * pitch + k] = T(norm * scale + shift);
        }
      }
      outputMean.Data()[ni * g + gi] = T(mean);
      outputVariance.Data()[ni * g + gi] = T(var);
    }
  }
}
template <class T, bool isReuseSource = false>
void GroupNorm(const LocalTensor<T>& output, const LocalTensor<T>& outputMean,
               const LocalTensor<T>& outputVariance, const LocalTensor<T>& inputX,
               const LocalTensor<T>& gamma, const LocalTensor<T>& beta, const T epsilon,
               GroupNormTiling& tiling) {
  GroupNorm<T, isReuseSource>(output, outputMean, outputVariance, inputX, gamma, beta,
                              LocalTensor<uint8_t>(), epsilon, tiling);
}

}  // namespace AscendC

#endif  // NPUD_ASCENDC_BATCH_GROUP_NORM_H_

// normalize.h: the rstd forms of normalisation over [A, R] rows: LayerNorm with a
// LayerNormPara (mean and reciprocal standard deviation out) and Normalize (the same
// from a given mean and variance).
//
//   LayerNorm<U, T, isReuseSource, config>(y, mean, rstd, x, gamma, beta, epsilon
//                                          [, sharedTmpBuffer], para, tiling)
//       per row a < aLength of rLength (rows rLengthWithPadding apart):
//       mean_a = mean x, rstd_a = 1 / sqrt(var x + epsilon),
//       y = (x - mean_a) * rstd_a * gamma + beta
//   Normalize<U, T, isReuseSource, config>(y, rstd, mean, variance, x, gamma, beta
//                                          [, sharedTmpBuffer], epsilon, para)
//       rstd_a = 1 / sqrt(variance_a + epsilon), y as above from the given mean.
// config.isNoGamma / isNoBeta leave out gamma / beta; isOnlyOutput writes y only;
// LayerNorm's isOutputRstd false is not simulated (upstream's A2 computes rstd).
// Computed in double, rounded once to T or float. The tiling is not needed.
// Checks (trap kind 1): the shape fits every tensor.
#ifndef NPUD_ASCENDC_NORMALIZE_H_
#define NPUD_ASCENDC_NORMALIZE_H_

#include <cmath>
#include <cstdint>

#include "kernel_tiling/kernel_tiling.h"
#include "npud_ascendc/check.h"
#include "npud_ascendc/reduce_pattern.h"
#include "npud_ascendc/tensor.h"

namespace AscendC {

struct LayerNormConfig {
  bool isNoBeta = false;
  bool isNoGamma = false;
  bool isOnlyOutput = false;
  bool isOutputRstd = true;
};
inline constexpr LayerNormConfig LNCFG_NORM{};

struct LayerNormPara {
  uint32_t aLength;
  uint32_t rLength;
  uint32_t rLengthWithPadding;
};

struct NormalizeConfig {
  ReducePattern reducePattern = ReducePattern::AR;
  int32_t aLength = -1;
  bool isNoBeta = false;
  bool isNoGamma = false;
  bool isOnlyOutput = false;
};
inline constexpr NormalizeConfig NLCFG_NORM{};

struct NormalizePara {
  uint32_t aLength;
  uint32_t rLength;
  uint32_t rLengthWithPadding;
};

}  // namespace AscendC

namespace npud::ascendc {

// Normalises the rows of x into y; with `stats` the mean and variance are computed
// (and the mean stored), otherwise read from mean and variance.
template <class U, class T>
void NormalizeRows(const char* op, const AscendC::LocalTensor<T>& y,
                   const AscendC::LocalTensor<float>& mean,
                   const AscendC::LocalTensor<float>* variance,
                   const AscendC::LocalTensor<float>& rstd, const AscendC::LocalTensor<T>& x,
                   const AscendC::LocalTensor<U>& gamma, const AscendC::LocalTensor<U>& beta,
                   float epsilon, uint32_t rows, uint32_t cols, uint32_t pitch, bool no_gamma,
                   bool no_beta, bool only_output) {
  if (pitch < cols) pitch = cols;
  const uint64_t span = rows == 0 ? 0 : uint64_t{rows - 1} * pitch + cols;
  if (span > y.GetSize() || span > x.GetSize() || (!no_gamma && cols > gamma.GetSize()) ||
      (!no_beta && cols > beta.GetSize()) ||
      (variance == nullptr && !only_output && rows > mean.GetSize()) ||
      (variance != nullptr && (rows > mean.GetSize() || rows > variance->GetSize())) ||
      (!only_output && rows > rstd.GetSize())) {
    Fail("%s: %u rows of %u (%u apart) do not fit its tensors", op, rows, cols, pitch);
  }
  for (uint64_t a = 0; a < rows; ++a) {
    const T* in = x.Data() + a * pitch;
    double m = 0, v = 0;
    if (variance == nullptr) {
      for (uint32_t r = 0; r < cols; ++r) m += static_cast<double>(static_cast<float>(in[r]));
      m /= cols == 0 ? 1 : cols;
      for (uint32_t r = 0; r < cols; ++r) {
        const double d = static_cast<double>(static_cast<float>(in[r])) - m;
        v += d * d;
      }
      v /= cols == 0 ? 1 : cols;
    } else {
      m = mean.Data()[a];
      v = variance->Data()[a];
    }
    const double s = 1.0 / std::sqrt(v + static_cast<double>(epsilon));
    for (uint32_t r = 0; r < cols; ++r) {
      double out = (static_cast<double>(static_cast<float>(in[r])) - m) * s;
      if (!no_gamma) out *= static_cast<double>(static_cast<float>(gamma.Data()[r]));
      if (!no_beta) out += static_cast<double>(static_cast<float>(beta.Data()[r]));
      y.Data()[a * pitch + r] = T(static_cast<float>(out));
    }
    if (only_output) continue;
    if (variance == nullptr) mean.Data()[a] = static_cast<float>(m);
    rstd.Data()[a] = static_cast<float>(s);
  }
}

}  // namespace npud::ascendc

namespace AscendC {

template <typename U, typename T, bool isReuseSource = false,
          const LayerNormConfig& config = LNCFG_NORM>
void LayerNorm(const LocalTensor<T>& output, const LocalTensor<float>& outputMean,
               const LocalTensor<float>& outputRstd, const LocalTensor<T>& inputX,
               const LocalTensor<U>& gamma, const LocalTensor<U>& beta, const float epsilon,
               const LocalTensor<uint8_t>& /*sharedTmpBuffer*/, const LayerNormPara& para,
               const LayerNormSeparateTiling& /*tiling*/) {
  static_assert(config.isOutputRstd, "LayerNorm: only the rstd output is simulated");
  ::npud::ascendc::NormalizeRows<U, T>("LayerNorm", output, outputMean, nullptr, outputRstd, inputX,
                                       gamma, beta, epsilon, para.aLength, para.rLength,
                                       para.rLengthWithPadding, config.isNoGamma, config.isNoBeta,
                                       config.isOnlyOutput);
}
template <typename U, typename T, bool isReuseSource = false,
          const LayerNormConfig& config = LNCFG_NORM>
void LayerNorm(const LocalTensor<T>& output, const LocalTensor<float>& outputMean,
               const LocalTensor<float>& outputRstd, const LocalTensor<T>& inputX,
               const LocalTensor<U>& gamma, const LocalTensor<U>& beta, const float epsilon,
               const LayerNormPara& para, const LayerNormSeparateTiling& tiling) {
  LayerNorm<U, T, isReuseSource, config>(output, outputMean, outputRstd, inputX, gamma, beta,
                                         epsilon, LocalTensor<uint8_t>(), para, tiling);
}

template <typename U, typename T, bool isReuseSource = false,
          const NormalizeConfig& config = NLCFG_NORM>
void Normalize(const LocalTensor<T>& output, const LocalTensor<float>& outputRstd,
               const LocalTensor<float>& inputMean, const LocalTensor<float>& inputVariance,
               const LocalTensor<T>& inputX, const LocalTensor<U>& gamma,
               const LocalTensor<U>& beta, const LocalTensor<uint8_t>& /*sharedTmpBuffer*/,
               const float epsilon, const NormalizePara& para) {
  static_assert(config.reducePattern == ReducePattern::AR, "Normalize: only AR is simulated");
  ::npud::ascendc::NormalizeRows<U, T>("Normalize", output, inputMean, &inputVariance, outputRstd,
                                       inputX, gamma, beta, epsilon, para.aLength, para.rLength,
                                       para.rLengthWithPadding, config.isNoGamma, config.isNoBeta,
                                       config.isOnlyOutput);
}
template <typename U, typename T, bool isReuseSource = false,
          const NormalizeConfig& config = NLCFG_NORM>
void Normalize(const LocalTensor<T>& output, const LocalTensor<float>& outputRstd,
               const LocalTensor<float>& inputMean, const LocalTensor<float>& inputVariance,
               const LocalTensor<T>& inputX, const LocalTensor<U>& gamma,
               const LocalTensor<U>& beta, const float epsilon, const NormalizePara& para) {
  Normalize<U, T, isReuseSource, config>(output, outputRstd, inputMean, inputVariance, inputX,
                                         gamma, beta, LocalTensor<uint8_t>(), epsilon, para);
}

}  // namespace AscendC

#endif  // NPUD_ASCENDC_NORMALIZE_H_

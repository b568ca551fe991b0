// deep_norm.h: DeepNorm, LayerNorm of alpha * x + gx over the rows of a [B, S, H] tensor.
//
//   DeepNorm(dst, mean, variance, x, gx, beta, gamma[, sharedTmpBuffer], alpha, epsilon,
//            tiling)
//       per row (B * S rows of hLength): y = alpha * x + gx, mean and variance of y over
//       the first originalHLength elements (all if 0), dst = gamma * (y - mean) /
//       sqrt(variance + epsilon) + beta; mean[r] and variance[r] per row (upstream
//       names the third tensor rstd, but it holds the variance, as the asc-devkit
//       example's golden shows).
// DeepNormTiling has LayerNormTiling's fields. Computed in double, each result rounded
// once to T (the reference computes in float; values agree to float rounding).
// isReuseSrc and isBasicBlock change nothing.
// Checks (trap kind 1): the shape fits every tensor.
#ifndef NPUD_ASCENDC_DEEP_NORM_H_
#define NPUD_ASCENDC_DEEP_NORM_H_

#include <cmath>
#include <cstdint>
#include <type_traits>

#include "kernel_tiling/kernel_tiling.h"
#include "npud_ascendc/check.h"
#include "npud_ascendc/tensor.h"

namespace AscendC {

template <typename T, bool isReuseSrc = false, bool isBasicBlock = false>
void DeepNorm(const LocalTensor<T>& dstLocal, const LocalTensor<T>& meanLocal,
              const LocalTensor<T>& rstdLocal, const LocalTensor<T>& srcLocal,
              const LocalTensor<T>& gxLocal, const LocalTensor<T>& betaLocal,
              const LocalTensor<T>& gammaLocal, const LocalTensor<uint8_t>& /*sharedTmpBuffer*/,
              const T alpha, const T epsilon, DeepNormTiling& tiling) {
  static_assert(std::is_same_v<T, half> || std::is_same_v<T, float>,
                "DeepNorm takes half or float tensors");
  const uint64_t rows = uint64_t{tiling.bLength} * tiling.sLength;
  const uint32_t h = tiling.hLength;
  const uint32_t valid =
      tiling.originalHLength != 0 && tiling.originalHLength < h ? tiling.originalHLength : h;
  if (rows * h > dstLocal.GetSize() || rows * h > srcLocal.GetSize() ||
      rows * h > gxLocal.GetSize() || h > gammaLocal.GetSize() || h > betaLocal.GetSize() ||
      rows > meanLocal.GetSize() || rows > rstdLocal.GetSize()) {
    ::npud::ascendc::Fail(
        "DeepNorm: %llu rows of %u elements do not fit the dst, src, gx, gamma, beta, mean or "
        "variance tensors",
        static_cast<unsigned long long>(rows), h);
  }
  const double a = static_cast<double>(static_cast<float>(alpha));
  const double eps = static_cast<double>(static_cast<float>(epsilon));
  auto at = [](const LocalTensor<T>& t, uint64_t i) {
    return static_cast<double>(static_cast<float>(t.Data()[i]));
  };
  for (uint64_t r = 0; r < rows; ++r) {
    double mean = 0;
    for (uint32_t k = 0; k < valid; ++k)
      mean += a * at(srcLocal, r * h + k) + at(gxLocal, r * h + k);
    mean /= valid == 0 ? 1 : valid;
    double variance = 0;
    for (uint32_t k = 0; k < valid; ++k) {
      const double d = a * at(srcLocal, r * h + k) + at(gxLocal, r * h + k) - mean;
      variance += d * d;
    }
    variance /= valid == 0 ? 1 : valid;
    const double scale = 1.0 / std::sqrt(variance + eps);
    for (uint32_t k = 0; k < h; ++k) {
      const double y = a * at(srcLocal, r * h + k) + at(gxLocal, r * h + k);
      dstLocal.Data()[r * h + k] =
          T(static_cast<float>(at(gammaLocal, k) * (y - mean) * scale + at(betaLocal, k)));
    }
    meanLocal.Data()[r] = T(static_cast<float>(mean));
    rstdLocal.Data()[r] = T(static_cast<float>(variance));
  }
}
template <typename T, bool isReuseSrc = false, bool isBasicBlock = false>
void DeepNorm(const LocalTensor<T>& dstLocal, const LocalTensor<T>& meanLocal,
              const LocalTensor<T>& rstdLocal, const LocalTensor<T>& srcLocal,
              const LocalTensor<T>& gxLocal, const LocalTensor<T>& betaLocal,
              const LocalTensor<T>& gammaLocal, const T alpha, const T epsilon,
              DeepNormTiling& tiling) {
  DeepNorm<T, isReuseSrc, isBasicBlock>(dstLocal, meanLocal, rstdLocal, srcLocal, gxLocal,
                                        betaLocal, gammaLocal, LocalTensor<uint8_t>(), alpha,
                                        epsilon, tiling);
}

}  // namespace AscendC

#endif  // NPUD_ASCENDC_DEEP_NORM_H_

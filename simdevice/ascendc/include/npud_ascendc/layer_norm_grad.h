// layer_norm_grad.h: the backward pass of LayerNorm over the rows of a [B, S, H] tensor.
//
//   LayerNormGrad(pdX, resForGamma, dy, x, variance, mean, gamma[, sharedTmpBuffer],
//                 epsilon, tiling[, shapeInfo])
//       per row r (B * S rows of hLength), with d = x - mean[r], s = (variance[r] + eps)^-1/2,
//       pd_xl = dy * gamma:
//         pd_var  = sum(-0.5 * pd_xl * d) * s^3
//         pd_mean = sum(-pd_xl * s) + pd_var / H * sum(-2 d)
//         pdX = pd_xl * s + pd_var * 2 / H * d + pd_mean / H,  resForGamma = d * s
//   LayerNormGradBeta(pdGamma, pdBeta, resForGamma, dy[, sharedTmpBuffer], tiling)
//       pdGamma[h] = sum_r dy * resForGamma, pdBeta[h] = sum_r dy over the B * S rows.
// These are upstream's formulas term by term (the pd_mean term with sum(d) is kept:
// it is not exactly zero in float). H is the tiling's hLength. Sums are taken in
// double, each result rounded once to T; upstream sums in float, so results agree to
// float rounding. The shapes come from the tilings (GetLayerNormGradNDTilingInfo,
// GetLayerNormGradBetaNDTilingInfo in tiling/normalization_tiling.h).
// Checks (trap kind 1): the shape fits every tensor.
#ifndef NPUD_ASCENDC_LAYER_NORM_GRAD_H_
#define NPUD_ASCENDC_LAYER_NORM_GRAD_H_

#include <cmath>
#include <cstdint>
#include <type_traits>

#include "kernel_tiling/kernel_tiling.h"
#include "npud_ascendc/check.h"
#include "npud_ascendc/shape_info.h"
#include "npud_ascendc/tensor.h"

namespace AscendC {

struct LayerNormGradShapeInfo {
  DataFormat dataFormat = DataFormat::ND;  // only ND is simulated
};

}  // namespace AscendC

namespace npud::ascendc {

template <class T>
void CheckNormOperand(const char* op, const AscendC::LocalTensor<T>& t, uint64_t need,
                      const char* role) {
  if (need > t.GetSize()) {
    Fail("%s: the %s tensor has %u elements, the shape needs %llu", op, role, t.GetSize(),
         static_cast<unsigned long long>(need));
  }
}

}  // namespace npud::ascendc

namespace AscendC {

template <class T, bool isReuseSource = false>
void LayerNormGrad(const LocalTensor<T>& outputPdX, const LocalTensor<T>& resForGamma,
                   const LocalTensor<T>& inputDy, const LocalTensor<T>& inputX,
                   const LocalTensor<T>& inputVariance, const LocalTensor<T>& inputMean,
                   const LocalTensor<T>& inputGamma,
                   const LocalTensor<uint8_t>& /*sharedTmpBuffer*/, T epsilon,
                   const LayerNormGradTiling& tiling,
                   const LayerNormGradShapeInfo& /*shapeInfo*/ = {}) {
  static_assert(std::is_same_v<T, half> || std::is_same_v<T, float>,
                "LayerNormGrad takes half or float tensors");
  using ::npud::ascendc::CheckNormOperand;
  const uint64_t rows = uint64_t{tiling.bLength} * tiling.sLength;
  const uint32_t h = tiling.hLength;
  const char* op = "LayerNormGrad";
  CheckNormOperand(op, outputPdX, rows * h, "pdX");
  CheckNormOperand(op, resForGamma, rows * h, "resForGamma");
  CheckNormOperand(op, inputDy, rows * h, "dy");
  CheckNormOperand(op, inputX, rows * h, "x");
  CheckNormOperand(op, inputVariance, rows, "variance");
  CheckNormOperand(op, inputMean, rows, "mean");
  CheckNormOperand(op, inputGamma, h, "gamma");
  const double eps = static_cast<double>(static_cast<float>(epsilon));
  const double inv_h = h == 0 ? 0.0 : 1.0 / h;
  for (uint64_t r = 0; r < rows; ++r) {
    const T* x = inputX.Data() + r * h;
    const T* dy = inputDy.Data() + r * h;
    const T* gamma = inputGamma.Data();
    const double mean = static_cast<double>(static_cast<float>(inputMean.Data()[r]));
    const double s =
        1.0 / std::sqrt(static_cast<double>(static_cast<float>(inputVariance.Data()[r])) + eps);
    double pd_var = 0, pd_mean_first = 0, sum_d = 0;
    for (uint32_t k = 0; k < h; ++k) {
      const double d = static_cast<double>(static_cast<float>(x[k])) - mean;
      const double pd_xl = static_cast<double>(static_cast<float>(dy[k])) *
                           static_cast<double>(static_cast<float>(gamma[k]));
      pd_var += -0.5 * pd_xl * d * s * s * s;
      pd_mean_first += -pd_xl * s;
      sum_d += -2.0 * d;
    }
    const double pd_mean = pd_mean_first + pd_var * inv_h * sum_d;
    // Every input of the row has been read: pdX or resForGamma may alias x or dy.
    for (uint32_t k = 0; k < h; ++k) {
      const double d = static_cast<double>(static_cast<float>(x[k])) - mean;
      const double pd_xl = static_cast<double>(static_cast<float>(dy[k])) *
                           static_cast<double>(static_cast<float>(gamma[k]));
      const double pd_x = pd_xl * s + pd_var * 2.0 * inv_h * d + pd_mean * inv_h;
      resForGamma.Data()[r * h + k] = T(static_cast<float>(d * s));
      outputPdX.Data()[r * h + k] = T(static_cast<float>(pd_x));
    }
  }
}
template <class T, bool isReuseSource = false>
void LayerNormGrad(const LocalTensor<T>& outputPdX, const LocalTensor<T>& resForGamma,
                   const LocalTensor<T>& inputDy, const LocalTensor<T>& inputX,
                   const LocalTensor<T>& inputVariance, const LocalTensor<T>& inputMean,
                   const LocalTensor<T>& inputGamma, T epsilon, const LayerNormGradTiling& tiling,
                   const LayerNormGradShapeInfo& shapeInfo = {}) {
  LayerNormGrad<T, isReuseSource>(outputPdX, resForGamma, inputDy, inputX, inputVariance, inputMean,
                                  inputGamma, LocalTensor<uint8_t>(), epsilon, tiling, shapeInfo);
}

template <class T, bool isReuseSource = false>
void LayerNormGradBeta(const LocalTensor<T>& outputPdGamma, const LocalTensor<T>& outputPdBeta,
                       const LocalTensor<T>& resForGamma, const LocalTensor<T>& inputDy,
                       const LocalTensor<uint8_t>& /*sharedTmpBuffer*/,
                       const LayerNormGradBetaTiling& tiling) {
  static_assert(std::is_same_v<T, half> || std::is_same_v<T, float>,
                "LayerNormGradBeta takes half or float tensors");
  using ::npud::ascendc::CheckNormOperand;
  const uint64_t rows = uint64_t{tiling.bLength} * tiling.sLength;
  const uint32_t h = tiling.hLength;
  const char* op = "LayerNormGradBeta";
  CheckNormOperand(op, outputPdGamma, h, "pdGamma");
  CheckNormOperand(op, outputPdBeta, h, "pdBeta");
  CheckNormOperand(op, resForGamma, rows * h, "resForGamma");
  CheckNormOperand(op, inputDy, rows * h, "dy");
  for (uint32_t k = 0; k < h; ++k) {
    double gamma = 0, beta = 0;
    for (uint64_t r = 0; r < rows; ++r) {
      const double dy = static_cast<double>(static_cast<float>(inputDy.Data()[r * h + k]));
      gamma += dy * static_cast<double>(static_cast<float>(resForGamma.Data()[r * h + k]));
      beta += dy;
    }
    outputPdGamma.Data()[k] = T(static_cast<float>(gamma));
    outputPdBeta.Data()[k] = T(static_cast<float>(beta));
  }
}
template <class T, bool isReuseSource = false>
void LayerNormGradBeta(const LocalTensor<T>& outputPdGamma, const LocalTensor<T>& outputPdBeta,
                       const LocalTensor<T>& resForGamma, const LocalTensor<T>& inputDy,
                       const LayerNormGradBetaTiling& tiling) {
  LayerNormGradBeta<T, isReuseSource>(outputPdGamma, outputPdBeta, resForGamma, inputDy,
                                      LocalTensor<uint8_t>(), tiling);
}

}  // namespace AscendC

#endif  // NPUD_ASCENDC_LAYER_NORM_GRAD_H_

// welford.h: WelfordUpdate and WelfordFinalize, the online mean and variance that
// LayerNorm over a long reduce axis is split into.
//
//   WelfordUpdate<T, U, isReuseSource, config>(outMean, outVar, inMean, inVar, x
//                                              [, sharedTmpBuffer], para)
//       for rnLength rows of abLength, the first abComputeLength elements k of a row:
//         d = x - inMean, outMean = inMean + d * nRec, outVar = inVar + d * (x - outMean)
//       (one Welford step; outVar is the running sum of squares, M). The rest of each
//       row of the outputs is the input's (what the in-place form leaves, and what the
//       asc-devkit golden expects).
//   WelfordFinalize<isReuseSource, config>(mean, var, inMean, inVar[, counts]
//                                          [, sharedTmpBuffer], para)
//       combines the abLength partial results into mean[0] and var[0]:
//         with counts c_i (or, without, headCount for the first headCountLength and
//         tailCount for the next tailCountLength when a tail is given):
//           Mean = rRec * sum c_i Mean_i,
//           Var  = rRec * (sum Var_i + sum c_i (Mean_i - Mean)^2)
//         without counts and without a tail (every partial covers rnLength samples):
//           Mean = abRec * sum Mean_i,
//           Var  = rRec * (sum Var_i + rnLength * sum (Mean_i - Mean)^2)
//       These are Chan's pairwise formulas in the shape upstream documents them
//       (its formulas are images; the asc-devkit example's golden agrees). On the
//       Atlas A2 isCorrection (rRecWithCorrection) does not exist; it is ignored.
// Computed in float (the Update step in the reference's order), sums in double.
// Checks (trap kind 1): the lengths fit every tensor.
#ifndef NPUD_ASCENDC_WELFORD_H_
#define NPUD_ASCENDC_WELFORD_H_

#include <cstdint>
#include <type_traits>

#include "npud_ascendc/check.h"
#include "npud_ascendc/tensor.h"

namespace AscendC {

struct WelfordUpdateConfig {
  bool isInplace = false;
};
inline constexpr WelfordUpdateConfig WFUPDATE_DEFAULT_CFG = {false};

struct WelfordUpdateParam {
  uint32_t rnLength;
  uint32_t abLength;
  uint32_t abComputeLength;
  float nRec;
};

struct WelfordFinalizeConfig {
  bool isCorrection = false;
};
inline constexpr WelfordFinalizeConfig WFFINALIZE_DEFAULT_CFG = {false};

struct WelfordFinalizePara {
  uint32_t rnLength;
  uint32_t abLength;
  uint32_t headCount;
  uint32_t headCountLength;
  uint32_t tailCount;
  uint32_t tailCountLength;
  float abRec;
  float rRec;
  float rRecWithCorrection = 0;
};

}  // namespace AscendC

namespace npud::ascendc {

template <class T>
void CheckWelford(const char* op, const AscendC::LocalTensor<T>& t, uint64_t need,
                  const char* role) {
  if (need > t.GetSize()) {
    Fail("%s: the %s tensor has %u elements, %llu are needed", op, role, t.GetSize(),
         static_cast<unsigned long long>(need));
  }
}

inline void WelfordFinalizeValues(const AscendC::LocalTensor<float>& out_mean,
                                  const AscendC::LocalTensor<float>& out_var,
                                  const AscendC::LocalTensor<float>& in_mean,
                                  const AscendC::LocalTensor<float>& in_var,
                                  const AscendC::LocalTensor<int32_t>* counts,
                                  const AscendC::WelfordFinalizePara& p) {
  const char* op = "WelfordFinalize";
  const uint32_t n = p.abLength;
  CheckWelford(op, in_mean, n, "inputMean");
  CheckWelford(op, in_var, n, "inputVariance");
  CheckWelford(op, out_mean, 1, "outputMean");
  CheckWelford(op, out_var, 1, "outputVariance");
  if (counts != nullptr) CheckWelford(op, *counts, n, "counts");
  const bool weighted = counts != nullptr || p.tailCountLength != 0;
  auto weight = [&](uint32_t i) -> double {
    if (counts != nullptr) return counts->Data()[i];
    if (i < p.headCountLength) return p.headCount;
    if (i < p.headCountLength + p.tailCountLength) return p.tailCount;
    return 0;
  };
  double mean = 0, sum_var = 0;
  for (uint32_t i = 0; i < n; ++i) {
    const double m = in_mean.Data()[i];
    mean += weighted ? weight(i) * m : m;
    sum_var += in_var.Data()[i];
  }
  mean *= weighted ? static_cast<double>(p.rRec) : static_cast<double>(p.abRec);
  double spread = 0;
  for (uint32_t i = 0; i < n; ++i) {
    const double d = in_mean.Data()[i] - mean;
    spread += (weighted ? weight(i) : static_cast<double>(p.rnLength)) * d * d;
  }
  out_mean.Data()[0] = static_cast<float>(mean);
  out_var.Data()[0] = static_cast<float>(static_cast<double>(p.rRec) * (sum_var + spread));
}

}  // namespace npud::ascendc

namespace AscendC {

template <typename T, typename U, bool isReuseSource = false,
          const WelfordUpdateConfig& config = WFUPDATE_DEFAULT_CFG>
void WelfordUpdate(const LocalTensor<U>& outputMean, const LocalTensor<U>& outputVariance,
                   const LocalTensor<U>& inputMean, const LocalTensor<U>& inputVariance,
                   const LocalTensor<T>& inputX, const LocalTensor<uint8_t>& /*sharedTmpBuffer*/,
                   const WelfordUpdateParam& para) {
  static_assert(std::is_same_v<U, float>, "WelfordUpdate keeps its mean and variance in float");
  const char* op = "WelfordUpdate";
  const uint64_t n = uint64_t{para.rnLength} * para.abLength;
  using ::npud::ascendc::CheckWelford;
  CheckWelford(op, outputMean, n, "outputMean");
  CheckWelford(op, outputVariance, n, "outputVariance");
  CheckWelford(op, inputMean, n, "inputMean");
  CheckWelford(op, inputVariance, n, "inputVariance");
  CheckWelford(op, inputX, n, "inputX");
  if (para.abComputeLength > para.abLength) {
    ::npud::ascendc::Fail("%s: abComputeLength %u exceeds abLength %u", op, para.abComputeLength,
                          para.abLength);
  }
  for (uint64_t r = 0; r < para.rnLength; ++r) {
    for (uint32_t k = 0; k < para.abLength; ++k) {
      const uint64_t e = r * para.abLength + k;
      const float mean = inputMean.Data()[e];
      const float var = inputVariance.Data()[e];
      if (k >= para.abComputeLength) {
        outputMean.Data()[e] = mean;
        outputVariance.Data()[e] = var;
        continue;
      }
      const float x = static_cast<float>(inputX.Data()[e]);
      const float d = x - mean;
      const float scaled = d * para.nRec;
      const float new_mean = mean + scaled;
      const float spread = d * (x - new_mean);
      outputMean.Data()[e] = new_mean;
      outputVariance.Data()[e] = var + spread;
    }
  }
}
template <typename T, typename U, bool isReuseSource = false,
          const WelfordUpdateConfig& config = WFUPDATE_DEFAULT_CFG>
void WelfordUpdate(const LocalTensor<U>& outputMean, const LocalTensor<U>& outputVariance,
                   const LocalTensor<U>& inputMean, const LocalTensor<U>& inputVariance,
                   const LocalTensor<T>& inputX, const WelfordUpdateParam& para) {
  WelfordUpdate<T, U, isReuseSource, config>(outputMean, outputVariance, inputMean, inputVariance,
                                             inputX, LocalTensor<uint8_t>(), para);
}

template <bool isReuseSource = false, const WelfordFinalizeConfig& config = WFFINALIZE_DEFAULT_CFG>
void WelfordFinalize(const LocalTensor<float>& outputMean, const LocalTensor<float>& outputVariance,
                     const LocalTensor<float>& inputMean, const LocalTensor<float>& inputVariance,
                     const LocalTensor<uint8_t>& /*sharedTmpBuffer*/, WelfordFinalizePara& para) {
  ::npud::ascendc::WelfordFinalizeValues(outputMean, outputVariance, inputMean, inputVariance,
                                         nullptr, para);
}
template <bool isReuseSource = false, const WelfordFinalizeConfig& config = WFFINALIZE_DEFAULT_CFG>
void WelfordFinalize(const LocalTensor<float>& outputMean, const LocalTensor<float>& outputVariance,
                     const LocalTensor<float>& inputMean, const LocalTensor<float>& inputVariance,
                     const LocalTensor<int32_t>& counts,
                     const LocalTensor<uint8_t>& /*sharedTmpBuffer*/, WelfordFinalizePara& para) {
  ::npud::ascendc::WelfordFinalizeValues(outputMean, outputVariance, inputMean, inputVariance,
                                         &counts, para);
}
template <bool isReuseSource = false, const WelfordFinalizeConfig& config = WFFINALIZE_DEFAULT_CFG>
void WelfordFinalize(const LocalTensor<float>& outputMean, const LocalTensor<float>& outputVariance,
                     const LocalTensor<float>& inputMean, const LocalTensor<float>& inputVariance,
                     WelfordFinalizePara& para) {
  ::npud::ascendc::WelfordFinalizeValues(outputMean, outputVariance, inputMean, inputVariance,
                                         nullptr, para);
}
template <bool isReuseSource = false, const WelfordFinalizeConfig& config = WFFINALIZE_DEFAULT_CFG>
void WelfordFinalize(const LocalTensor<float>& outputMean, const LocalTensor<float>& outputVariance,
                     const LocalTensor<float>& inputMean, const LocalTensor<float>& inputVariance,
                     const LocalTensor<int32_t>& counts, WelfordFinalizePara& para) {
  ::npud::ascendc::WelfordFinalizeValues(outputMean, outputVariance, inputMean, inputVariance,
                                         &counts, para);
}

}  // namespace AscendC

#endif  // NPUD_ASCENDC_WELFORD_H_

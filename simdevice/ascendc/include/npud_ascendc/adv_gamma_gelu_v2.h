// adv_gamma_gelu_v2.h: the advanced Digamma, Lgamma and FasterGeluV2.
//
//   Digamma<T, isReuseSource>(dst, src[, sharedTmpBuffer], calCount)   psi(x) = Γ'(x)/Γ(x)
//   Lgamma<T, isReuseSource>(dst, src[, sharedTmpBuffer], calCount)    ln|Γ(x)|
//   FasterGeluV2<T, highPrecision, highPerformance>(dst, src[, sharedTmpBuffer], dataSize)
//       x * (sgn(x) * (-0.1444 * (min(|0.7071 x|, 1.769) - 1.769)^2 + 0.5) + 0.5), sgn
//       taken as (x + 1e-12) / |x + 1e-12| (the reference's A2 implementation)
//
// As the other element-wise advanced APIs (adv_math.h), each value is computed in
// double and rounded once to T (half or float), so highPrecision and highPerformance
// change nothing. Digamma: the recurrence psi(x) = psi(x + 1) - 1/x up to x >= 10,
// then the asymptotic series; below 0 the reflection psi(x) = psi(1 - x) - π / tan(πx).
// Poles: Digamma(0) is -inf, Digamma of a negative integer NaN; Lgamma of 0 or a
// negative integer +inf.
#ifndef NPUD_ASCENDC_ADV_GAMMA_GELU_V2_H_
#define NPUD_ASCENDC_ADV_GAMMA_GELU_V2_H_

#include <cmath>
#include <cstdint>
#include <limits>

#include "npud_ascendc/adv_math.h"
#include "npud_ascendc/tensor.h"

namespace npud::ascendc {

inline double DigammaOf(double x) {
  constexpr double kPi = 3.14159265358979323846;
  if (std::isnan(x) || x == std::numeric_limits<double>::infinity()) return x;
  if (x == 0) return -std::numeric_limits<double>::infinity();
  if (x < 0) {
    if (x == std::floor(x)) return std::numeric_limits<double>::quiet_NaN();
    return DigammaOf(1 - x) - kPi / std::tan(kPi * x);
  }
  double result = 0;
  while (x < 10) {
    result -= 1 / x;
    x += 1;
  }
  const double f = 1 / (x * x);
  const double series =
      f * (1.0 / 12 - f * (1.0 / 120 - f * (1.0 / 252 - f * (1.0 / 240 - f * (1.0 / 132)))));
  return result + std::log(x) - 0.5 / x - series;
}

inline double FasterGeluV2Of(double x) {
  const double clipped = std::fmin(std::fabs(0.7071 * x), 1.769);
  const double x1 = -0.1444 * (clipped - 1.769) * (clipped - 1.769) + 0.5;
  const double shifted = x + 0.000000000001;
  const double x2 = shifted / std::fabs(shifted);
  return x * (x2 * x1 + 0.5);
}

}  // namespace npud::ascendc

namespace AscendC {

template <class T, bool isReuseSource = false>
void Digamma(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
             const uint32_t calCount) {
  ::npud::ascendc::AdvancedUnary("Digamma", dstTensor, srcTensor, calCount,
                                 [](double x) { return ::npud::ascendc::DigammaOf(x); });
}
template <class T, bool isReuseSource = false>
void Digamma(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
             const LocalTensor<uint8_t>& /*sharedTmpBuffer*/, const uint32_t calCount) {
  Digamma<T, isReuseSource>(dstTensor, srcTensor, calCount);
}

template <class T, bool isReuseSource = false>
void Lgamma(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
            const uint32_t calCount) {
  ::npud::ascendc::AdvancedUnary("Lgamma", dstTensor, srcTensor, calCount,
                                 [](double x) { return std::lgamma(x); });
}
template <class T, bool isReuseSource = false>
void Lgamma(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
            const LocalTensor<uint8_t>& /*sharedTmpBuffer*/, const uint32_t calCount) {
  Lgamma<T, isReuseSource>(dstTensor, srcTensor, calCount);
}

template <class T, bool highPrecision = false, bool highPerformance = false>
void FasterGeluV2(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal,
                  const uint32_t dataSize) {
  ::npud::ascendc::AdvancedUnary("FasterGeluV2", dstLocal, srcLocal, dataSize,
                                 [](double x) { return ::npud::ascendc::FasterGeluV2Of(x); });
}
template <class T, bool highPrecision = false, bool highPerformance = false>
void FasterGeluV2(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal,
                  const LocalTensor<uint8_t>& /*sharedTmpBuffer*/, const uint32_t dataSize) {
  FasterGeluV2<T, highPrecision, highPerformance>(dstLocal, srcLocal, dataSize);
}

}  // namespace AscendC

#endif  // NPUD_ASCENDC_ADV_GAMMA_GELU_V2_H_

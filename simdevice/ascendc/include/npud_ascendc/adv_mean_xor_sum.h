// adv_mean_xor_sum.h: the advanced Mean (row means, as Sum's rows) and ReduceXorSum.
//
//   Mean<T, accType, isReuseSource, isBasicBlock, reduceDim>(dst, src[, sharedTmpBuffer],
//                                                          {outter, inner, n})
//       dst[i] = (src[i * inner] + ... + src[i * inner + n - 1]) * (1 / n) for each of
//       the outter rows; inner (the row pitch) is n rounded up to 32 bytes.
//   ReduceXorSum<int16_t, isReuseSource>(dst, src0, src1[, sharedTmpBuffer], calCount)
//       dst[0] = sum of (src0[i] ^ src1[i]) for i < calCount, saturated to int16.
//
// Numerics (the reference's A2 implementation): Mean adds in float (in order, as Sum)
// and multiplies by the reciprocal of n, not dividing. accType float (T half) converts
// the inputs to float and rounds once to half at the end; accType T = half rounds the
// sum to half and multiplies by half(1 / n). ReduceXorSum adds the xors as floats and
// converts the sum to int16 rounding half away from zero, saturating to
// [-32768, 32767].
// Checks (trap kind 1): the rows fit src and dst, 1 <= n <= inner, inner * sizeof(T)
// is a multiple of 32; calCount fits both sources and dst holds one element.
#ifndef NPUD_ASCENDC_ADV_MEAN_XOR_SUM_H_
#define NPUD_ASCENDC_ADV_MEAN_XOR_SUM_H_

#include <cmath>
#include <cstdint>
#include <type_traits>

#include "npud_ascendc/check.h"
#include "npud_ascendc/fp16.h"
#include "npud_ascendc/tensor.h"

namespace AscendC {

struct MeanParams {
  uint32_t outter = 1;
  uint32_t inner = 0;
  uint32_t n = 0;
};

template <class T, class accType = T, bool isReuseSource = false, bool isBasicBlock = false,
          int32_t reduceDim = -1>
void Mean(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
          const LocalTensor<uint8_t>& /*sharedTmpBuffer*/, const MeanParams& meanParams) {
  static_assert(std::is_same_v<T, half> || std::is_same_v<T, float>,
                "Mean takes half or float tensors");
  static_assert(std::is_same_v<accType, T> || std::is_same_v<accType, float>,
                "Mean's accType is T or float, never less precise than T");
  const MeanParams& p = meanParams;
  if (p.n == 0 || p.n > p.inner || p.inner * sizeof(T) % 32 != 0 ||
      uint64_t{p.outter} * p.inner > srcTensor.GetSize() || p.outter > dstTensor.GetSize()) {
    ::npud::ascendc::Fail(
        "Mean: %u rows of %u (n %u) do not fit the source (%u elements) or the destination "
        "(%u), or n is not in [1, inner] or inner is not a multiple of 32 bytes",
        p.outter, p.inner, p.n, srcTensor.GetSize(), dstTensor.GetSize());
  }
  const float reciprocal = 1.0f / static_cast<float>(static_cast<int32_t>(p.n));
  for (uint32_t i = 0; i < p.outter; ++i) {
    float sum = 0;
    for (uint32_t k = 0; k < p.n; ++k) sum += static_cast<float>(srcTensor.Data()[i * p.inner + k]);
    if constexpr (std::is_same_v<accType, float>) {
      dstTensor.Data()[i] = T(sum * reciprocal);
    } else {
      dstTensor.Data()[i] = T(T(sum) * T(reciprocal));
    }
  }
}
template <class T, class accType = T, bool isReuseSource = false, bool isBasicBlock = false,
          int32_t reduceDim = -1>
void Mean(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
          const MeanParams& meanParams) {
  Mean<T, accType, isReuseSource, isBasicBlock, reduceDim>(dstTensor, srcTensor,
                                                           LocalTensor<uint8_t>(), meanParams);
}

template <class T, bool isReuseSource = false>
void ReduceXorSum(LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor,
                  const LocalTensor<T>& src1Tensor, LocalTensor<uint8_t>& /*sharedTmpBuffer*/,
                  const uint32_t calCount) {
  static_assert(std::is_same_v<T, int16_t>, "ReduceXorSum takes int16_t tensors");
  if (calCount > src0Tensor.GetSize() || calCount > src1Tensor.GetSize() ||
      dstTensor.GetSize() < 1) {
    ::npud::ascendc::Fail("ReduceXorSum: calCount %u exceeds a source (%u, %u) or dst is empty",
                          calCount, src0Tensor.GetSize(), src1Tensor.GetSize());
  }
  float sum = 0;
  for (uint32_t i = 0; i < calCount; ++i) {
    sum += static_cast<float>(static_cast<int16_t>(src0Tensor.Data()[i] ^ src1Tensor.Data()[i]));
  }
  const float rounded = std::round(sum);
  dstTensor.Data()[0] = rounded >= 32767.0f    ? int16_t{32767}
                        : rounded <= -32768.0f ? int16_t{-32768}
                                               : static_cast<int16_t>(rounded);
}
template <class T, bool isReuseSource = false>
void ReduceXorSum(LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor,
                  const LocalTensor<T>& src1Tensor, const uint32_t calCount) {
  LocalTensor<uint8_t> none;
  ReduceXorSum<T, isReuseSource>(dstTensor, src0Tensor, src1Tensor, none, calCount);
}

}  // namespace AscendC

#endif  // NPUD_ASCENDC_ADV_MEAN_XOR_SUM_H_

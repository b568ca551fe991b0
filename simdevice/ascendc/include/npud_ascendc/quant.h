// quant.h: the Atlas A2 forms of AscendQuant (float or half to int8) and AscendDequant
// (int32 to float, half or bfloat16).
//
//   AscendQuant<T>(dst, src[, sharedTmpBuffer], scale, offset[, calCount])   per tensor
//   AscendQuant<T>(dst, src[, sharedTmpBuffer], scaleTensor, offset | offsetTensor
//                  [, scaleCount[, offsetCount], calCount])                 per channel
//       dst[i] = round(src[i] * scale + offset) saturated to int8, scale and offset
//       element i % scaleCount (i % offsetCount) of their tensors; calCount 0 or
//       absent means all of src, counts absent mean the tensors' sizes. As the A2
//       vector unit does it: src, scale and offset are rounded to half first, the
//       product and the sum are each rounded to half, and the half is cast to int8
//       rounding halves to even (the asc-devkit golden script computes the same in
//       numpy float16).
//   AscendDequant<dstT, scaleT, mode>(dst, src[, sharedTmpBuffer], deqScale | scalar,
//                                     DequantParams{m, n, calCount})
//       src [m, n] int32; row i of dst (its width n rounded up to 32 bytes of dstT)
//       gets src[i][j] * deqScale[j] for j < calCount, the rest of the row is left as
//       it was. DEQUANT_WITH_SINGLE_ROW treats {1, n, calCount} as {n / calCount,
//       calCount, calCount} when calCount is a multiple of 32 bytes of dstT and
//       divides n, as upstream documents. The product is taken in float and rounded
//       once to dstT. The forms with a count (no params) treat src as one row.
// Checks (trap kind 1): counts fit the tensors.
#ifndef NPUD_ASCENDC_QUANT_H_
#define NPUD_ASCENDC_QUANT_H_

#include <cmath>
#include <cstdint>
#include <type_traits>

#include "npud_ascendc/check.h"
#include "npud_ascendc/tensor.h"

namespace AscendC {

struct AscendQuantConfig {
  uint32_t calcCount = 0;
  uint32_t offsetCount = 0;
  uint32_t scaleCount = 0;
  uint32_t workLocalSize = 0;
};
inline constexpr AscendQuantConfig ASCEND_QUANT_DEFAULT_CFG{};

struct DequantParams {
  uint32_t m;
  uint32_t n;
  uint32_t calCount;
};

enum class DeQuantMode { DEQUANT_WITH_SINGLE_ROW = 0, DEQUANT_WITH_MULTI_ROW };

}  // namespace AscendC

namespace npud::ascendc {

// round-half-even(half(half(half(x) * half(scale)) + half(offset))), saturated to int8.
inline int8_t QuantValue(float x, float scale, float offset) {
  const half product = half(static_cast<float>(half(x)) * static_cast<float>(half(scale)));
  const half sum = half(static_cast<float>(product) + static_cast<float>(half(offset)));
  const float rounded = std::nearbyint(static_cast<float>(sum));
  if (std::isnan(rounded)) return 0;
  return static_cast<int8_t>(rounded > 127.0f ? 127.0f : rounded < -128.0f ? -128.0f : rounded);
}

// Quantises count elements; scale_at(i) and offset_at(i) give element i's parameters.
template <class T, class Scale, class Offset>
void QuantElements(const AscendC::LocalTensor<int8_t>& dst, const AscendC::LocalTensor<T>& src,
                   uint32_t count, Scale scale_at, Offset offset_at) {
  static_assert(std::is_same_v<T, half> || std::is_same_v<T, float>,
                "AscendQuant takes half or float sources");
  if (count == 0) count = src.GetSize();
  if (count > src.GetSize() || count > dst.GetSize()) {
    Fail("AscendQuant: %u elements do not fit src (%u) or dst (%u)", count, src.GetSize(),
         dst.GetSize());
  }
  for (uint32_t i = 0; i < count; ++i) {
    dst.Data()[i] = QuantValue(static_cast<float>(src.Data()[i]), scale_at(i), offset_at(i));
  }
}

template <class T>
uint32_t ParameterCount(const AscendC::LocalTensor<T>& t, uint32_t count) {
  if (count == 0) count = t.GetSize();
  if (count == 0 || count > t.GetSize()) {
    Fail("AscendQuant: %u parameters, the tensor has %u", count, t.GetSize());
  }
  return count;
}

template <class D, class S>
void DequantRows(const AscendC::LocalTensor<D>& dst, const AscendC::LocalTensor<int32_t>& src,
                 const AscendC::LocalTensor<S>* scale, float scalar, AscendC::DequantParams p,
                 AscendC::DeQuantMode mode) {
  constexpr uint32_t kPerBlock = 32 / sizeof(D);
  if (mode == AscendC::DeQuantMode::DEQUANT_WITH_SINGLE_ROW && p.m == 1 && p.calCount != 0 &&
      p.calCount % kPerBlock == 0 && p.n % p.calCount == 0) {
    p = {p.n / p.calCount, p.calCount, p.calCount};
  }
  const uint32_t width = (p.n + kPerBlock - 1) / kPerBlock * kPerBlock;
  if (p.calCount > p.n || uint64_t{p.m} * p.n > src.GetSize() ||
      (p.m != 0 && uint64_t{p.m - 1} * width + p.calCount > dst.GetSize()) ||
      (scale != nullptr && p.calCount > scale->GetSize())) {
    Fail("AscendDequant: {m %u, n %u, calCount %u} does not fit src (%u), dst (%u) or deqScale",
         p.m, p.n, p.calCount, src.GetSize(), dst.GetSize());
  }
  for (uint32_t i = 0; i < p.m; ++i) {
    for (uint32_t j = 0; j < p.calCount; ++j) {
      const float s = scale != nullptr ? static_cast<float>(scale->Data()[j]) : scalar;
      dst.Data()[uint64_t{i} * width + j] =
          D(static_cast<float>(src.Data()[uint64_t{i} * p.n + j]) * s);
    }
  }
}

}  // namespace npud::ascendc

namespace AscendC {

// Per tensor.
template <typename T, bool isReuseSource = false,
          const AscendQuantConfig& config = ASCEND_QUANT_DEFAULT_CFG>
void AscendQuant(const LocalTensor<int8_t>& dstTensor, const LocalTensor<T>& srcTensor,
                 const LocalTensor<uint8_t>& /*sharedTmpBuffer*/, const float scale,
                 const float offset, const uint32_t calCount) {
  ::npud::ascendc::QuantElements(
      dstTensor, srcTensor, calCount, [scale](uint32_t) { return scale; },
      [offset](uint32_t) { return offset; });
}
template <typename T, bool isReuseSource = false,
          const AscendQuantConfig& config = ASCEND_QUANT_DEFAULT_CFG>
void AscendQuant(const LocalTensor<int8_t>& dstTensor, const LocalTensor<T>& srcTensor,
                 const LocalTensor<uint8_t>& sharedTmpBuffer, const float scale,
                 const float offset) {
  AscendQuant<T, isReuseSource, config>(dstTensor, srcTensor, sharedTmpBuffer, scale, offset, 0);
}
template <typename T, bool isReuseSource = false,
          const AscendQuantConfig& config = ASCEND_QUANT_DEFAULT_CFG>
void AscendQuant(const LocalTensor<int8_t>& dstTensor, const LocalTensor<T>& srcTensor,
                 const float scale, const float offset, const uint32_t calCount) {
  AscendQuant<T, isReuseSource, config>(dstTensor, srcTensor, LocalTensor<uint8_t>(), scale, offset,
                                        calCount);
}
template <typename T, bool isReuseSource = false,
          const AscendQuantConfig& config = ASCEND_QUANT_DEFAULT_CFG>
void AscendQuant(const LocalTensor<int8_t>& dstTensor, const LocalTensor<T>& srcTensor,
                 const float scale, const float offset) {
  AscendQuant<T, isReuseSource, config>(dstTensor, srcTensor, LocalTensor<uint8_t>(), scale, offset,
                                        0);
}

// Per channel: a scale tensor and a scalar offset.
template <typename T, bool isReuseSource = false,
          const AscendQuantConfig& config = ASCEND_QUANT_DEFAULT_CFG>
void AscendQuant(const LocalTensor<int8_t>& dstTensor, const LocalTensor<T>& srcTensor,
                 const LocalTensor<uint8_t>& /*sharedTmpBuffer*/, const LocalTensor<T>& scaleTensor,
                 const T offset, const uint32_t scaleCount, const uint32_t calCount) {
  const uint32_t n = ::npud::ascendc::ParameterCount(scaleTensor, scaleCount);
  const float off = static_cast<float>(offset);
  ::npud::ascendc::QuantElements(
      dstTensor, srcTensor, calCount,
      [&scaleTensor, n](uint32_t i) { return static_cast<float>(scaleTensor.Data()[i % n]); },
      [off](uint32_t) { return off; });
}
template <typename T, bool isReuseSource = false,
          const AscendQuantConfig& config = ASCEND_QUANT_DEFAULT_CFG>
void AscendQuant(const LocalTensor<int8_t>& dstTensor, const LocalTensor<T>& srcTensor,
                 const LocalTensor<uint8_t>& sharedTmpBuffer, const LocalTensor<T>& scaleTensor,
                 const T offset) {
  AscendQuant<T, isReuseSource, config>(dstTensor, srcTensor, sharedTmpBuffer, scaleTensor, offset,
                                        0, 0);
}
template <typename T, bool isReuseSource = false,
          const AscendQuantConfig& config = ASCEND_QUANT_DEFAULT_CFG>
void AscendQuant(const LocalTensor<int8_t>& dstTensor, const LocalTensor<T>& srcTensor,
                 const LocalTensor<T>& scaleTensor, const T offset, const uint32_t scaleCount,
                 const uint32_t calCount) {
  AscendQuant<T, isReuseSource, config>(dstTensor, srcTensor, LocalTensor<uint8_t>(), scaleTensor,
                                        offset, scaleCount, calCount);
}
template <typename T, bool isReuseSource = false,
          const AscendQuantConfig& config = ASCEND_QUANT_DEFAULT_CFG>
void AscendQuant(const LocalTensor<int8_t>& dstTensor, const LocalTensor<T>& srcTensor,
                 const LocalTensor<T>& scaleTensor, const T offset) {
  AscendQuant<T, isReuseSource, config>(dstTensor, srcTensor, LocalTensor<uint8_t>(), scaleTensor,
                                        offset, 0, 0);
}

// Per channel: scale and offset tensors.
template <typename T, bool isReuseSource = false,
          const AscendQuantConfig& config = ASCEND_QUANT_DEFAULT_CFG>
void AscendQuant(const LocalTensor<int8_t>& dstTensor, const LocalTensor<T>& srcTensor,
                 const LocalTensor<uint8_t>& /*sharedTmpBuffer*/, const LocalTensor<T>& scaleTensor,
                 const LocalTensor<T>& offsetTensor, const uint32_t scaleCount,
                 const uint32_t offsetCount, const uint32_t calCount) {
  const uint32_t ns = ::npud::ascendc::ParameterCount(scaleTensor, scaleCount);
  const uint32_t no = ::npud::ascendc::ParameterCount(offsetTensor, offsetCount);
  ::npud::ascendc::QuantElements(
      dstTensor, srcTensor, calCount,
      [&scaleTensor, ns](uint32_t i) { return static_cast<float>(scaleTensor.Data()[i % ns]); },
      [&offsetTensor, no](uint32_t i) { return static_cast<float>(offsetTensor.Data()[i % no]); });
}
template <typename T, bool isReuseSource = false,
          const AscendQuantConfig& config = ASCEND_QUANT_DEFAULT_CFG>
void AscendQuant(const LocalTensor<int8_t>& dstTensor, const LocalTensor<T>& srcTensor,
                 const LocalTensor<uint8_t>& sharedTmpBuffer, const LocalTensor<T>& scaleTensor,
                 const LocalTensor<T>& offsetTensor) {
  AscendQuant<T, isReuseSource, config>(dstTensor, srcTensor, sharedTmpBuffer, scaleTensor,
                                        offsetTensor, 0, 0, 0);
}
template <typename T, bool isReuseSource = false,
          const AscendQuantConfig& config = ASCEND_QUANT_DEFAULT_CFG>
void AscendQuant(const LocalTensor<int8_t>& dstTensor, const LocalTensor<T>& srcTensor,
                 const LocalTensor<T>& scaleTensor, const LocalTensor<T>& offsetTensor,
                 const uint32_t scaleCount, const uint32_t offsetCount, const uint32_t calCount) {
  AscendQuant<T, isReuseSource, config>(dstTensor, srcTensor, LocalTensor<uint8_t>(), scaleTensor,
                                        offsetTensor, scaleCount, offsetCount, calCount);
}
template <typename T, bool isReuseSource = false,
          const AscendQuantConfig& config = ASCEND_QUANT_DEFAULT_CFG>
void AscendQuant(const LocalTensor<int8_t>& dstTensor, const LocalTensor<T>& srcTensor,
                 const LocalTensor<T>& scaleTensor, const LocalTensor<T>& offsetTensor) {
  AscendQuant<T, isReuseSource, config>(dstTensor, srcTensor, LocalTensor<uint8_t>(), scaleTensor,
                                        offsetTensor, 0, 0, 0);
}

template <typename dstT, typename scaleT, DeQuantMode mode = DeQuantMode::DEQUANT_WITH_SINGLE_ROW>
void AscendDequant(const LocalTensor<dstT>& dstTensor, const LocalTensor<int32_t>& srcTensor,
                   const LocalTensor<scaleT>& deqScale,
                   const LocalTensor<uint8_t>& /*sharedTmpBuffer*/, DequantParams params) {
  ::npud::ascendc::DequantRows(dstTensor, srcTensor, &deqScale, 0.0f, params, mode);
}
template <typename dstT, typename scaleT, DeQuantMode mode = DeQuantMode::DEQUANT_WITH_SINGLE_ROW>
void AscendDequant(const LocalTensor<dstT>& dstTensor, const LocalTensor<int32_t>& srcTensor,
                   const LocalTensor<scaleT>& deqScale, DequantParams params) {
  ::npud::ascendc::DequantRows(dstTensor, srcTensor, &deqScale, 0.0f, params, mode);
}
template <typename dstT, typename scaleT, DeQuantMode mode = DeQuantMode::DEQUANT_WITH_SINGLE_ROW>
void AscendDequant(const LocalTensor<dstT>& dstTensor, const LocalTensor<int32_t>& srcTensor,
                   const scaleT deqScale, const LocalTensor<uint8_t>& /*sharedTmpBuffer*/,
                   DequantParams params) {
  ::npud::ascendc::DequantRows<dstT, scaleT>(dstTensor, srcTensor, nullptr,
                                             static_cast<float>(deqScale), params, mode);
}
template <typename dstT, typename scaleT, DeQuantMode mode = DeQuantMode::DEQUANT_WITH_SINGLE_ROW>
void AscendDequant(const LocalTensor<dstT>& dstTensor, const LocalTensor<int32_t>& srcTensor,
                   const scaleT deqScale, DequantParams params) {
  ::npud::ascendc::DequantRows<dstT, scaleT>(dstTensor, srcTensor, nullptr,
                                             static_cast<float>(deqScale), params, mode);
}
// One row of calCount elements (all of src if absent).
template <typename dstT, typename scaleT, DeQuantMode mode = DeQuantMode::DEQUANT_WITH_SINGLE_ROW>
void AscendDequant(const LocalTensor<dstT>& dstTensor, const LocalTensor<int32_t>& srcTensor,
                   const LocalTensor<scaleT>& deqScale,
                   const LocalTensor<uint8_t>& /*sharedTmpBuffer*/, const uint32_t calCount) {
  ::npud::ascendc::DequantRows(dstTensor, srcTensor, &deqScale, 0.0f,
                               DequantParams{1, calCount, calCount},
                               DeQuantMode::DEQUANT_WITH_MULTI_ROW);
}
template <typename dstT, typename scaleT, DeQuantMode mode = DeQuantMode::DEQUANT_WITH_SINGLE_ROW>
void AscendDequant(const LocalTensor<dstT>& dstTensor, const LocalTensor<int32_t>& srcTensor,
                   const LocalTensor<scaleT>& deqScale, const uint32_t calCount) {
  ::npud::ascendc::DequantRows(dstTensor, srcTensor, &deqScale, 0.0f,
                               DequantParams{1, calCount, calCount},
                               DeQuantMode::DEQUANT_WITH_MULTI_ROW);
}
template <typename dstT, typename scaleT, DeQuantMode mode = DeQuantMode::DEQUANT_WITH_SINGLE_ROW>
void AscendDequant(const LocalTensor<dstT>& dstTensor, const LocalTensor<int32_t>& srcTensor,
                   const LocalTensor<scaleT>& deqScale,
                   const LocalTensor<uint8_t>& sharedTmpBuffer) {
  AscendDequant<dstT, scaleT, mode>(dstTensor, srcTensor, deqScale, sharedTmpBuffer,
                                    srcTensor.GetSize());
}
template <typename dstT, typename scaleT, DeQuantMode mode = DeQuantMode::DEQUANT_WITH_SINGLE_ROW>
void AscendDequant(const LocalTensor<dstT>& dstTensor, const LocalTensor<int32_t>& srcTensor,
                   const LocalTensor<scaleT>& deqScale) {
  AscendDequant<dstT, scaleT, mode>(dstTensor, srcTensor, deqScale, srcTensor.GetSize());
}

}  // namespace AscendC

#endif  // NPUD_ASCENDC_QUANT_H_

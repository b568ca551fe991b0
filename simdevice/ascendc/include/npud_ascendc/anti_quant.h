// anti_quant.h: AscendAntiQuant, the Atlas A2 pseudo-dequantisation of int8 (or int4)
// data into half or bfloat16, PER_CHANNEL and PER_TENSOR.
//
//   AscendAntiQuant<In, Out, isTranspose>(dst, src, offset, scale[, sharedTmpBuffer], k
//                                         [, shapeInfo])           per channel
//       not transposed, src [K, N], offset/scale [G, N]: dst[i][j] =
//           scale[i / (K / G)][j] * (src[i][j] + offset[i / (K / G)][j])
//       transposed, src [N, K], offset/scale [N, G]: dst[i][j] =
//           scale[i][j / (K / G)] * (src[i][j] + offset[i][j / (K / G)])
//   the forms without offset (offset 0) and with scalar offset and scale (per tensor).
// The shapes of offset and scale come from shapeInfo, else from the tensors' ShapeInfo
// (the kernel sets them with SetShapeInfo), else [1, size] (not transposed) or
// [size, 1] (transposed). N (the width of src) is src's size / k, k its height
// (transposed: its width).
// Rounding follows the A2 vector unit: half output is src cast to half, plus offset
// rounded to half, times scale rounded to half (what numpy's float16 arithmetic in the
// examples' golden scripts does too); bfloat16 output is computed in float and
// rounded once. sharedTmpBuffer is not needed.
// Checks (trap kind 1): the shapes fit the tensors, G divides K.
#ifndef NPUD_ASCENDC_ANTI_QUANT_H_
#define NPUD_ASCENDC_ANTI_QUANT_H_

#include <cstdint>
#include <type_traits>

#include "npud_ascendc/check.h"
#include "npud_ascendc/shape_info.h"
#include "npud_ascendc/tensor.h"

namespace AscendC {

struct AntiQuantShapeInfo {
  uint32_t offsetHeight{0};
  uint32_t offsetWidth{0};
  uint32_t scaleHeight{0};
  uint32_t scaleWidth{0};
};

}  // namespace AscendC

namespace npud::ascendc {

// One element of the result: (x + offset) * scale in Out's arithmetic.
template <class Out>
Out AntiQuantValue(float x, Out offset, Out scale) {
  if constexpr (std::is_same_v<Out, half>) {
    const half sum = half(x + static_cast<float>(offset));
    return half(static_cast<float>(sum) * static_cast<float>(scale));
  } else {
    return Out((x + static_cast<float>(offset)) * static_cast<float>(scale));
  }
}

struct Extent {
  uint32_t height = 0;
  uint32_t width = 0;
};

// The [height, width] of a per-channel parameter tensor.
template <class T>
Extent ParameterExtent(const AscendC::LocalTensor<T>& t, uint32_t height, uint32_t width,
                       bool transposed) {
  if (height != 0 && width != 0) return {height, width};
  const AscendC::ShapeInfo info = t.GetShapeInfo();
  if (info.shapeDim == 2 && info.shape[0] != 0 && info.shape[1] != 0) {
    return {info.shape[0], info.shape[1]};
  }
  return transposed ? Extent{t.GetSize(), 1} : Extent{1, t.GetSize()};
}

template <class In>
float AntiQuantSource(const AscendC::LocalTensor<In>& src, uint64_t i) {
  return static_cast<float>(src.Data()[i]);
}

template <class In, class Out, bool isTranspose>
void AntiQuantPerChannel(const AscendC::LocalTensor<Out>& dst, const AscendC::LocalTensor<In>& src,
                         const AscendC::LocalTensor<Out>* offset,
                         const AscendC::LocalTensor<Out>& scale, uint32_t k,
                         const AscendC::AntiQuantShapeInfo& info) {
  static_assert(std::is_same_v<Out, half> || std::is_same_v<Out, bfloat16_t>,
                "AscendAntiQuant writes half or bfloat16_t");
  const char* op = "AscendAntiQuant";
  const uint32_t size = src.GetSize();
  if (k == 0 || size % k != 0) Fail("%s: k %u does not divide src's %u elements", op, k, size);
  const uint32_t n = size / k;
  const uint32_t rows = isTranspose ? n : k;
  const uint32_t cols = isTranspose ? k : n;
  if (dst.GetSize() < size) Fail("%s: dst has %u elements, src %u", op, dst.GetSize(), size);
  const Extent se = ParameterExtent(scale, info.scaleHeight, info.scaleWidth, isTranspose);
  Extent oe = se;
  if (offset != nullptr) {
    oe = ParameterExtent(*offset, info.offsetHeight, info.offsetWidth, isTranspose);
  }
  // The grouped axis is K: rows without transposition, columns with it.
  auto groups = [&](const Extent& e, const char* role) {
    const uint32_t g = isTranspose ? e.width : e.height;
    const uint32_t other = isTranspose ? e.height : e.width;
    if (g == 0 || k % g != 0 || other != (isTranspose ? rows : cols)) {
      Fail("%s: %s [%u, %u] does not match src [%u, %u]", op, role, e.height, e.width, rows, cols);
    }
    return k / g;
  };
  const uint32_t scale_group = groups(se, "scale");
  const uint32_t offset_group = offset != nullptr ? groups(oe, "offset") : 1;
  if (uint64_t{se.height} * se.width > scale.GetSize() ||
      (offset != nullptr && uint64_t{oe.height} * oe.width > offset->GetSize())) {
    Fail("%s: the offset or scale shape exceeds its tensor", op);
  }
  for (uint32_t i = 0; i < rows; ++i) {
    for (uint32_t j = 0; j < cols; ++j) {
      const uint64_t si = isTranspose ? uint64_t{i} * se.width + j / scale_group
                                      : uint64_t{i / scale_group} * se.width + j;
      Out off = Out(0.0f);
      if (offset != nullptr) {
        const uint64_t oi = isTranspose ? uint64_t{i} * oe.width + j / offset_group
                                        : uint64_t{i / offset_group} * oe.width + j;
        off = offset->Data()[oi];
      }
      const uint64_t e = uint64_t{i} * cols + j;
      dst.Data()[e] = AntiQuantValue<Out>(AntiQuantSource(src, e), off, scale.Data()[si]);
    }
  }
}

}  // namespace npud::ascendc

namespace AscendC {

template <typename InputDataType, typename OutputDataType, bool isTranspose>
void AscendAntiQuant(const LocalTensor<OutputDataType>& dst, const LocalTensor<InputDataType>& src,
                     const LocalTensor<OutputDataType>& offset,
                     const LocalTensor<OutputDataType>& scale,
                     const LocalTensor<uint8_t>& /*sharedTmpBuffer*/, const uint32_t k,
                     const AntiQuantShapeInfo& shapeInfo = {}) {
  ::npud::ascendc::AntiQuantPerChannel<InputDataType, OutputDataType, isTranspose>(
      dst, src, &offset, scale, k, shapeInfo);
}
template <typename InputDataType, typename OutputDataType, bool isTranspose>
void AscendAntiQuant(const LocalTensor<OutputDataType>& dst, const LocalTensor<InputDataType>& src,
                     const LocalTensor<OutputDataType>& offset,
                     const LocalTensor<OutputDataType>& scale, const uint32_t k,
                     const AntiQuantShapeInfo& shapeInfo = {}) {
  ::npud::ascendc::AntiQuantPerChannel<InputDataType, OutputDataType, isTranspose>(
      dst, src, &offset, scale, k, shapeInfo);
}
template <typename InputDataType, typename OutputDataType, bool isTranspose>
void AscendAntiQuant(const LocalTensor<OutputDataType>& dst, const LocalTensor<InputDataType>& src,
                     const LocalTensor<OutputDataType>& scale,
                     const LocalTensor<uint8_t>& /*sharedTmpBuffer*/, const uint32_t k,
                     const AntiQuantShapeInfo& shapeInfo = {}) {
  ::npud::ascendc::AntiQuantPerChannel<InputDataType, OutputDataType, isTranspose>(
      dst, src, nullptr, scale, k, shapeInfo);
}
template <typename InputDataType, typename OutputDataType, bool isTranspose>
void AscendAntiQuant(const LocalTensor<OutputDataType>& dst, const LocalTensor<InputDataType>& src,
                     const LocalTensor<OutputDataType>& scale, const uint32_t k,
                     const AntiQuantShapeInfo& shapeInfo = {}) {
  ::npud::ascendc::AntiQuantPerChannel<InputDataType, OutputDataType, isTranspose>(
      dst, src, nullptr, scale, k, shapeInfo);
}
// Per tensor: one offset and one scale for every element.
template <typename InputDataType, typename OutputDataType, bool isTranspose>
void AscendAntiQuant(const LocalTensor<OutputDataType>& dst, const LocalTensor<InputDataType>& src,
                     const OutputDataType offset, const OutputDataType scale,
                     const LocalTensor<uint8_t>& /*sharedTmpBuffer*/, const uint32_t /*k*/,
                     const AntiQuantShapeInfo& /*shapeInfo*/ = {}) {
  const uint32_t n = src.GetSize();
  if (dst.GetSize() < n) {
    ::npud::ascendc::Fail("AscendAntiQuant: dst has %u elements, src %u", dst.GetSize(), n);
  }
  for (uint32_t i = 0; i < n; ++i) {
    dst.Data()[i] = ::npud::ascendc::AntiQuantValue<OutputDataType>(
        ::npud::ascendc::AntiQuantSource(src, i), offset, scale);
  }
}
template <typename InputDataType, typename OutputDataType, bool isTranspose>
void AscendAntiQuant(const LocalTensor<OutputDataType>& dst, const LocalTensor<InputDataType>& src,
                     const OutputDataType offset, const OutputDataType scale, const uint32_t k,
                     const AntiQuantShapeInfo& shapeInfo = {}) {
  AscendAntiQuant<InputDataType, OutputDataType, isTranspose>(dst, src, offset, scale,
                                                              LocalTensor<uint8_t>(), k, shapeInfo);
}

}  // namespace AscendC

#endif  // NPUD_ASCENDC_ANTI_QUANT_H_

// tiling/pad_tiling.h: the host side of Pad, UnPad and the advanced Transpose: their
// scratch sizes and the tilings, which record the shape (npud_ascendc/pad.h and
// confusion_transpose.h read nothing else of them).
#ifndef NPUD_TILING_PAD_TILING_H_
#define NPUD_TILING_PAD_TILING_H_

#include <cstdint>

#include "kernel_tiling/kernel_tiling.h"
#include "tiling/platform/platform_ascendc.h"
#include "tiling/vector_tmp_size.h"

namespace optiling {
using PadTiling = ::AscendC::tiling::PadTiling;
using UnPadTiling = ::AscendC::tiling::UnPadTiling;
using ConfusionTransposeTiling = ::AscendC::tiling::ConfusionTransposeTiling;
}  // namespace optiling

namespace npud::ascendc::tiling {

// Height and width of a 2-dimensional shape (leading dimensions folded into the height).
inline void HeightWidth(const AscendC::TensorShape& shape, uint32_t* height, uint32_t* width) {
  const size_t dims = shape.GetDimNum();
  *width = dims >= 1 ? static_cast<uint32_t>(shape.GetDim(dims - 1)) : 0;
  *height = *width == 0 ? 0 : static_cast<uint32_t>(shape.GetShapeSize() / *width);
}

}  // namespace npud::ascendc::tiling

namespace AscendC {

inline void GetPadMaxMinTmpSize(const TensorShape& srcShape, const uint32_t /*typeSize*/,
                                uint32_t& maxValue, uint32_t& minValue) {
  ::npud::ascendc::tiling::TmpSizes(srcShape, maxValue, minValue);
}
inline void PadTilingFunc(const TensorShape srcShape, const TensorShape oriSrcShape,
                          const uint32_t stackBufferSize, const uint32_t /*typeSize*/,
                          tiling::PadTiling& t) {
  t = tiling::PadTiling{};
  ::npud::ascendc::tiling::HeightWidth(srcShape, &t.srcHeight, &t.srcWidth);
  uint32_t ori_height = 0;
  ::npud::ascendc::tiling::HeightWidth(oriSrcShape, &ori_height, &t.srcOriWidth);
  t.tmpBuffer1BlockNum = stackBufferSize / 32;
}

inline void GetUnPadMaxMinTmpSize(const platform_ascendc::PlatformAscendC& /*ascendcPlatform*/,
                                  const TensorShape& srcShape, const uint32_t /*typeSize*/,
                                  uint32_t& maxValue, uint32_t& minValue) {
  ::npud::ascendc::tiling::TmpSizes(srcShape, maxValue, minValue);
}
inline void UnPadTilingFunc(const TensorShape srcShape, const uint32_t stackBufferSize,
                            const uint32_t /*typeSize*/, tiling::UnPadTiling& t) {
  t = tiling::UnPadTiling{};
  ::npud::ascendc::tiling::HeightWidth(srcShape, &t.srcHeight, &t.srcWidth);
  t.tmpBuffer1BlockNum = stackBufferSize / 32;
}

// The source shape's last four axes (leading ones folded into the first) in param0..3;
// a two-axis shape as param0, param1 (H, W).
inline void GetTransposeTilingInfo(const TensorShape& srcShape, const uint32_t stackBufferSize,
                                   const uint32_t /*typeSize*/, const uint32_t /*transposeTypeIn*/,
                                   tiling::ConfusionTransposeTiling& t) {
  t = tiling::ConfusionTransposeTiling{};
  const size_t dims = srcShape.GetDimNum();
  uint32_t* params[4] = {&t.param0, &t.param1, &t.param2, &t.param3};
  const size_t kept = dims < 4 ? dims : 4;
  int64_t lead = 1;
  for (size_t i = 0; i + kept < dims; ++i) lead *= srcShape.GetDim(i);
  for (size_t i = 0; i < kept; ++i) {
    int64_t v = srcShape.GetDim(dims - kept + i);
    if (i == 0) v *= lead;
    *params[i] = static_cast<uint32_t>(v);
  }
  t.param17 = stackBufferSize;
}
inline void GetConfusionTransposeTilingInfo(const TensorShape& srcShape,
                                            const uint32_t stackBufferSize, const uint32_t typeSize,
                                            const uint32_t transposeTypeIn,
                                            tiling::ConfusionTransposeTiling& t) {
  GetTransposeTilingInfo(srcShape, stackBufferSize, typeSize, transposeTypeIn, t);
}
inline void GetConfusionTransposeOnlyTilingInfo(const TensorShape& srcShape,
                                                const uint32_t stackBufferSize,
                                                const uint32_t typeSize,
                                                tiling::ConfusionTransposeTiling& t) {
  GetTransposeTilingInfo(srcShape, stackBufferSize, typeSize, 7, t);
}
inline void GetTransposeMaxMinTmpSize(const TensorShape& srcShape, const uint32_t /*typeSize*/,
                                      const uint32_t /*transposeTypeIn*/, uint32_t& maxValue,
                                      uint32_t& minValue) {
  ::npud::ascendc::tiling::TmpSizes(srcShape, maxValue, minValue);
}
inline void GetConfusionTransposeMaxMinTmpSize(const TensorShape& srcShape, const uint32_t typeSize,
                                               const uint32_t transposeTypeIn, uint32_t& maxValue,
                                               uint32_t& minValue) {
  GetTransposeMaxMinTmpSize(srcShape, typeSize, transposeTypeIn, maxValue, minValue);
}

}  // namespace AscendC

#endif  // NPUD_TILING_PAD_TILING_H_

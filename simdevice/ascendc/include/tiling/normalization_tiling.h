// tiling/normalization_tiling.h: the host side of LayerNorm and RmsNorm: their
// scratch sizes and the tilings (the [B, S, H] shape; npud's kernels need nothing
// else of them, see npud_ascendc/normalization.h).
#ifndef NPUD_TILING_NORMALIZATION_TILING_H_
#define NPUD_TILING_NORMALIZATION_TILING_H_

#include <cstdint>

#include "kernel_tiling/kernel_tiling.h"
#include "tiling/vector_tmp_size.h"

namespace optiling {
using LayerNormTiling = ::AscendC::tiling::LayerNormTiling;
using RmsNormTiling = ::AscendC::tiling::RmsNormTiling;
}  // namespace optiling

namespace npud::ascendc::tiling {

// B, S, H of a 3-dimensional shape (leading dimensions folded into B otherwise).
inline void Bsh(const AscendC::TensorShape& shape, uint32_t* b, uint32_t* s, uint32_t* h) {
  const size_t dims = shape.GetDimNum();
  *h = dims >= 1 ? static_cast<uint32_t>(shape.GetDim(dims - 1)) : 0;
  *s = dims >= 2 ? static_cast<uint32_t>(shape.GetDim(dims - 2)) : 1;
  int64_t rest = 1;
  for (size_t i = 0; i + 2 < dims; ++i) rest *= shape.GetDim(i);
  *b = static_cast<uint32_t>(rest);
}

}  // namespace npud::ascendc::tiling

namespace AscendC {

inline void GetLayerNormMaxMinTmpSize(const TensorShape& srcShape, const uint32_t /*typeSize*/,
                                      const bool /*isReuseSource*/, uint32_t& maxValue,
                                      uint32_t& minValue) {
  ::npud::ascendc::tiling::TmpSizes(srcShape, maxValue, minValue);
}
inline void GetLayerNormNDTilingInfo(const TensorShape& srcShape, const uint32_t stackBufferSize,
                                     const uint32_t /*typeSize*/, const bool /*isReuseSource*/,
                                     tiling::LayerNormTiling& t) {
  t = tiling::LayerNormTiling{};
  ::npud::ascendc::tiling::Bsh(srcShape, &t.bLength, &t.sLength, &t.hLength);
  t.originalHLength = t.hLength;
  t.inputXSize = t.bLength * t.sLength * t.hLength;
  t.meanVarSize = t.bLength * t.sLength;
  t.tmpBufSize = stackBufferSize;
  t.loopRound = 1;
  t.inputRoundSize = t.inputXSize;
  t.meanVarRoundSize = t.meanVarSize;
  t.bshCurLength = t.inputXSize;
  t.bsCurLength = t.meanVarSize;
  t.lastDimValueBack = t.hLength == 0 ? 0.0f : 1.0f / static_cast<float>(t.hLength);
}

inline bool GetRmsNormMaxMinTmpSize(const TensorShape& srcShape, const uint32_t /*typeSize*/,
                                    uint32_t& maxValue, uint32_t& minValue,
                                    const bool /*isBasicBlock*/ = false) {
  ::npud::ascendc::tiling::TmpSizes(srcShape, maxValue, minValue);
  return true;
}
inline bool GetRmsNormTilingInfo(const TensorShape& srcShape, const TensorShape& originSrcShape,
                                 const uint32_t /*stackBufferByteSize*/,
                                 const uint32_t /*typeSize*/, tiling::RmsNormTiling& t,
                                 const bool /*isBasicBlock*/ = false) {
  t = tiling::RmsNormTiling{};
  ::npud::ascendc::tiling::Bsh(srcShape, &t.bLength, &t.sLength, &t.hLength);
  uint32_t ob = 0, os = 0, oh = 0;
  ::npud::ascendc::tiling::Bsh(originSrcShape, &ob, &os, &oh);
  t.originalHLength = oh;
  t.reciprocalOfHLength = oh == 0 ? 0.0f : 1.0f / static_cast<float>(oh);
  t.mainBshLength = t.bLength * t.sLength * t.hLength;
  t.mainBsLength = t.bLength * t.sLength;
  t.mainBsLengthAlign = (t.mainBsLength + 7) / 8 * 8;
  t.loopRound = 1;
  return true;
}

}  // namespace AscendC

#endif  // NPUD_TILING_NORMALIZATION_TILING_H_

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
using LayerNormGradTiling = ::AscendC::tiling::LayerNormGradTiling;
using DeepNormTiling = ::AscendC::tiling::DeepNormTiling;
using LayerNormSeparateTiling = ::AscendC::tiling::LayerNormSeparateTiling;
using LayerNormGradBetaTiling = ::AscendC::tiling::LayerNormGradBetaTiling;
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

// The reference's older spelling, kept by its API.
inline void GetLayerNormNDTillingInfo(const TensorShape& srcShape, const uint32_t stackBufferSize,
                                      const uint32_t typeSize, const bool isReuseSource,
                                      tiling::LayerNormTiling& tilling) {
  GetLayerNormNDTilingInfo(srcShape, stackBufferSize, typeSize, isReuseSource, tilling);
}

// The rstd form of LayerNorm and Normalize ([A, R] rows, npud_ascendc/normalize.h).
inline void GetLayerNormMaxMinTmpSize(const TensorShape& srcShape, const uint32_t /*typeSize*/,
                                      const bool /*isReuseSource*/, const bool /*isComputeRstd*/,
                                      const bool /*isOnlyOutput*/, uint32_t& maxValue,
                                      uint32_t& minValue) {
  ::npud::ascendc::tiling::TmpSizes(srcShape, maxValue, minValue);
}
inline void GetLayerNormNDTilingInfo(const TensorShape& srcShape, const uint32_t stackBufferSize,
                                     const uint32_t /*typeSize*/, const bool /*isReuseSource*/,
                                     const bool /*isComputeRstd*/,
                                     tiling::LayerNormSeparateTiling& t) {
  t = tiling::LayerNormSeparateTiling{};
  const size_t dims = srcShape.GetDimNum();
  t.rLength = dims == 0 ? 0 : static_cast<uint32_t>(srcShape.GetDim(dims - 1));
  t.aLength = t.rLength == 0 ? 0 : static_cast<uint32_t>(srcShape.GetShapeSize() / t.rLength);
  t.inputXSize = t.aLength * t.rLength;
  t.meanVarSize = t.aLength;
  t.tmpBufSize = stackBufferSize / sizeof(float);
  t.loopRound = 1;
  t.arCurLength = t.inputXSize;
  t.aCurLength = t.aLength;
  t.rValueBack = t.rLength == 0 ? 0.0f : 1.0f / static_cast<float>(t.rLength);
}
inline void GetNormalizeMaxMinTmpSize(const TensorShape& srcShape, const uint32_t /*typeSizeU*/,
                                      const uint32_t /*typeSizeT*/, const bool /*isReuseSource*/,
                                      const bool /*isComputeRstd*/, const bool /*isOnlyOutput*/,
                                      uint32_t& maxValue, uint32_t& minValue) {
  ::npud::ascendc::tiling::TmpSizes(srcShape, maxValue, minValue);
}

// LayerNormGrad and LayerNormGradBeta need no scratch space either; their tilings
// carry the shape (the kernels read nothing else).
inline void GetLayerNormGradMaxMinTmpSize(const TensorShape& srcShape, const uint32_t /*typeSize*/,
                                          const bool /*isReuseSource*/, uint32_t& maxValue,
                                          uint32_t& minValue) {
  ::npud::ascendc::tiling::TmpSizes(srcShape, maxValue, minValue);
}
inline void GetLayerNormGradBetaMaxMinTmpSize(const TensorShape& srcShape,
                                              const uint32_t /*typeSize*/,
                                              const bool /*isReuseSource*/, uint32_t& maxValue,
                                              uint32_t& minValue) {
  ::npud::ascendc::tiling::TmpSizes(srcShape, maxValue, minValue);
}
inline void GetLayerNormGradNDTilingInfo(const TensorShape srcShape, const uint32_t stackBufferSize,
                                         const uint32_t /*typeSize*/, const bool /*isReuseSource*/,
                                         tiling::LayerNormGradTiling& t) {
  t = tiling::LayerNormGradTiling{};
  ::npud::ascendc::tiling::Bsh(srcShape, &t.bLength, &t.sLength, &t.hLength);
  t.stackBufferSize = stackBufferSize;
  t.originalHLength = t.hLength;
  t.oneCalSize = t.bLength * t.sLength * t.hLength;
  t.nohCalSize = t.bLength * t.sLength;
  t.loopNum = 1;
}
inline void GetLayerNormGradBetaNDTilingInfo(const TensorShape srcShape,
                                             const uint32_t stackBufferSize,
                                             const uint32_t /*typeSize*/,
                                             const bool /*isReuseSource*/,
                                             tiling::LayerNormGradBetaTiling& t) {
  t = tiling::LayerNormGradBetaTiling{};
  ::npud::ascendc::tiling::Bsh(srcShape, &t.bLength, &t.sLength, &t.hLength);
  t.stackBufferSize = stackBufferSize;
  t.originalHLength = t.hLength;
  t.bshLength = t.bLength * t.sLength * t.hLength;
  t.bsLength = t.bLength * t.sLength;
  t.oneCalSize = t.bshLength;
  t.loopRound = 1;
  t.bshCurLength = t.bshLength;
  t.bsCurLength = t.bsLength;
}

// DeepNorm (npud_ascendc/deep_norm.h): LayerNorm's sizes and tiling on the aligned
// shape, originalHLength from the original one.
inline bool GetDeepNormMaxMinTmpSize(const TensorShape& srcShape, const uint32_t /*typeSize*/,
                                     const bool /*isReuseSource*/, const bool /*isBasicBlock*/,
                                     uint32_t& maxValue, uint32_t& minValue) {
  ::npud::ascendc::tiling::TmpSizes(srcShape, maxValue, minValue);
  return true;
}
inline bool GetDeepNormTilingInfo(const TensorShape& srcShape, const TensorShape& originSrcShape,
                                  const uint32_t stackBufferSize, const uint32_t typeSize,
                                  const bool isReuseSource, const bool /*isBasicBlock*/,
                                  tiling::DeepNormTiling& t) {
  GetLayerNormNDTilingInfo(srcShape, stackBufferSize, typeSize, isReuseSource, t);
  uint32_t ob = 0, os = 0, oh = 0;
  ::npud::ascendc::tiling::Bsh(originSrcShape, &ob, &os, &oh);
  t.originalHLength = oh;
  return true;
}

// WelfordUpdate and WelfordFinalize (npud_ascendc/welford.h) need no scratch space.
inline void GetWelfordUpdateMaxMinTmpSize(const TensorShape& srcShape, const uint32_t /*typeSizeT*/,
                                          const uint32_t /*typeSizeU*/,
                                          const bool /*isReuseSource*/, const bool /*isInplace*/,
                                          uint32_t& maxValue, uint32_t& minValue) {
  ::npud::ascendc::tiling::TmpSizes(srcShape, maxValue, minValue);
}
inline void GetWelfordFinalizeMaxMinTmpSize(const TensorShape& srcShape,
                                            const uint32_t /*typeSize*/,
                                            const bool /*isReuseSource*/, uint32_t& maxValue,
                                            uint32_t& minValue) {
  ::npud::ascendc::tiling::TmpSizes(srcShape, maxValue, minValue);
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

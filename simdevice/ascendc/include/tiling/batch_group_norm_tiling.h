// tiling/batch_group_norm_tiling.h: the host side of BatchNorm and GroupNorm
// (npud_ascendc/batch_group_norm.h): scratch sizes and the tilings. The kernels read
// BatchNormTiling's originalBLength, meanVarSize and firstDimValueBack, and
// GroupNormTiling's n, c, hw, g, hwAlignSize and factor; the rest is filled for one
// round over the whole shape.
#ifndef NPUD_TILING_BATCH_GROUP_NORM_TILING_H_
#define NPUD_TILING_BATCH_GROUP_NORM_TILING_H_

#include <cstdint>

#include "kernel_tiling/kernel_tiling.h"
#include "tiling/vector_tmp_size.h"

namespace optiling {
using BatchNormTiling = ::AscendC::tiling::BatchNormTiling;
using GroupNormTiling = ::AscendC::tiling::GroupNormTiling;
}  // namespace optiling

namespace AscendC {

// [B, S, H] and [originB, originS, originH]: S * H a multiple of 32 bytes, originB <= B.
inline bool GetBatchNormMaxMinTmpSize(const TensorShape& srcShape,
                                      const TensorShape& originSrcShape, const uint32_t typeSize,
                                      const bool /*isReuseSource*/, uint32_t& maxValue,
                                      uint32_t& minValue, const bool /*isBasicBlock*/ = false) {
  if (srcShape.GetDimNum() != 3 || originSrcShape.GetDimNum() != 3 || typeSize == 0) return false;
  const uint64_t b = srcShape.GetDim(0), sh = uint64_t(srcShape.GetDim(1)) * srcShape.GetDim(2);
  if (sh * typeSize % 32 != 0 || uint64_t(originSrcShape.GetDim(0)) > b) return false;
  minValue = static_cast<uint32_t>(3 * sh * sizeof(float));
  maxValue = static_cast<uint32_t>(3 * b * sh * sizeof(float));
  return true;
}

inline bool GetBatchNormNDTilingInfo(const TensorShape& srcShape, const TensorShape& originSrcShape,
                                     const uint32_t stackBufferByteSize, const uint32_t typeSize,
                                     const bool isReuseSource, tiling::BatchNormTiling& tilling,
                                     const bool isBasicBlock = false) {
  uint32_t max_value = 0, min_value = 0;
  if (!GetBatchNormMaxMinTmpSize(srcShape, originSrcShape, typeSize, isReuseSource, max_value,
                                 min_value, isBasicBlock)) {
    return false;
  }
  tilling = tiling::BatchNormTiling{};
  const uint32_t origin_b = static_cast<uint32_t>(originSrcShape.GetDim(0));
  const uint32_t sh = static_cast<uint32_t>(srcShape.GetDim(1) * srcShape.GetDim(2));
  tilling.originalBLength = origin_b;
  tilling.meanVarSize = sh;
  tilling.tmpBufSize = stackBufferByteSize / sizeof(float);
  tilling.oneTmpSize = tilling.tmpBufSize / 3;
  tilling.loopRound = 1;
  tilling.shCurLength = sh;
  tilling.bshCurLength = origin_b * sh;
  tilling.firstDimValueBack = origin_b == 0 ? 0.0f : 1.0f / static_cast<float>(origin_b);
  return true;
}

// [N, C, H, W] with C a multiple of groupNum.
inline void GetGroupNormMaxMinTmpSize(const TensorShape& srcShape, const uint32_t typeSize,
                                      const bool /*isReuseSource*/, const uint32_t groupNum,
                                      uint32_t& maxValue, uint32_t& minValue) {
  maxValue = minValue = 0;
  if (srcShape.GetDimNum() != 4 || groupNum == 0 || typeSize == 0) return;
  const uint64_t n = srcShape.GetDim(0), c = srcShape.GetDim(1);
  const uint64_t hw = uint64_t(srcShape.GetDim(2)) * srcShape.GetDim(3);
  const uint64_t pitch = (hw * typeSize + 31) / 32 * 32 / typeSize;
  minValue = static_cast<uint32_t>(3 * (c / groupNum) * pitch * sizeof(float));
  maxValue = static_cast<uint32_t>(3 * n * c * pitch * sizeof(float));
}

inline void GetGroupNormNDTilingInfo(const TensorShape& srcShape, const uint32_t stackBufferSize,
                                     const uint32_t typeSize, const bool /*isReuseSource*/,
                                     const uint32_t groupNum, tiling::GroupNormTiling& tiling) {
  tiling = tiling::GroupNormTiling{};
  if (srcShape.GetDimNum() != 4 || groupNum == 0 || typeSize == 0) return;
  tiling.n = static_cast<uint32_t>(srcShape.GetDim(0));
  tiling.c = static_cast<uint32_t>(srcShape.GetDim(1));
  tiling.hw = static_cast<uint32_t>(srcShape.GetDim(2) * srcShape.GetDim(3));
  tiling.g = groupNum;
  tiling.d = tiling.c / groupNum;
  tiling.hwAlignSize = (tiling.hw * typeSize + 31) / 32 * 32 / typeSize;
  tiling.dhwAlignSize = tiling.d * tiling.hwAlignSize;
  tiling.inputXSize = tiling.n * tiling.c * tiling.hwAlignSize;
  tiling.meanVarSize = tiling.n * groupNum;
  tiling.numberOfTmpBuf = 3;
  tiling.tmpBufSize = stackBufferSize / sizeof(float);
  tiling.oneTmpSize = tiling.tmpBufSize / 3;
  tiling.loopRound = 1;
  tiling.inputRoundSize = tiling.inputXSize;
  tiling.meanVarRoundSize = tiling.meanVarSize;
  tiling.bshCurLength = tiling.inputXSize;
  tiling.bsCurLength = tiling.meanVarSize;
  const uint32_t group = tiling.d * tiling.hw;
  tiling.factor = group == 0 ? 0.0f : 1.0f / static_cast<float>(group);
}

}  // namespace AscendC

#endif  // NPUD_TILING_BATCH_GROUP_NORM_TILING_H_

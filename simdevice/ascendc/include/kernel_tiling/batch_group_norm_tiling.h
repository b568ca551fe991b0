// kernel_tiling/batch_group_norm_tiling.h: BatchNormTiling and GroupNormTiling, the
// tilings of the advanced BatchNorm and GroupNorm (fields in CANN's order; what the
// host tiling, tiling/batch_group_norm_tiling.h, fills and the kernels read is said
// there).
#ifndef NPUD_KERNEL_TILING_BATCH_GROUP_NORM_TILING_H_
#define NPUD_KERNEL_TILING_BATCH_GROUP_NORM_TILING_H_

#include <cstdint>

namespace AscendC::tiling {

#pragma pack(push, 8)
struct BatchNormTiling {
  uint32_t originalBLength = 0;
  uint32_t meanVarSize = 0;
  uint32_t meanTmpTensorPos = 0;
  uint32_t varianceTmpTensorPos = 0;
  uint32_t tmpBufSize = 0;
  uint32_t oneTmpSize = 0;
  uint32_t firstTmpStartPos = 0;
  uint32_t secondTmpStartPos = 0;
  uint32_t thirdTmpStartPos = 0;
  uint32_t loopRound = 0;
  uint32_t inputTailSize = 0;
  uint32_t inputTailPos = 0;
  uint32_t meanVarTailSize = 0;
  uint32_t meanVarTailPos = 0;
  uint32_t bshCurLength = 0;
  uint32_t shCurLength = 0;
  float firstDimValueBack = 0;
  uint32_t castHalfRepStride = 0;
  uint32_t shCurLengthBlockNum = 0;
  uint32_t castHalfOutRepStride = 0;
};

struct GroupNormTiling {
  uint32_t n = 0;
  uint32_t c = 0;
  uint32_t hw = 0;
  uint32_t g = 0;
  uint32_t d = 0;
  uint32_t hwAlignSize = 0;
  uint32_t dhwAlignSize = 0;
  uint32_t inputXSize = 0;
  uint32_t meanVarSize = 0;
  uint32_t numberOfTmpBuf = 0;
  uint32_t meanTmpTensorPos = 0;
  uint32_t meanTmpTensorSize = 0;
  uint32_t varianceTmpTensorPos = 0;
  uint32_t varianceTmpTensorSize = 0;
  uint32_t tmpBufSize = 0;
  uint32_t oneTmpSize = 0;
  uint32_t firstTmpStartPos = 0;
  uint32_t secondTmpStartPos = 0;
  uint32_t thirdTmpStartPos = 0;
  uint32_t loopRound = 0;
  uint32_t inputRoundSize = 0;
  uint32_t inputTailSize = 0;
  uint32_t inputTailPos = 0;
  uint32_t meanVarRoundSize = 0;
  uint32_t meanVarTailSize = 0;
  uint32_t meanVarTailPos = 0;
  uint32_t bshCurLength = 0;
  uint32_t bsCurLength = 0;
  float factor = 0;
  bool smallShape = false;
};
#pragma pack(pop)

}  // namespace AscendC::tiling

using AscendC::tiling::BatchNormTiling;
using AscendC::tiling::GroupNormTiling;

#endif  // NPUD_KERNEL_TILING_BATCH_GROUP_NORM_TILING_H_

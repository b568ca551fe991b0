// kernel_tiling/kernel_tiling.h: the tiling structures kernels receive from the host,
// as CANN generates them (every field an int32_t, zero unless set, packed to 8).
// TCubeTiling is what the matmul tiling (tiling/tiling_api.h) fills and the advanced
// Matmul API (lib/matmul_intf.h) reads; SoftMaxTiling what SoftMaxTilingFunc
// (tiling/softmax_tiling.h) fills for the SoftMax APIs. The field orders are CANN's.
#ifndef NPUD_KERNEL_TILING_KERNEL_TILING_H_
#define NPUD_KERNEL_TILING_KERNEL_TILING_H_

#include <cstdint>

// TCubeTiling's fields in CANN's order, all int32_t (optiling::TCubeTiling in
// tiling/tiling_api.h has an accessor pair per field).
// clang-format off
#define NPUD_TCUBE_TILING_FIELDS(X) \
  X(usedCoreNum) X(M) X(N) X(Ka) X(Kb) X(singleCoreM) \
  X(singleCoreN) X(singleCoreK) X(baseM) X(baseN) X(baseK) X(depthA1) \
  X(depthB1) X(stepM) X(stepN) X(isBias) X(transLength) X(iterateOrder) \
  X(shareMode) X(shareL1Size) X(shareL0CSize) X(shareUbSize) X(batchM) X(batchN) \
  X(singleBatchM) X(singleBatchN) X(stepKa) X(stepKb) X(depthAL1CacheUB) X(depthBL1CacheUB) \
  X(dbL0A) X(dbL0B) X(dbL0C) X(ALayoutInfoB) X(ALayoutInfoS) X(ALayoutInfoN) \
  X(ALayoutInfoG) X(ALayoutInfoD) X(BLayoutInfoB) X(BLayoutInfoS) X(BLayoutInfoN) X(BLayoutInfoG) \
  X(BLayoutInfoD) X(CLayoutInfoB) X(CLayoutInfoS1) X(CLayoutInfoN) X(CLayoutInfoG) X(CLayoutInfoS2) \
  X(BatchNum) X(mxTypePara)
// clang-format on

namespace AscendC::tiling {

#pragma pack(push, 8)
struct TCubeTiling {
#define NPUD_TCUBE_TILING_FIELD(name) int32_t name = 0;
  NPUD_TCUBE_TILING_FIELDS(NPUD_TCUBE_TILING_FIELD)
#undef NPUD_TCUBE_TILING_FIELD
};

struct SoftMaxTiling {
  uint32_t srcM = 0;
  uint32_t srcK = 0;
  uint32_t srcSize = 0;
  uint32_t outMaxM = 0;
  uint32_t outMaxK = 0;
  uint32_t outMaxSize = 0;
  uint32_t splitM = 0;
  uint32_t splitK = 0;
  uint32_t splitSize = 0;
  uint32_t reduceM = 0;
  uint32_t reduceK = 0;
  uint32_t reduceSize = 0;
  uint32_t rangeM = 0;
  uint32_t tailM = 0;
  uint32_t tailSplitSize = 0;
  uint32_t tailReduceSize = 0;
};

struct RmsNormTiling {
  uint32_t bLength = 0;
  uint32_t sLength = 0;
  uint32_t hLength = 0;
  uint32_t originalHLength = 0;
  float reciprocalOfHLength = 0;
  uint32_t mainBshLength = 0;
  uint32_t mainBsLength = 0;
  uint32_t mainBsLengthAlign = 0;
  uint32_t loopRound = 0;
  uint32_t inputTailPos = 0;
  uint32_t tailBshLength = 0;
  uint32_t tailBsLength = 0;
};

struct LayerNormTiling {
  uint32_t bLength = 0;
  uint32_t sLength = 0;
  uint32_t hLength = 0;
  uint32_t originalHLength = 0;
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
  float lastDimValueBack = 0.0f;
};
#pragma pack(pop)

}  // namespace AscendC::tiling

using AscendC::tiling::LayerNormTiling;
using AscendC::tiling::RmsNormTiling;
using AscendC::tiling::SoftMaxTiling;
using AscendC::tiling::TCubeTiling;

#endif  // NPUD_KERNEL_TILING_KERNEL_TILING_H_

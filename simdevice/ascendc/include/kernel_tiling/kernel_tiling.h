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

// LayerNormGrad's and LayerNormGradBeta's (npud_ascendc/layer_norm_grad.h reads the shape).
struct LayerNormGradTiling {
  uint32_t stackBufferSize = 0;
  uint32_t bLength = 0;
  uint32_t sLength = 0;
  uint32_t hLength = 0;
  uint32_t originalHLength = 0;
  uint32_t oneCalSize = 0;
  uint32_t nohCalSize = 0;
  uint32_t loopNum = 0;
  uint32_t tailSize = 0;
  uint32_t nohTailSize = 0;
  uint32_t tmpTensorBSHPos = 0;
  uint32_t tmpTensorBSHSize = 0;
  uint32_t pdVarTensorPos = 0;
  uint32_t pdVarTensorSize = 0;
  uint32_t pdMeanTensorPos = 0;
  uint32_t pdMeanTensorSize = 0;
  uint32_t x1TensorPos = 0;
  uint32_t x1TensorSize = 0;
  uint32_t x2TensorPos = 0;
  uint32_t x2TensorSize = 0;
  uint32_t x3TensorPos = 0;
  uint32_t x3TensorSize = 0;
  uint32_t tmpTensorPos = 0;
  uint32_t tmpTensorSize = 0;
  uint32_t tmpTensor1Pos = 0;
  uint32_t tmpTensor1Size = 0;
  uint32_t tmpTensor2Pos = 0;
  uint32_t tmpTensor2Size = 0;
  uint32_t lastDimValueBack = 0;
  uint32_t lastDimValueBackMulTwo = 0;
};

struct LayerNormGradBetaTiling {
  uint32_t stackBufferSize = 0;
  uint32_t bLength = 0;
  uint32_t sLength = 0;
  uint32_t hLength = 0;
  uint32_t originalHLength = 0;
  uint32_t bshLength = 0;
  uint32_t bsLength = 0;
  uint32_t oneCalSize = 0;
  uint32_t numberOfTmpBuf = 0;
  uint32_t loopRound = 0;
  uint32_t inputTailSize = 0;
  uint32_t inputTailPos = 0;
  uint32_t bsTailSize = 0;
  uint32_t bshCurLength = 0;
  uint32_t bsCurLength = 0;
  uint32_t gammaTempTensorPos = 0;
  uint32_t betaTempTensorPos = 0;
  uint32_t inputDyTmpTensorPos = 0;
  uint32_t resForGammaTmpTensorPos = 0;
  uint32_t reserved = 0;
};

// Pad's and UnPad's (npud_ascendc/pad.h reads the shape), CANN's field order.
struct PadTiling {
  uint32_t srcHeight = 0;
  uint32_t srcWidth = 0;
  uint32_t srcOriWidth = 0;
  uint32_t widthWithoutLastBlock = 0;
  uint32_t blocksPerRow = 0;
  uint32_t heightTiling = 0;
  uint32_t heightFractal = 0;
  uint32_t heightFractalTail = 0;
  uint32_t mainLoopOffset = 0;
  uint32_t tailBlockOffset = 0;
  uint32_t tmpBuffer1BlockNum = 0;
  uint32_t tmpBuffer1RowNum = 0;
  uint32_t tmpBuffer2Offset = 0;
  uint32_t widthTiling = 0;
  uint32_t widthFractal = 0;
  uint32_t widthFractalTail = 0;
  uint32_t widthFractalTailAlingned = 0;
  uint32_t brcbTiling = 0;
  uint32_t brcbFractal = 0;
  uint32_t brcbFractalTail = 0;
  uint32_t maxRepeatTimes = 0;
  uint32_t brcbTilingRepeatTimes = 0;
  uint32_t brcbTilingRepeatTimesTail = 0;
  uint32_t brcbFractalTailRepeatTimes = 0;
  uint32_t brcbFractalTailRepeatTimesTail = 0;
  uint32_t reserved = 0;
};

struct UnPadTiling {
  uint32_t srcHeight = 0;
  uint32_t srcWidth = 0;
  uint32_t tmpBuffer1BlockNum = 0;
  uint32_t tmpBuffer1RowNum = 0;
  uint32_t tmpBuffer2Offset = 0;
  uint32_t widthTiling = 0;
  uint32_t widthFractal = 0;
  uint32_t widthFractalTail = 0;
};

// The advanced Transpose's (npud_ascendc/confusion_transpose.h); CANN's fields are
// internal, npud keeps the source shape in param0..param3.
struct ConfusionTransposeTiling {
  uint32_t param0 = 0;
  uint32_t param1 = 0;
  uint32_t param2 = 0;
  uint32_t param3 = 0;
  uint32_t param4 = 0;
  uint32_t param5 = 0;
  uint32_t param6 = 0;
  uint32_t param7 = 0;
  uint32_t param8 = 0;
  uint32_t param9 = 0;
  uint32_t param10 = 0;
  uint32_t param11 = 0;
  uint32_t param12 = 0;
  uint32_t param13 = 0;
  uint32_t param14 = 0;
  uint32_t param15 = 0;
  uint32_t param16 = 0;
  uint32_t param17 = 0;
};

// TopK's (npud_ascendc/topk.h needs none of it), CANN's fields.
struct TopkTiling {
  int32_t tmpLocalSize = 0;
  int32_t allDataSize = 0;
  int32_t innerDataSize = 0;
  uint32_t sortRepeat = 0;
  int32_t mrgSortRepeat = 0;
  int32_t kAlignFourBytes = 0;
  int32_t kAlignTwoBytes = 0;
  int32_t maskOffset = 0;
  int32_t maskVreducev2FourBytes = 0;
  int32_t maskVreducev2TwoBytes = 0;
  int32_t mrgSortSrc1offset = 0;
  int32_t mrgSortSrc2offset = 0;
  int32_t mrgSortSrc3offset = 0;
  int32_t mrgSortTwoQueueSrc1Offset = 0;
  int32_t mrgFourQueueTailPara1 = 0;
  int32_t mrgFourQueueTailPara2 = 0;
  int32_t srcIndexOffset = 0;
  uint32_t copyUbToUbBlockCount = 0;
  int32_t topkMrgSrc1MaskSizeOffset = 0;
  int32_t topkNSmallSrcIndexOffset = 0;
  uint32_t vreduceValMask0 = 0;
  uint32_t vreduceValMask1 = 0;
  uint32_t vreduceIdxMask0 = 0;
  uint32_t vreduceIdxMask1 = 0;
  uint16_t vreducehalfValMask0 = 0;
  uint16_t vreducehalfValMask1 = 0;
  uint16_t vreducehalfValMask2 = 0;
  uint16_t vreducehalfValMask3 = 0;
  uint16_t vreducehalfValMask4 = 0;
  uint16_t vreducehalfValMask5 = 0;
  uint16_t vreducehalfValMask6 = 0;
  uint16_t vreducehalfValMask7 = 0;
};

// The rstd form of LayerNorm's (npud_ascendc/normalize.h needs none of it).
struct LayerNormSeparateTiling {
  uint32_t aLength = 0;
  uint32_t rLength = 0;
  uint32_t halfAddRepeatTimes = 0;
  uint32_t rHeadLength = 0;
  float k2Rec = 0;
  float k2RRec = 0;
  uint32_t inputXSize = 0;
  uint32_t meanVarSize = 0;
  uint32_t numberOfTmpBuf = 0;
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
  uint32_t arCurLength = 0;
  uint32_t aCurLength = 0;
  float rValueBack = 0;
};
#pragma pack(pop)

}  // namespace AscendC::tiling

// DeepNorm's tiling has LayerNorm's fields in LayerNorm's order, LogSoftMax's SoftMax's.
namespace AscendC::tiling {
using DeepNormTiling = LayerNormTiling;
using LogSoftMaxTiling = SoftMaxTiling;
}  // namespace AscendC::tiling

using AscendC::tiling::ConfusionTransposeTiling;
using AscendC::tiling::DeepNormTiling;
using AscendC::tiling::LayerNormGradBetaTiling;
using AscendC::tiling::LayerNormGradTiling;
using AscendC::tiling::LayerNormSeparateTiling;
using AscendC::tiling::LayerNormTiling;
using AscendC::tiling::LogSoftMaxTiling;
using AscendC::tiling::PadTiling;
using AscendC::tiling::RmsNormTiling;
using AscendC::tiling::SoftMaxTiling;
using AscendC::tiling::TCubeTiling;
using AscendC::tiling::TopkTiling;
using AscendC::tiling::UnPadTiling;

#include "kernel_tiling/batch_group_norm_tiling.h"  // BatchNormTiling, GroupNormTiling

#endif  // NPUD_KERNEL_TILING_KERNEL_TILING_H_

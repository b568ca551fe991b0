// Kernels for the image pre-processing (npud_ascendc/aipp.h): SetAippFunctions from a
// parameter array in GM, LoadImageToLocal into L1, L1 back to GM (aipp_test.cc).
#include "kernel_operator.h"

using namespace AscendC;

namespace {

float FloatOf(uint32_t bits) {
  float f;
  __builtin_memcpy(&f, &bits, sizeof(f));
  return f;
}

// q: format, swapRB, swapUV, swapAX, singleLine, paddingMode, padding values 0..3,
// means 0..2, mins 0..2 (float bits), vars 0..2 (float bits), cPaddingMode,
// cPaddingValue, then horizSize, vertSize, horizStartPos, vertStartPos,
// srcHorizSize, topPad, botPad, leftPad, rightPad; the L1 image has `total` elements.
template <class U>
void Run(__gm__ uint8_t* src0, __gm__ uint8_t* src1, __gm__ U* out, const __gm__ uint32_t* q,
         uint32_t total) {
  GlobalTensor<uint8_t> y, uv;
  y.SetGlobalBuffer(src0);
  uv.SetGlobalBuffer(src1);
  AippParams<U> config;
  config.swapParams.isSwapRB = q[1] != 0;
  config.swapParams.isSwapUV = q[2] != 0;
  config.swapParams.isSwapAX = q[3] != 0;
  config.singleLineParams.isSingleLineCopy = q[4] != 0;
  config.paddingParams.paddingMode = q[5];
  config.paddingParams.paddingValueCh0 = static_cast<U>(static_cast<int32_t>(q[6]));
  config.paddingParams.paddingValueCh1 = static_cast<U>(static_cast<int32_t>(q[7]));
  config.paddingParams.paddingValueCh2 = static_cast<U>(static_cast<int32_t>(q[8]));
  config.paddingParams.paddingValueCh3 = static_cast<U>(static_cast<int32_t>(q[9]));
  config.dtcParams.dtcMeanCh0 = static_cast<uint8_t>(q[10]);
  config.dtcParams.dtcMeanCh1 = static_cast<uint8_t>(q[11]);
  config.dtcParams.dtcMeanCh2 = static_cast<uint8_t>(q[12]);
  config.dtcParams.dtcMinCh0 = half(FloatOf(q[13]));
  config.dtcParams.dtcMinCh1 = half(FloatOf(q[14]));
  config.dtcParams.dtcMinCh2 = half(FloatOf(q[15]));
  config.dtcParams.dtcVarCh0 = half(FloatOf(q[16]));
  config.dtcParams.dtcVarCh1 = half(FloatOf(q[17]));
  config.dtcParams.dtcVarCh2 = half(FloatOf(q[18]));
  config.cPaddingParams.cPaddingMode = q[19];
  config.cPaddingParams.cPaddingValue = static_cast<U>(static_cast<int32_t>(q[20]));
  config.cscParams.isEnableCsc = q[30] != 0;
  const auto format = static_cast<AippInputFormat>(q[0]);
  if (format == AippInputFormat::YUV420SP_U8) {
    SetAippFunctions(y, uv, format, config);
  } else {
    SetAippFunctions(y, format, config);
  }
  LoadImageToLocalParams p(static_cast<uint16_t>(q[21]), static_cast<uint16_t>(q[22]),
                           static_cast<uint16_t>(q[23]), static_cast<uint16_t>(q[24]),
                           static_cast<uint16_t>(q[25]), static_cast<uint8_t>(q[26]),
                           static_cast<uint8_t>(q[27]), static_cast<uint16_t>(q[28]),
                           static_cast<uint16_t>(q[29]));
  LocalTensor<U> l1(TPosition::A1, 0, total);
  LoadImageToLocal(l1, p);
  GlobalTensor<U> outGm;
  outGm.SetGlobalBuffer(out);
  DataCopy(outGm, l1, total);
}

}  // namespace

extern "C" __global__ __cube__ void aipp_to_int8(__gm__ uint8_t* src0, __gm__ uint8_t* src1,
                                                 __gm__ int8_t* out, __gm__ uint32_t* q,
                                                 uint32_t total) {
  Run(src0, src1, out, q, total);
}

extern "C" __global__ __cube__ void aipp_to_half(__gm__ uint8_t* src0, __gm__ uint8_t* src1,
                                                 __gm__ half* out, __gm__ uint32_t* q,
                                                 uint32_t total) {
  Run(src0, src1, out, q, total);
}

NPUD_KERNEL_REGISTER_AS(aipp_to_int8, NPUD_CORE_TYPE_CUBE);
NPUD_KERNEL_REGISTER_AS(aipp_to_half, NPUD_CORE_TYPE_CUBE);

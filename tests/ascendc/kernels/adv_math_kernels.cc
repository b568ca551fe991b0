// The element-wise advanced APIs (npud_ascendc/adv_math.h) over 64 floats: out rows of
// 64 hold Sigmoid, Gelu, Swish(beta 1.5), Frac, Erf (count form of 40), Tanh.
#include "kernel_operator.h"

using namespace AscendC;

extern "C" __global__ __aicore__ void adv_math(__gm__ float* src, __gm__ float* out) {
  GlobalTensor<float> gsrc, gout;
  gsrc.SetGlobalBuffer(src);
  gout.SetGlobalBuffer(out);
  LocalMemAllocator<Hardware::UB> ub;
  LocalTensor<float> x = ub.Alloc<float, 64>();
  LocalTensor<float> y = ub.Alloc<float, 384>();
  LocalTensor<uint8_t> tmp = ub.Alloc<uint8_t, 1024>();
  DataCopy(x, gsrc, 64);
  DataCopy(y, gout, 384);
  Sigmoid<float, false>(y, x, tmp, 64);
  LocalTensor<float> row = y[64];
  Gelu(row, x, 64);
  row = y[128];
  Swish(row, x, 64, 1.5f);
  row = y[192];
  Frac<float>(row, x);
  row = y[256];
  Erf<float>(row, x, 40);
  row = y[320];
  Tanh<float>(row, x, tmp);
  DataCopy(gout, y, 384);
}

NPUD_KERNEL_REGISTER(adv_math);

// The element-wise advanced APIs (npud_ascendc/adv_math.h) over 64 floats: out rows of
// 64 hold Sigmoid, Gelu, Swish(beta 1.5), Frac, Erf (count form of 40), Tanh.
#include <cstring>

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

// Rows of 64: Exp (the advanced form), ClampMin at -1, Fmod by b, Power x^b (b > 0
// bases only: x is made positive with Abs first) and Power 2^x.
extern "C" __global__ __aicore__ void adv_binary(__gm__ float* src, __gm__ float* b,
                                                 __gm__ float* out) {
  GlobalTensor<float> gsrc, gb, gout;
  gsrc.SetGlobalBuffer(src);
  gb.SetGlobalBuffer(b);
  gout.SetGlobalBuffer(out);
  LocalMemAllocator<Hardware::UB> ub;
  LocalTensor<float> x = ub.Alloc<float, 64>();
  LocalTensor<float> y = ub.Alloc<float, 64>();
  LocalTensor<float> ax = ub.Alloc<float, 64>();
  LocalTensor<float> o = ub.Alloc<float, 320>();
  LocalTensor<uint8_t> tmp = ub.Alloc<uint8_t, 512>();
  DataCopy(x, gsrc, 64);
  DataCopy(y, gb, 64);
  Exp<float, 10, false>(o, x, tmp, 64);
  LocalTensor<float> row = o[64];
  ClampMin<float, false>(row, x, -1.0f, 64);
  row = o[128];
  Fmod<float>(row, x, y, 64);
  Abs(ax, x, 64);
  row = o[192];
  Power<float>(row, ax, y, tmp);
  row = o[256];
  Power<float>(row, 2.0f, x, 64);
  DataCopy(gout, o, 320);
}

NPUD_KERNEL_REGISTER(adv_binary);

// SoftMax of 4 rows of 32 floats (the reductions over the first 24 columns), with sum
// and max; SimpleSoftMax of the same rows from those sums and maxima into out2; then
// AdjustSoftMaxRes sets the rows whose max is 1000 to -1.
extern "C" __global__ __aicore__ void softmax_rows(__gm__ float* src, __gm__ float* out,
                                                   __gm__ float* out2, __gm__ float* sum,
                                                   __gm__ float* max) {
  GlobalTensor<float> gsrc, gout, gout2, gsum, gmax;
  gsrc.SetGlobalBuffer(src);
  gout.SetGlobalBuffer(out);
  gout2.SetGlobalBuffer(out2);
  gsum.SetGlobalBuffer(sum);
  gmax.SetGlobalBuffer(max);
  LocalMemAllocator<Hardware::UB> ub;
  LocalTensor<float> x = ub.Alloc<float, 128>();
  LocalTensor<float> y = ub.Alloc<float, 128>();
  LocalTensor<float> y2 = ub.Alloc<float, 128>();
  LocalTensor<float> s = ub.Alloc<float, 32>();
  LocalTensor<float> m = ub.Alloc<float, 32>();
  DataCopy(x, gsrc, 128);
  SoftMaxTiling tiling;
  SoftMaxShapeInfo shape{4, 32, 4, 24};
  SoftMax<float>(y, s, m, x, tiling, shape);
  SimpleSoftMax<float>(y2, s, m, x, tiling, shape);
  const float thousand = 1000.0f;
  uint32_t bits;
  std::memcpy(&bits, &thousand, sizeof(bits));
  AdjustSoftMaxRes<float, float>(y, m, bits, -1.0f, shape);
  DataCopy(gout, y, 128);
  DataCopy(gout2, y2, 128);
  DataCopy(gsum, s, 32);
  DataCopy(gmax, m, 32);
}

NPUD_KERNEL_REGISTER(softmax_rows);

// RmsNorm of 2 x 3 rows of 16 floats (the mean over the first 12) with gamma, its
// scratch the TPipe's remaining UB (PopStackBuffer); stack[0] is that space in bytes.
extern "C" __global__ __aicore__ void rms_norm(__gm__ float* src, __gm__ float* gamma,
                                               __gm__ float* out, __gm__ uint32_t* stack) {
  TPipe pipe;
  TBuf<TPosition::VECCALC> xbuf, gbuf, ybuf;
  pipe.InitBuffer(xbuf, 96 * sizeof(float));
  pipe.InitBuffer(gbuf, 16 * sizeof(float));
  pipe.InitBuffer(ybuf, 96 * sizeof(float));
  LocalTensor<float> x = xbuf.Get<float>(), g = gbuf.Get<float>(), y = ybuf.Get<float>();
  GlobalTensor<float> gsrc, ggamma, gout;
  gsrc.SetGlobalBuffer(src);
  ggamma.SetGlobalBuffer(gamma);
  gout.SetGlobalBuffer(out);
  DataCopy(x, gsrc, 96);
  DataCopy(g, ggamma, 16);
  LocalTensor<uint8_t> scratch;
  if (!PopStackBuffer<uint8_t, TPosition::LCM>(scratch)) trap();
  stack[0] = scratch.GetSize();
  RmsNormTiling tiling;
  tiling.bLength = 2;
  tiling.sLength = 3;
  tiling.hLength = 16;
  tiling.originalHLength = 12;
  RmsNorm<float>(y, x, g, scratch, 1e-5f, tiling);
  DataCopy(gout, y, 96);
}

NPUD_KERNEL_REGISTER(rms_norm);

// LayerNorm of 2 x 4 rows of 32 floats with gamma and beta; out gets the normalized
// rows, stats the 8 means then the 8 variances.
extern "C" __global__ __aicore__ void layer_norm(__gm__ float* src, __gm__ float* gamma,
                                                 __gm__ float* beta, __gm__ float* out,
                                                 __gm__ float* stats) {
  GlobalTensor<float> gsrc, ggamma, gbeta, gout, gstats;
  gsrc.SetGlobalBuffer(src);
  ggamma.SetGlobalBuffer(gamma);
  gbeta.SetGlobalBuffer(beta);
  gout.SetGlobalBuffer(out);
  gstats.SetGlobalBuffer(stats);
  LocalMemAllocator<Hardware::UB> ub;
  LocalTensor<float> x = ub.Alloc<float, 256>(), y = ub.Alloc<float, 256>();
  LocalTensor<float> g = ub.Alloc<float, 32>(), b = ub.Alloc<float, 32>();
  LocalTensor<float> stat = ub.Alloc<float, 16>();
  DataCopy(x, gsrc, 256);
  DataCopy(g, ggamma, 32);
  DataCopy(b, gbeta, 32);
  LayerNormTiling tiling;
  tiling.bLength = 2;
  tiling.sLength = 4;
  tiling.hLength = 32;
  LocalTensor<float> variance = stat[8];
  LayerNorm<float>(y, stat, variance, x, g, b, 1e-5f, tiling);
  DataCopy(gout, y, 256);
  DataCopy(gstats, stat, 16);
}

NPUD_KERNEL_REGISTER(layer_norm);

// Sum of 3 rows of 16 halves (pitch 16, the first 11 summed) into out[0..3);
// Arange from 2 by 0.5 into out[16..48); Fill of fill_gm with 7.
extern "C" __global__ __aicore__ void sum_arange_fill(__gm__ half* src, __gm__ half* out,
                                                      __gm__ float* fill_gm) {
  GlobalTensor<half> gsrc, gout;
  GlobalTensor<float> gfill;
  gsrc.SetGlobalBuffer(src);
  gout.SetGlobalBuffer(out);
  gfill.SetGlobalBuffer(fill_gm);
  LocalMemAllocator<Hardware::UB> ub;
  LocalTensor<half> x = ub.Alloc<half, 48>(), y = ub.Alloc<half, 48>();
  DataCopy(x, gsrc, 48);
  Duplicate(y, half(0.0f), 48);
  SumParams params{3, 16, 11};
  Sum(y, x, params);
  LocalTensor<half> row = y[16];
  Arange(row, half(2.0f), half(0.5f), 32);
  DataCopy(gout, y, 48);
  Fill(gfill, 40, 7.0f);
}

NPUD_KERNEL_REGISTER(sum_arange_fill);

// Round of 64 floats, halves among them (upstream rounds them to even).
extern "C" __global__ __aicore__ void round_floats(__gm__ float* src, __gm__ float* out) {
  GlobalTensor<float> gsrc, gout;
  gsrc.SetGlobalBuffer(src);
  gout.SetGlobalBuffer(out);
  LocalMemAllocator<Hardware::UB> ub;
  LocalTensor<float> x = ub.Alloc<float, 64>(), y = ub.Alloc<float, 64>();
  DataCopy(x, gsrc, 64);
  Round<float>(y, x, 64);
  DataCopy(gout, y, 64);
}

NPUD_KERNEL_REGISTER(round_floats);

// GeGLU, ReGlu and SwiGLU (beta 1.25) of 64 floats, rows of out.
extern "C" __global__ __aicore__ void glus(__gm__ float* a, __gm__ float* b, __gm__ float* out) {
  GlobalTensor<float> ga, gb, gout;
  ga.SetGlobalBuffer(a);
  gb.SetGlobalBuffer(b);
  gout.SetGlobalBuffer(out);
  LocalMemAllocator<Hardware::UB> ub;
  LocalTensor<float> x0 = ub.Alloc<float, 64>(), x1 = ub.Alloc<float, 64>();
  LocalTensor<float> y = ub.Alloc<float, 192>();
  DataCopy(x0, ga, 64);
  DataCopy(x1, gb, 64);
  GeGLU<float>(y, x0, x1, 64);
  LocalTensor<float> row = y[64];
  ReGlu<float>(row, x0, x1, 64);
  row = y[128];
  SwiGLU<float>(row, x0, x1, 1.25f, 64);
  DataCopy(gout, y, 192);
}

NPUD_KERNEL_REGISTER(glus);

namespace {
constexpr CumSumConfig kCumSumDown{false, false, true};
constexpr CumSumConfig kCumSumNoLastRow{true, false, false};
}  // namespace

// CumSum of a 4 x 16 float matrix: along the rows (the default config) into out[0, 64)
// and last[0, 16); down the columns, with a sharedTmpBuffer, into out[64, 128) and
// last[16, 32); along the first 2 rows only, without the last row, into out[128, 160).
// out[160, 192) and last[32, 48) keep what the host wrote.
extern "C" __global__ __aicore__ void cumsum_float(__gm__ float* src, __gm__ float* out,
                                                   __gm__ float* last) {
  GlobalTensor<float> gsrc, gout, glast;
  gsrc.SetGlobalBuffer(src);
  gout.SetGlobalBuffer(out);
  glast.SetGlobalBuffer(last);
  LocalMemAllocator<Hardware::UB> ub;
  LocalTensor<float> x = ub.Alloc<float, 64>();
  LocalTensor<float> y = ub.Alloc<float, 192>();
  LocalTensor<float> l = ub.Alloc<float, 48>();
  LocalTensor<uint8_t> tmp = ub.Alloc<uint8_t, 1024>();
  DataCopy(x, gsrc, 64);
  DataCopy(y, gout, 192);
  DataCopy(l, glast, 48);
  CumSum<float>(y, l, x, {4, 16});
  LocalTensor<float> down = y[64], down_last = l[16];
  CumSum<float, kCumSumDown>(down, down_last, x, tmp, {4, 16});
  LocalTensor<float> part = y[128], part_last = l[32];
  CumSum<float, kCumSumNoLastRow>(part, part_last, x, {2, 16});
  DataCopy(gout, y, 192);
  DataCopy(glast, l, 48);
}

NPUD_KERNEL_REGISTER(cumsum_float);

// CumSum of a 3 x 32 half matrix: along the rows into out[0, 96) and last[0, 32), down
// the columns into out[96, 192) and last[32, 64).
extern "C" __global__ __aicore__ void cumsum_half(__gm__ half* src, __gm__ half* out,
                                                  __gm__ half* last) {
  GlobalTensor<half> gsrc, gout, glast;
  gsrc.SetGlobalBuffer(src);
  gout.SetGlobalBuffer(out);
  glast.SetGlobalBuffer(last);
  LocalMemAllocator<Hardware::UB> ub;
  LocalTensor<half> x = ub.Alloc<half, 96>();
  LocalTensor<half> y = ub.Alloc<half, 192>();
  LocalTensor<half> l = ub.Alloc<half, 64>();
  LocalTensor<uint8_t> tmp = ub.Alloc<uint8_t, 1024>();
  DataCopy(x, gsrc, 96);
  CumSum<half>(y, l, x, tmp, {3, 32});
  LocalTensor<half> down = y[96], down_last = l[32];
  CumSum<half, kCumSumDown>(down, down_last, x, {3, 32});
  DataCopy(gout, y, 192);
  DataCopy(glast, l, 64);
}

NPUD_KERNEL_REGISTER(cumsum_half);

// CumSum of an outter x inner float matrix from 64-element tensors with a 16-element
// lastRow: the shape checks.
extern "C" __global__ __aicore__ void cumsum_shape(__gm__ float* src, uint32_t outter,
                                                   uint32_t inner) {
  GlobalTensor<float> gsrc;
  gsrc.SetGlobalBuffer(src);
  LocalMemAllocator<Hardware::UB> ub;
  LocalTensor<float> x = ub.Alloc<float, 64>(), y = ub.Alloc<float, 64>();
  LocalTensor<float> l = ub.Alloc<float, 16>();
  DataCopy(x, gsrc, 64);
  CumSum<float>(y, l, x, {outter, inner});
}

NPUD_KERNEL_REGISTER(cumsum_shape);

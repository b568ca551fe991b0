// More advanced APIs (adv_reduce_pattern_ops.h, adv_mean_xor_sum.h,
// adv_gamma_gelu_v2.h, adv_mrg_sort.h), each on a small tensor copied in from GM and
// back.
#include "kernel_operator.h"

using namespace AscendC;

// x: [4, 12] floats, rows padded to 16 (64 floats). out gets ReduceMean AR (4),
// ReduceProd AR (4), ReduceMean RA (12, at 8), ReduceProd RA (12, at 24): 40 floats,
// the rest of the 64 untouched.
extern "C" __global__ __aicore__ void reduce_mean_prod(__gm__ float* x, __gm__ float* out) {
  GlobalTensor<float> gx, gout;
  gx.SetGlobalBuffer(x);
  gout.SetGlobalBuffer(out);
  LocalMemAllocator<Hardware::UB> ub;
  LocalTensor<float> in = ub.Alloc<float, 64>();
  LocalTensor<float> o = ub.Alloc<float, 64>();
  LocalTensor<uint8_t> tmp = ub.Alloc<uint8_t, 1024>();
  DataCopy(in, gx, 64);
  DataCopy(o, gout, 64);
  const uint32_t ar[2] = {4, 12};
  const uint32_t ra[2] = {4, 12};
  ReduceMean<float, Pattern::Reduce::AR>(o, in, tmp, ar, true);
  ReduceProd<float, Pattern::Reduce::AR>(o[4], in, ar, true);
  ReduceMean<float, Pattern::Reduce::RA>(o[8], in, ra, true);
  ReduceProd<float, Pattern::Reduce::RA, true>(o[24], in, tmp, ra, true);
  DataCopy(gout, o, 64);
}

NPUD_KERNEL_REGISTER(reduce_mean_prod);

// m: [3, 40] bytes of 0/1, rows padded to 64 (192 bytes). out gets ReduceAny AR (3),
// ReduceAll AR (3, at 8), ReduceAny RA (40, at 16), ReduceAll RA (40, at 64).
extern "C" __global__ __aicore__ void reduce_any_all(__gm__ uint8_t* m, __gm__ uint8_t* out) {
  GlobalTensor<uint8_t> gm, gout;
  gm.SetGlobalBuffer(m);
  gout.SetGlobalBuffer(out);
  LocalMemAllocator<Hardware::UB> ub;
  LocalTensor<uint8_t> in = ub.Alloc<uint8_t, 192>();
  LocalTensor<uint8_t> o = ub.Alloc<uint8_t, 128>();
  DataCopy(in, gm, 192);
  DataCopy(o, gout, 128);
  const uint32_t shape[2] = {3, 40};
  ReduceAny<uint8_t, Pattern::Reduce::AR>(o, in, shape, true);
  ReduceAll<uint8_t, Pattern::Reduce::AR>(o[8], in, shape, true);
  ReduceAny<uint8_t, Pattern::Reduce::RA>(o[16], in, shape, true);
  ReduceAll<uint8_t, Pattern::Reduce::RA>(o[64], in, shape, true);
  DataCopy(gout, o, 128);
}

NPUD_KERNEL_REGISTER(reduce_any_all);

// ReduceAny/All of [2, 8] floats (0.0 / 1.0) along rows: out[0..2) any, out[2..4) all.
extern "C" __global__ __aicore__ void reduce_any_all_float(__gm__ float* m, __gm__ float* out) {
  GlobalTensor<float> gm, gout;
  gm.SetGlobalBuffer(m);
  gout.SetGlobalBuffer(out);
  LocalMemAllocator<Hardware::UB> ub;
  LocalTensor<float> in = ub.Alloc<float, 16>();
  LocalTensor<float> o = ub.Alloc<float, 8>();
  DataCopy(in, gm, 16);
  DataCopy(o, gout, 8);
  const uint32_t shape[2] = {2, 8};
  ReduceAny<float, Pattern::Reduce::AR>(o, in, shape, true);
  ReduceAll<float, Pattern::Reduce::AR>(o[2], in, shape, true);
  DataCopy(gout, o, 8);
}

NPUD_KERNEL_REGISTER(reduce_any_all_float);

// Mean of [3, n = 13] halves (inner 16) into out[0..3) with accType half and into
// out[16..19) with accType float; Mean of [2, n = 5] floats (inner 8) into fout.
extern "C" __global__ __aicore__ void mean_rows(__gm__ half* x, __gm__ half* out, __gm__ float* fx,
                                                __gm__ float* fout) {
  GlobalTensor<half> gx, gout;
  GlobalTensor<float> gfx, gfout;
  gx.SetGlobalBuffer(x);
  gout.SetGlobalBuffer(out);
  gfx.SetGlobalBuffer(fx);
  gfout.SetGlobalBuffer(fout);
  LocalMemAllocator<Hardware::UB> ub;
  LocalTensor<half> in = ub.Alloc<half, 48>();
  LocalTensor<half> o = ub.Alloc<half, 32>();
  LocalTensor<float> fin = ub.Alloc<float, 16>();
  LocalTensor<float> fo = ub.Alloc<float, 8>();
  LocalTensor<uint8_t> tmp = ub.Alloc<uint8_t, 1024>();
  DataCopy(in, gx, 48);
  DataCopy(o, gout, 32);
  DataCopy(fin, gfx, 16);
  DataCopy(fo, gfout, 8);
  MeanParams p{3, 16, 13};
  Mean<half>(o, in, tmp, p);
  Mean<half, float>(o[16], in, p);
  MeanParams fp{2, 8, 5};
  Mean<float>(fo, fin, fp);
  DataCopy(gout, o, 32);
  DataCopy(gfout, fo, 8);
}

NPUD_KERNEL_REGISTER(mean_rows);

// ReduceXorSum of the first count int16s of a and b into out[0].
extern "C" __global__ __aicore__ void reduce_xor_sum(__gm__ int16_t* a, __gm__ int16_t* b,
                                                     __gm__ int16_t* out, uint32_t count) {
  GlobalTensor<int16_t> ga, gb, gout;
  ga.SetGlobalBuffer(a);
  gb.SetGlobalBuffer(b);
  gout.SetGlobalBuffer(out);
  LocalMemAllocator<Hardware::UB> ub;
  LocalTensor<int16_t> x = ub.Alloc<int16_t, 256>();
  LocalTensor<int16_t> y = ub.Alloc<int16_t, 256>();
  LocalTensor<int16_t> o = ub.Alloc<int16_t, 16>();
  DataCopy(x, ga, 256);
  DataCopy(y, gb, 256);
  DataCopy(o, gout, 16);
  ReduceXorSum<int16_t>(o, x, y, count);
  DataCopy(gout, o, 16);
}

NPUD_KERNEL_REGISTER(reduce_xor_sum);

// Digamma, Lgamma and FasterGeluV2 of 32 floats each into out (96), and Digamma of 16
// halves into hout.
extern "C" __global__ __aicore__ void gamma_gelu_v2(__gm__ float* x, __gm__ float* out,
                                                    __gm__ half* hx, __gm__ half* hout) {
  GlobalTensor<float> gx, gout;
  GlobalTensor<half> ghx, ghout;
  gx.SetGlobalBuffer(x);
  gout.SetGlobalBuffer(out);
  ghx.SetGlobalBuffer(hx);
  ghout.SetGlobalBuffer(hout);
  LocalMemAllocator<Hardware::UB> ub;
  LocalTensor<float> in = ub.Alloc<float, 32>();
  LocalTensor<float> o = ub.Alloc<float, 96>();
  LocalTensor<half> hin = ub.Alloc<half, 16>();
  LocalTensor<half> ho = ub.Alloc<half, 16>();
  LocalTensor<uint8_t> tmp = ub.Alloc<uint8_t, 1024>();
  DataCopy(in, gx, 32);
  DataCopy(hin, ghx, 16);
  Digamma(o, in, tmp, 32);
  Lgamma<float>(o[32], in, 32);
  FasterGeluV2<float, false, true>(o[64], in, tmp, 32);
  Digamma<half>(ho, hin, 16);
  DataCopy(gout, o, 96);
  DataCopy(ghout, ho, 16);
}

NPUD_KERNEL_REGISTER(gamma_gelu_v2);

// The advanced MrgSort of four sorted float queues of 8 pairs (q at pairs[16 q ..]),
// whole into out[0..64) and stopping at the first exhausted queue into out[64..128);
// counts gets sortedNum of both.
extern "C" __global__ __aicore__ void adv_mrg_sort(__gm__ float* pairs, __gm__ float* out,
                                                   __gm__ uint32_t* counts) {
  GlobalTensor<float> gp, gout;
  gp.SetGlobalBuffer(pairs);
  gout.SetGlobalBuffer(out);
  LocalMemAllocator<Hardware::UB> ub;
  LocalTensor<float> in = ub.Alloc<float, 64>();
  LocalTensor<float> o = ub.Alloc<float, 128>();
  DataCopy(in, gp, 64);
  Duplicate(o, -1.0f, 128);
  MrgSortSrcList<float> list(in, in[16], in[32], in[48]);
  const uint16_t lengths[4] = {8, 8, 8, 8};
  uint32_t whole[4] = {9, 9, 9, 9}, part[4] = {9, 9, 9, 9};
  MrgSort<float>(o, list, lengths, whole, 0b1111, 1);
  MrgSort<float, true>(o[64], list, lengths, part, 0b1111, 1);
  for (int q = 0; q < 4; ++q) {
    counts[q] = whole[q];
    counts[4 + q] = part[q];
  }
  DataCopy(gout, o, 128);
}

NPUD_KERNEL_REGISTER(adv_mrg_sort);

// BatchNorm of x [3, 2, 8] floats (gamm, beta [8], the first 3 used) into out (48),
// mean (16) and var (16); the tiling is read from GM.
extern "C" __global__ __aicore__ void batch_norm(__gm__ float* io, __gm__ float* out,
                                                 GM_ADDR tiling) {
  GET_TILING_DATA_WITH_STRUCT(BatchNormTiling, t, tiling);
  GlobalTensor<float> gio, gout;
  gio.SetGlobalBuffer(io);
  gout.SetGlobalBuffer(out);
  LocalMemAllocator<Hardware::UB> ub;
  LocalTensor<float> in = ub.Alloc<float, 64>();  // x (48), gamm (8), beta (8)
  LocalTensor<float> o = ub.Alloc<float, 80>();   // output (48), mean (16), var (16)
  DataCopy(in, gio, 64);
  BatchNorm<float>(o, o[48], o[64], in, in[48], in[56], 0.001f, t);
  DataCopy(gout, o, 80);
}

NPUD_KERNEL_REGISTER(batch_norm);

// GroupNorm of x [2, 4, 2, 3] halves, each channel padded to 16 (128 halves), in 2
// groups; gamma, beta [16] (4 used); out gets output (128), mean (16: 4 used), var
// (16). The tiling is read from GM.
extern "C" __global__ __aicore__ void group_norm(__gm__ half* io, __gm__ half* out,
                                                 GM_ADDR tiling) {
  GET_TILING_DATA_WITH_STRUCT(GroupNormTiling, t, tiling);
  GlobalTensor<half> gio, gout;
  gio.SetGlobalBuffer(io);
  gout.SetGlobalBuffer(out);
  LocalMemAllocator<Hardware::UB> ub;
  LocalTensor<half> in = ub.Alloc<half, 160>();  // x (128), gamma (16), beta (16)
  LocalTensor<half> o = ub.Alloc<half, 160>();   // output (128), mean (16), var (16)
  DataCopy(in, gio, 160);
  DataCopy(o, gout, 160);
  GroupNorm<half>(o, o[128], o[144], in, in[128], in[144], half(0.01f), t);
  DataCopy(gout, o, 160);
}

NPUD_KERNEL_REGISTER(group_norm);

// SoftmaxFlash over two column chunks of x (4 rows of 16 floats each, chunk 1 at x[0],
// chunk 2 at x[64]): without update on chunk 1, then with update on chunk 2 from the
// first call's sum and max (aliased, as kernels do). out: dst1 (64), dst2 (64), sum
// (32), max (32), expMax (32).
extern "C" __global__ __aicore__ void softmax_flash(__gm__ float* x, __gm__ float* out,
                                                    GM_ADDR tiling) {
  GET_TILING_DATA_WITH_STRUCT(SoftMaxTiling, t, tiling);
  GlobalTensor<float> gx, gout;
  gx.SetGlobalBuffer(x);
  gout.SetGlobalBuffer(out);
  LocalMemAllocator<Hardware::UB> ub;
  LocalTensor<float> in = ub.Alloc<float, 128>();
  LocalTensor<float> o = ub.Alloc<float, 224>();
  DataCopy(in, gx, 128);
  DataCopy(o, gout, 224);
  LocalTensor<float> sum = o[128], max = o[160], exp_max = o[192];
  SoftmaxFlash<float>(o, sum, max, in, exp_max, sum, max, t, false);
  SoftmaxFlash<float>(o[64], sum, max, in[64], exp_max, sum, max, t, true);
  DataCopy(gout, o, 224);
}

NPUD_KERNEL_REGISTER(softmax_flash);

// Advanced APIs of issue 44 (softmax_grad.h, layer_norm_grad.h, anti_quant.h, dropout.h,
// pad.h), each on a small tensor copied in from GM and back.
#include "kernel_operator.h"

using namespace AscendC;

// SoftmaxGrad of 4 rows of 16 floats (the sum over the first 12 columns) written over
// src, as the asc-devkit example does, into out; SoftmaxGradFront of the same rows
// into front (one 8-float block a row).
extern "C" __global__ __aicore__ void softmax_grad(__gm__ float* grad, __gm__ float* src,
                                                   __gm__ float* out, __gm__ float* front) {
  GlobalTensor<float> ggrad, gsrc, gout, gfront;
  ggrad.SetGlobalBuffer(grad);
  gsrc.SetGlobalBuffer(src);
  gout.SetGlobalBuffer(out);
  gfront.SetGlobalBuffer(front);
  LocalMemAllocator<Hardware::UB> ub;
  LocalTensor<float> g = ub.Alloc<float, 64>();
  LocalTensor<float> x = ub.Alloc<float, 64>();
  LocalTensor<float> f = ub.Alloc<float, 32>();
  LocalTensor<uint8_t> tmp = ub.Alloc<uint8_t, 512>();
  DataCopy(g, ggrad, 64);
  DataCopy(x, gsrc, 64);
  SoftMaxTiling tiling;
  SoftMaxShapeInfo shape{4, 16, 4, 12};
  SoftmaxGradFront<float>(f, g, x, tmp, tiling, shape);
  SoftmaxGrad<float, false>(x, g, x, tmp, tiling, false, shape);
  DataCopy(gout, x, 64);
  DataCopy(gfront, f, 32);
}

NPUD_KERNEL_REGISTER(softmax_grad);

// LayerNormGrad and LayerNormGradBeta of 2 x 2 rows of 8 floats: io holds x (32), dy
// (32), mean (8, the first 4 used), variance (8), gamma (8); out gets pdX (32),
// resForGamma (32), pdGamma (8) and pdBeta (8).
extern "C" __global__ __aicore__ void layer_norm_grad(__gm__ float* io, __gm__ float* out) {
  GlobalTensor<float> gio, gout;
  gio.SetGlobalBuffer(io);
  gout.SetGlobalBuffer(out);
  LocalMemAllocator<Hardware::UB> ub;
  LocalTensor<float> in = ub.Alloc<float, 88>();
  LocalTensor<float> o = ub.Alloc<float, 80>();
  DataCopy(in, gio, 88);
  LayerNormGradTiling tiling;
  tiling.bLength = 2;
  tiling.sLength = 2;
  tiling.hLength = 8;
  LayerNormGradBetaTiling beta_tiling;
  beta_tiling.bLength = 2;
  beta_tiling.sLength = 2;
  beta_tiling.hLength = 8;
  LocalTensor<float> pdx = o, res = o[32], pd_gamma = o[64], pd_beta = o[72];
  LayerNormGrad<float, false>(pdx, res, in[32], in, in[72], in[64], in[80], 0.01f, tiling);
  LayerNormGradBeta<float, false>(pd_gamma, pd_beta, res, in[32], beta_tiling);
  DataCopy(gout, o, 80);
}

NPUD_KERNEL_REGISTER(layer_norm_grad);

// AscendAntiQuant of int8 [4, 32] into half: out rows 0-3 per channel with offset and
// scale [2, 32] (groups of 2 rows, the shape from SetShapeInfo); rows 4-7 with scalars
// offset 1.5 and scale -0.25; rows 8-11 transposed ([32, 4] with scale [32, 2], no
// offset; params holds the 64 scales after offset and scale).
extern "C" __global__ __aicore__ void anti_quant(__gm__ int8_t* src, __gm__ half* params,
                                                 __gm__ half* out) {
  GlobalTensor<int8_t> gsrc;
  GlobalTensor<half> gparams, gout;
  gsrc.SetGlobalBuffer(src);
  gparams.SetGlobalBuffer(params);
  gout.SetGlobalBuffer(out);
  LocalMemAllocator<Hardware::UB> ub;
  LocalTensor<int8_t> x = ub.Alloc<int8_t, 128>();
  LocalTensor<half> p = ub.Alloc<half, 192>();
  LocalTensor<half> y = ub.Alloc<half, 384>();
  LocalTensor<uint8_t> tmp = ub.Alloc<uint8_t, 512>();
  DataCopy(x, gsrc, 128);
  DataCopy(p, gparams, 192);
  LocalTensor<half> offset = p, scale = p[64], tscale = p[128];
  const uint32_t shape[] = {2, 32};
  offset.SetShapeInfo(ShapeInfo(2, shape, DataFormat::ND));
  scale.SetShapeInfo(ShapeInfo(2, shape, DataFormat::ND));
  AscendAntiQuant<int8_t, half, false>(y, x, offset, scale, tmp, 4);
  LocalTensor<half> row = y[128];
  AscendAntiQuant<int8_t, half, false>(row, x, half(1.5f), half(-0.25f), tmp, 4);
  row = y[256];
  AntiQuantShapeInfo info{0, 0, 32, 2};
  AscendAntiQuant<int8_t, half, true>(row, x, tscale, 4, info);
  DataCopy(gout, y, 384);
}

NPUD_KERNEL_REGISTER(anti_quant);

// DropOut of [2, 32] floats, keepProb 0.8: out rows 0-1 with a bit mask of rows of
// 8 bytes (4 used, mode inferred; masks[0..16)), rows 2-3 with a byte mask (mode 2;
// masks[32..96)), rows 4-5 with a back-to-back bit mask (mode 3; masks[96..104)).
extern "C" __global__ __aicore__ void dropout(__gm__ float* src, __gm__ uint8_t* masks,
                                              __gm__ float* out) {
  GlobalTensor<float> gsrc, gout;
  GlobalTensor<uint8_t> gmask;
  gsrc.SetGlobalBuffer(src);
  gmask.SetGlobalBuffer(masks);
  gout.SetGlobalBuffer(out);
  LocalMemAllocator<Hardware::UB> ub;
  LocalTensor<float> x = ub.Alloc<float, 64>();
  LocalTensor<uint8_t> m = ub.Alloc<uint8_t, 128>();
  LocalTensor<float> y = ub.Alloc<float, 192>();
  LocalTensor<uint8_t> tmp = ub.Alloc<uint8_t, 256>();
  DataCopy(x, gsrc, 64);
  DataCopy(m, gmask, 128);
  DropOutShapeInfo info;
  info.firstAxis = 2;
  info.srcLastAxis = 32;
  info.maskLastAxis = 8;
  DropOut(y, x, m, tmp, 0.8f, info);
  info.maskLastAxis = 32;
  LocalTensor<float> row = y[64];
  DropOut<float, false, 2>(row, x, m[32], 0.8f, info);
  info.maskLastAxis = 4;
  row = y[128];
  DropOut<float, false, 3>(row, x, m[96], 0.8f, info);
  DataCopy(gout, y, 192);
}

NPUD_KERNEL_REGISTER(dropout);

// Pad of [4, 7] floats (back to back) to rows of 8 with 1 on the left and -1 as the
// value, into out[0..32); Pad of aligned [4, 8] rows whose last 3 columns are padding
// (oriWidth 5) with 9 into out[32..64); UnPad of [4, 8] by 3 columns into out[64..84).
extern "C" __global__ __aicore__ void pad_unpad(__gm__ float* src, __gm__ float* out) {
  GlobalTensor<float> gsrc, gout;
  gsrc.SetGlobalBuffer(src);
  gout.SetGlobalBuffer(out);
  LocalMemAllocator<Hardware::UB> ub;
  LocalTensor<float> x = ub.Alloc<float, 32>();
  LocalTensor<float> y = ub.Alloc<float, 88>();
  DataCopy(x, gsrc, 32);
  Duplicate(y, 0.0f, 88);
  PadTiling pad_tiling;
  pad_tiling.srcHeight = 4;
  pad_tiling.srcWidth = 7;
  PadParams pad{1, 0, -1};
  Pad(y, x, pad, pad_tiling);
  pad_tiling.srcWidth = 8;
  pad_tiling.srcOriWidth = 5;
  PadParams fill{0, 3, 9};
  LocalTensor<float> part = y[32];
  Pad(part, x, fill, pad_tiling);
  UnPadTiling unpad_tiling;
  unpad_tiling.srcHeight = 4;
  unpad_tiling.srcWidth = 8;
  UnPadParams cut{0, 3};
  part = y[64];
  UnPad(part, x, cut, unpad_tiling);
  DataCopy(gout, y, 88);
}

NPUD_KERNEL_REGISTER(pad_unpad);

// LogSoftMax of 2 rows of 16 floats into out[0..32), its sums and maxima (one 8-float
// block a row) into out[32..48) and out[48..64); SoftmaxFlashV2 of the same rows, first
// without update into out[64..96) (sums, maxima at out[96..112), out[112..128)), then
// with update from those into out[128..160) (expMax at out[160..176)).
extern "C" __global__ __aicore__ void softmax_variants(__gm__ float* src, __gm__ float* out) {
  GlobalTensor<float> gsrc, gout;
  gsrc.SetGlobalBuffer(src);
  gout.SetGlobalBuffer(out);
  LocalMemAllocator<Hardware::UB> ub;
  LocalTensor<float> x = ub.Alloc<float, 32>();
  LocalTensor<float> o = ub.Alloc<float, 176>();
  LocalTensor<uint8_t> tmp = ub.Alloc<uint8_t, 512>();
  DataCopy(x, gsrc, 32);
  Duplicate(o, 0.0f, 176);
  SoftMaxShapeInfo shape{2, 16, 2, 16};
  LogSoftMaxTiling log_tiling;
  LocalTensor<float> y = o, sum = o[32], max = o[48];
  LogSoftMax<float, false, false>(y, sum, max, x, tmp, log_tiling, shape);
  SoftMaxTiling tiling;
  LocalTensor<float> fy = o[64], fsum = o[96], fmax = o[112], uy = o[128], exp_max = o[160];
  SoftmaxFlashV2<float, false>(fy, fsum, fmax, x, exp_max, fsum, fmax, tmp, tiling, shape);
  SoftmaxFlashV2<float, true>(uy, fsum, fmax, x, exp_max, fsum, fmax, tiling, shape);
  DataCopy(gout, o, 176);
}

NPUD_KERNEL_REGISTER(softmax_variants);

// DeepNorm of 2 rows of 8 (x, gx in io[0..16), io[16..32), gamma io[32..40), beta
// io[40..48)), alpha 0.5, epsilon 0.25: out[0..16) with mean out[16..18) and
// variance out[24..26); WelfordUpdate of 1 row of 16 (12 computed) with x io[0..16),
// mean io[16..32), M io[32..48), nRec 0.25 into out[32..48), out[48..64); then
// WelfordFinalize of the first 8 of those with counts 1..8 (rRec 1/36) into out[64],
// out[72], and without counts (abRec 1/8, rRec 1/16, rnLength 2) into out[80], out[88].
extern "C" __global__ __aicore__ void norm_variants(__gm__ float* io, __gm__ float* out) {
  GlobalTensor<float> gio, gout;
  gio.SetGlobalBuffer(io);
  gout.SetGlobalBuffer(out);
  LocalMemAllocator<Hardware::UB> ub;
  LocalTensor<float> in = ub.Alloc<float, 48>();
  LocalTensor<float> o = ub.Alloc<float, 96>();
  LocalTensor<int32_t> counts = ub.Alloc<int32_t, 8>();
  DataCopy(in, gio, 48);
  Duplicate(o, 0.0f, 96);
  DeepNormTiling tiling;
  tiling.bLength = 1;
  tiling.sLength = 2;
  tiling.hLength = 8;
  LocalTensor<float> mean = o[16], var = o[24];
  DeepNorm<float>(o, mean, var, in, in[16], in[40], in[32], 0.5f, 0.25f, tiling);
  WelfordUpdateParam update{1, 16, 12, 0.25f};
  LocalTensor<float> wmean = o[32], wvar = o[48];
  WelfordUpdate<float, float>(wmean, wvar, in[16], in[32], in, update);
  for (int32_t i = 0; i < 8; ++i) counts.SetValue(i, i + 1);
  WelfordFinalizePara with_counts{1, 8, 0, 0, 0, 0, 0.125f, 1.0f / 36, 0};
  LocalTensor<float> fmean = o[64], fvar = o[72];
  WelfordFinalize(fmean, fvar, wmean, wvar, counts, with_counts);
  WelfordFinalizePara plain{2, 8, 0, 0, 0, 0, 0.125f, 1.0f / 16, 0};
  fmean = o[80];
  fvar = o[88];
  WelfordFinalize(fmean, fvar, wmean, wvar, plain);
  DataCopy(gout, o, 96);
}

NPUD_KERNEL_REGISTER(norm_variants);

// AscendQuant of 64 floats with scale 2, offset 0.9 into q[0..64) and per channel
// (scale = the first 16 of params, offset = the next 16) into q[64..128); AscendDequant
// of [4, 16] int32 by the first 16 of params into deq (rows of 16), and of the same as
// one single row {1, 64, 16} into deq[64..128).
extern "C" __global__ __aicore__ void quant_dequant(__gm__ float* src, __gm__ float* params,
                                                    __gm__ int32_t* ints, __gm__ int8_t* q,
                                                    __gm__ float* deq) {
  GlobalTensor<float> gsrc, gparams, gdeq;
  GlobalTensor<int32_t> gints;
  GlobalTensor<int8_t> gq;
  gsrc.SetGlobalBuffer(src);
  gparams.SetGlobalBuffer(params);
  gints.SetGlobalBuffer(ints);
  gq.SetGlobalBuffer(q);
  gdeq.SetGlobalBuffer(deq);
  LocalMemAllocator<Hardware::UB> ub;
  LocalTensor<float> x = ub.Alloc<float, 64>();
  LocalTensor<float> p = ub.Alloc<float, 32>();
  LocalTensor<int32_t> n = ub.Alloc<int32_t, 64>();
  LocalTensor<int8_t> y = ub.Alloc<int8_t, 128>();
  LocalTensor<float> d = ub.Alloc<float, 128>();
  DataCopy(x, gsrc, 64);
  DataCopy(p, gparams, 32);
  DataCopy(n, gints, 64);
  AscendQuant<float>(y, x, 2.0f, 0.9f, 64);
  LocalTensor<int8_t> part = y[64];
  AscendQuant<float>(part, x, p, p[16], 16, 16, 64);
  AscendDequant(d, n, p, DequantParams{4, 16, 16});
  LocalTensor<float> row = d[64];
  AscendDequant(row, n, p, DequantParams{1, 64, 16});
  DataCopy(gq, y, 128);
  DataCopy(gdeq, d, 128);
}

NPUD_KERNEL_REGISTER(quant_dequant);

// ReduceMax (AR) of [4, 12] (rows padded to 16) into out[0..4), ReduceSum (RA) of the
// same [4, 12] into out[8..20), ReduceMin (AR) into out[24..28); Select of [2, 16]
// by a byte mask of rows of 32 (tensor where 0, 7.5 elsewhere) into out[32..64) and the
// scalar-first form into out[64..96); Broadcast of [1, 8] to [4, 8] into out[96..128)
// and of [4, 1] to [4, 8] into out[128..160).
extern "C" __global__ __aicore__ void reduce_select_broadcast(__gm__ float* src,
                                                              __gm__ uint8_t* mask,
                                                              __gm__ float* out) {
  GlobalTensor<float> gsrc, gout;
  GlobalTensor<uint8_t> gmask;
  gsrc.SetGlobalBuffer(src);
  gmask.SetGlobalBuffer(mask);
  gout.SetGlobalBuffer(out);
  LocalMemAllocator<Hardware::UB> ub;
  LocalTensor<float> x = ub.Alloc<float, 64>();
  LocalTensor<uint8_t> m = ub.Alloc<uint8_t, 64>();
  LocalTensor<float> o = ub.Alloc<float, 160>();
  LocalTensor<uint8_t> tmp = ub.Alloc<uint8_t, 256>();
  DataCopy(x, gsrc, 64);
  DataCopy(m, gmask, 64);
  Duplicate(o, 0.0f, 160);
  const uint32_t shape[2] = {4, 12};
  ReduceMax<float, Pattern::Reduce::AR>(o, x, tmp, shape, true);
  LocalTensor<float> part = o[8];
  ReduceSum<float, Pattern::Reduce::RA, true>(part, x, shape, true);
  part = o[24];
  ReduceMin<float, Pattern::Reduce::AR>(part, x, shape, true);
  SelectWithBytesMaskShapeInfo info;
  info.firstAxis = 2;
  info.srcLastAxis = 16;
  info.maskLastAxis = 32;
  part = o[32];
  Select(part, x, 7.5f, m, tmp, info);
  part = o[64];
  Select(part, 7.5f, x, m, tmp, info);
  const uint32_t row_src[2] = {1, 8}, col_src[2] = {4, 1}, dst_shape[2] = {4, 8};
  part = o[96];
  Broadcast<float, 2, 0>(part, x, dst_shape, row_src);
  part = o[128];
  Broadcast<float, 2, 1>(part, x, dst_shape, col_src, tmp);
  DataCopy(gout, o, 160);
}

NPUD_KERNEL_REGISTER(reduce_select_broadcast);

// Sort (full) of 64 floats with indices into values[0..64) and indices[0..64) through
// Concat and Extract, and the per-32 form into values[64..128), indices[64..128); TopK
// of [2, 32] (k 3, the 3 smallest, row 1 finished) into values[128..136),
// values[136..144) and indices[128..136), indices[136..144); and the 3 largest with
// initial indices (100 + position) into values[144..160), indices[144..160).
extern "C" __global__ __aicore__ void sort_topk(__gm__ float* src, __gm__ uint8_t* finish,
                                                __gm__ float* values, __gm__ int32_t* indices) {
  GlobalTensor<float> gsrc, gvalues;
  GlobalTensor<int32_t> gindices;
  GlobalTensor<bool> gfinish;
  gsrc.SetGlobalBuffer(src);
  gfinish.SetGlobalBuffer(reinterpret_cast<__gm__ bool*>(finish));
  gvalues.SetGlobalBuffer(values);
  gindices.SetGlobalBuffer(indices);
  LocalMemAllocator<Hardware::UB> ub;
  LocalTensor<float> x = ub.Alloc<float, 64>();
  LocalTensor<uint32_t> idx = ub.Alloc<uint32_t, 64>();
  LocalTensor<float> sorted = ub.Alloc<float, 128>();
  LocalTensor<float> tmp = ub.Alloc<float, 128>();
  LocalTensor<float> v = ub.Alloc<float, 160>();
  LocalTensor<uint32_t> vi = ub.Alloc<uint32_t, 160>();
  LocalTensor<bool> done = ub.Alloc<bool, 32>();
  LocalTensor<int32_t> init = ub.Alloc<int32_t, 32>();
  DataCopy(x, gsrc, 64);
  DataCopy(done, gfinish, 32);
  Duplicate(v, 0.0f, 160);
  for (int32_t i = 0; i < 64; ++i) idx.SetValue(i, static_cast<uint32_t>(i));
  for (int32_t i = 0; i < 32; ++i) init.SetValue(i, 100 + i);
  LocalTensor<float> concat;
  Concat(concat, x, tmp, 4);
  Sort<float, true>(sorted, concat, idx, tmp, 2);
  Extract(v, vi, sorted, 2);
  Sort<float, false>(sorted, concat, idx, tmp, 2);
  LocalTensor<float> vpart = v[64];
  LocalTensor<uint32_t> ipart = vi[64];
  Extract(vpart, ipart, sorted, 2);
  LocalTensor<int32_t> topi = vi[128].ReinterpretCast<int32_t>();
  Duplicate(topi, 0, 32);
  TopkTiling tiling;
  TopKInfo info;
  info.outter = 2;
  info.inner = 32;
  info.n = 32;
  vpart = v[128];
  TopK<float, false, true>(vpart, topi, x, init, done, 3, tiling, info, false);
  vpart = v[144];
  LocalTensor<int32_t> largest = topi[16];
  info.outter = 1;
  TopK<float, true, false>(vpart, largest, x, init, done, 3, tiling, info, true);
  DataCopy(gvalues, v, 160);
  DataCopy(gindices, vi.ReinterpretCast<int32_t>(), 160);
}

NPUD_KERNEL_REGISTER(sort_topk);

// The advanced Transpose of half [1, 2, 32, 16] from NZ to ND [1, 32, 2, 16] into
// out[0..1024), to NZ into out[1024..2048) ([1, 32, 2, 16] is not whole NZ fractals
// along A1 = 2, so that form transposes [1, 16, 32, 16] instead), and ND2ND_ONLY of
// [16, 64] into out[2048..3072).
extern "C" __global__ __aicore__ void confusion_transpose(__gm__ half* src, __gm__ half* out) {
  GlobalTensor<half> gsrc, gout;
  gsrc.SetGlobalBuffer(src);
  gout.SetGlobalBuffer(out);
  LocalMemAllocator<Hardware::UB> ub;
  LocalTensor<half> x = ub.Alloc<half, 8192>();
  LocalTensor<half> o = ub.Alloc<half, 3072>();
  DataCopy(x, gsrc, 8192);
  ConfusionTransposeTiling tiling;
  tiling.param0 = 1;
  tiling.param1 = 2;
  tiling.param2 = 32;
  tiling.param3 = 16;
  Transpose(o, x, TransposeType::TRANSPOSE_NZ2ND_0213, tiling);
  tiling.param1 = 16;
  LocalTensor<half> part = o[1024];
  LocalTensor<half> big = ub.Alloc<half, 8192>();
  Transpose(big, x, TransposeType::TRANSPOSE_NZ2NZ_0213, tiling);
  DataCopy(part, big, 1024);
  tiling.param0 = 16;
  tiling.param1 = 64;
  part = o[2048];
  Transpose(part, x, TransposeType::TRANSPOSE_ND2ND_ONLY, tiling);
  DataCopy(gout, o, 3072);
}

NPUD_KERNEL_REGISTER(confusion_transpose);

namespace {
constexpr TransDataConfig kToFractal = {DataFormat::NCDHW, DataFormat::FRACTAL_Z_3D};
constexpr TransDataConfig kFromFractal = {DataFormat::FRACTAL_Z_3D, DataFormat::NCDHW};
constexpr TransDataConfig kToNdc1hwc0 = {DataFormat::NCDHW, DataFormat::NDC1HWC0};
constexpr TransDataConfig kFromNdc1hwc0 = {DataFormat::NDC1HWC0, DataFormat::NCDHW};
}  // namespace

// TransData of half NCDHW [18, 20, 1, 3, 5] (rows of H*W = 15 padded to 16 in src)
// to FRACTAL_Z_3D (N and C padded to 32) into fractal, back into round (rows of 16,
// pre-filled with -1), to NDC1HWC0 into packed and back into round2.
extern "C" __global__ __aicore__ void trans_data(__gm__ half* src, __gm__ half* fractal,
                                                 __gm__ half* round, __gm__ half* packed,
                                                 __gm__ half* round2) {
  constexpr int32_t n = 18, c = 20, d = 1, h = 3, w = 5, n1 = 2, c1 = 2, k0 = 16;
  constexpr uint32_t kPlain = n * c * d * 16, kFractal = d * c1 * h * w * n1 * k0 * k0,
                     kPacked = n * d * c1 * h * w * k0;
  GlobalTensor<half> gsrc, gfractal, ground, gpacked, ground2;
  gsrc.SetGlobalBuffer(src);
  gfractal.SetGlobalBuffer(fractal);
  ground.SetGlobalBuffer(round);
  gpacked.SetGlobalBuffer(packed);
  ground2.SetGlobalBuffer(round2);
  LocalMemAllocator<Hardware::UB> ub;
  LocalTensor<half> x = ub.Alloc<half, kPlain>();
  LocalTensor<half> f = ub.Alloc<half, kFractal>();
  LocalTensor<half> p = ub.Alloc<half, kPacked>();
  LocalTensor<half> back = ub.Alloc<half, kPlain>();
  DataCopy(x, gsrc, kPlain);
  Layout ncdhw = MakeLayout(MakeShape(n, c, d, h, w), MakeStride());
  Layout fz = MakeLayout(MakeShape(d, c1, h, w, n1, k0, k0), MakeStride());
  Layout ndc = MakeLayout(MakeShape(n, d, c1, h, w, k0), MakeStride());
  TransData<kToFractal>(f, x, TransDataParams<decltype(ncdhw), decltype(fz)>{ncdhw, fz});
  DataCopy(gfractal, f, kFractal);
  Duplicate(back, half(-1.0f), kPlain);
  TransData<kFromFractal>(back, f, TransDataParams<decltype(fz), decltype(ncdhw)>{fz, ncdhw});
  DataCopy(ground, back, kPlain);
  TransData<kToNdc1hwc0>(p, x, TransDataParams<decltype(ncdhw), decltype(ndc)>{ncdhw, ndc});
  DataCopy(gpacked, p, kPacked);
  Duplicate(back, half(-1.0f), kPlain);
  TransData<kFromNdc1hwc0>(back, p, TransDataParams<decltype(ndc), decltype(ncdhw)>{ndc, ncdhw});
  DataCopy(ground2, back, kPlain);
}

NPUD_KERNEL_REGISTER(trans_data);

// LayerNorm's rstd form over [4, 8] rows 16 apart (epsilon 0.5, gamma io[64..72), beta
// io[72..80)) into out[0..64), mean out[64..68), rstd out[72..76); Normalize of the
// same rows from mean 1 and variance 4 (every row) without beta into out[80..144),
// rstd out[144..148). out[148] = min(3u, 9u), out[149] = max(-2.5f, 1.5f).
extern "C" __global__ __aicore__ void rstd_norms(__gm__ float* io, __gm__ float* out) {
  GlobalTensor<float> gio, gout;
  gio.SetGlobalBuffer(io);
  gout.SetGlobalBuffer(out);
  LocalMemAllocator<Hardware::UB> ub;
  LocalTensor<float> in = ub.Alloc<float, 80>();
  LocalTensor<float> o = ub.Alloc<float, 152>();
  LocalTensor<float> stats = ub.Alloc<float, 16>();
  DataCopy(in, gio, 80);
  Duplicate(o, -7.0f, 152);
  static constexpr LayerNormConfig kRstd{false, false, false, true};
  LayerNormSeparateTiling tiling;
  LocalTensor<float> mean = o[64], rstd = o[72];
  LayerNorm<float, float, false, kRstd>(o, mean, rstd, in, in[64], in[72], 0.5f,
                                         LayerNormPara{4, 8, 16}, tiling);
  Duplicate(stats, 1.0f, 8);
  LocalTensor<float> var = stats[8];
  Duplicate(var, 4.0f, 8);
  static constexpr NormalizeConfig kNoBeta{ReducePattern::AR, -1, true, false, false};
  LocalTensor<float> y = o[80], nrstd = o[144];
  Normalize<float, float, false, kNoBeta>(y, nrstd, stats, var, in, in[64], in[72], 0.5f,
                                           NormalizePara{4, 8, 16});
  AscendCUtils::SetOverflow(1);
  o.SetValue(148, static_cast<float>(min(3u, 9u)));
  o.SetValue(149, max(-2.5f, 1.5f));
  AscendCUtils::SetOverflow(0);
  DataCopy(gout, o, 152);
}

NPUD_KERNEL_REGISTER(rstd_norms);

// SoftmaxFlashV3 of 2 rows of 1024 half (alpha 0.75, loopCnt 3) with update from
// inMean 0.5, inExpSum 2, inMax 1 into dst; mean, expSum, max (8 floats a row) and
// expMax (16 halves a row, the first 8 of each) into stats[0..16), [16..32), [32..48),
// [48..64) as floats.
extern "C" __global__ __aicore__ void softmax_flash_v3(__gm__ half* src, __gm__ half* dst,
                                                       __gm__ float* stats) {
  GlobalTensor<half> gsrc, gdst;
  GlobalTensor<float> gstats;
  gsrc.SetGlobalBuffer(src);
  gdst.SetGlobalBuffer(dst);
  gstats.SetGlobalBuffer(stats);
  LocalMemAllocator<Hardware::UB> ub;
  LocalTensor<half> x = ub.Alloc<half, 2048>();
  LocalTensor<half> y = ub.Alloc<half, 2048>();
  LocalTensor<float> s = ub.Alloc<float, 64>();
  LocalTensor<float> in = ub.Alloc<float, 48>();
  LocalTensor<half> exp_max = ub.Alloc<half, 32>();
  DataCopy(x, gsrc, 2048);
  LocalTensor<float> in_mean = in, in_sum = in[16], in_max = in[32];
  Duplicate(in_mean, 0.5f, 16);
  Duplicate(in_sum, 2.0f, 16);
  Duplicate(in_max, 1.0f, 16);
  SoftMaxTiling tiling;
  SoftMaxParams params{2, 1024, 2, 1024, 3, 8, 0.75f};
  LocalTensor<float> mean = s, sum = s[16], max = s[32];
  SoftmaxFlashV3<half, float, true>(y, mean, sum, max, x, exp_max, in_mean, in_sum, in_max,
                                    tiling, params);
  for (int32_t i = 0; i < 16; ++i) {
    s.SetValue(48 + i, static_cast<float>(exp_max.GetValue((i / 8) * 16 + i % 8)));
  }
  DataCopy(gdst, y, 2048);
  DataCopy(gstats, s, 64);
}

NPUD_KERNEL_REGISTER(softmax_flash_v3);

// Brcb, CreateVecIndex, GatherMask, Gatherb, Sort32 + MrgSort, SetPadValue and the
// comparison mask register, through the UB.
#include "kernel_operator.h"

using namespace AscendC;

// out[0..128): Brcb of src[0..16) (each value fills a block of 8 floats);
// out[128..192): CreateVecIndex from 10; out[192..): the odd elements of src[0..64)
// (GatherMask pattern 2) and count[0] their number.
extern "C" __global__ __aicore__ void fill_and_gather(__gm__ float* src, __gm__ float* out,
                                                      __gm__ uint32_t* count) {
  GlobalTensor<float> gsrc, gout;
  GlobalTensor<uint32_t> gcount;
  gsrc.SetGlobalBuffer(src);
  gout.SetGlobalBuffer(out);
  gcount.SetGlobalBuffer(count);
  LocalMemAllocator<Hardware::UB> ub;
  LocalTensor<float> lsrc = ub.Alloc<float, 64>();
  LocalTensor<float> lout = ub.Alloc<float, 256>();
  LocalTensor<int32_t> index = ub.Alloc<int32_t, 64>();
  DataCopy(lsrc, gsrc, 64);
  Brcb(lout, lsrc, 2, {1, 8});
  CreateVecIndex(index, int32_t{10}, 64);
  Cast(lout[128], index, RoundMode::CAST_NONE, 64);
  uint64_t kept = 0;
  LocalTensor<float> gathered = lout[192];
  GatherMask(gathered, lsrc, uint8_t{2}, false, 0, {1, 1, 8, 0}, kept);
  DataCopy(gout, lout, 256);
  gcount.SetValue(0, static_cast<uint32_t>(kept));
}

// Sort32 of 128 scores in 4 repeats, then MrgSort of the 4 queues into out (128
// pairs of [score, index bits]).
extern "C" __global__ __aicore__ void sort_and_merge(__gm__ float* scores, __gm__ float* out) {
  GlobalTensor<float> gscores, gout;
  gscores.SetGlobalBuffer(scores);
  gout.SetGlobalBuffer(out);
  LocalMemAllocator<Hardware::UB> ub;
  LocalTensor<float> lscores = ub.Alloc<float, 128>();
  LocalTensor<uint32_t> lindex = ub.Alloc<uint32_t, 128>();
  LocalTensor<float> sorted = ub.Alloc<float, 256>();
  LocalTensor<float> merged = ub.Alloc<float, 256>();
  DataCopy(lscores, gscores, 128);
  CreateVecIndex(lindex.ReinterpretCast<int32_t>(), int32_t{0}, 128);
  Sort32(sorted, lscores, lindex, 4);
  MrgSort4Info info;
  for (int q = 0; q < 4; ++q) info.elementLengths[q] = 32;
  info.validBit = 0b1111;
  MrgSort(merged, MrgSortSrcList<float>(sorted[0], sorted[64], sorted[128], sorted[192]), info);
  DataCopy(gout, merged, 256);
}

// DataCopyPad of 5 floats with 3 elements of right padding: SetPadValue's 7.5 without
// isPad; then the register compare of a < b over 64 lanes, its 16 bytes into mask.
extern "C" __global__ __aicore__ void pad_and_cmpmask(__gm__ float* a, __gm__ float* b,
                                                      __gm__ float* padded,
                                                      __gm__ uint64_t* mask) {
  GlobalTensor<float> ga, gb, gpadded;
  GlobalTensor<uint64_t> gmask;
  ga.SetGlobalBuffer(a);
  gb.SetGlobalBuffer(b);
  gpadded.SetGlobalBuffer(padded);
  gmask.SetGlobalBuffer(mask);
  LocalMemAllocator<Hardware::UB> ub;
  LocalTensor<float> la = ub.Alloc<float, 64>();
  LocalTensor<float> lb = ub.Alloc<float, 64>();
  LocalTensor<float> lpad = ub.Alloc<float, 8>();
  LocalTensor<uint64_t> lmask = ub.Alloc<uint64_t, 4>();
  DataCopy(la, ga, 64);
  DataCopy(lb, gb, 64);
  Duplicate(lpad, 0.0f, 8);
  SetPadValue(7.5f);
  DataCopyExtParams copy{1, 5 * sizeof(float), 0, 0, 0};
  DataCopyPadExtParams<float> pad{false, 0, 3, 0.0f};
  DataCopyPad(lpad, ga, copy, pad);
  DataCopy(gpadded, lpad, 8);
  Compare(la, lb, CMPMODE::LT, 64, {1, 1, 1, 8, 8, 8});
  GetCmpMask(lmask);
  gmask.SetValue(0, lmask.GetValue(0));
  gmask.SetValue(1, lmask.GetValue(1));
}

NPUD_KERNEL_REGISTER(fill_and_gather);
NPUD_KERNEL_REGISTER(sort_and_merge);
NPUD_KERNEL_REGISTER(pad_and_cmpmask);

// NCHW -> NHWC of a [2, 3, 4, 8] float tensor into out; back to NCHW into back;
// the 16 x 16 transpose in place; TransDataTo5HD of 16 half blocks (two repeats,
// the second 16 blocks further on) into five_hd.
extern "C" __global__ __aicore__ void transposes(__gm__ float* src, __gm__ float* out,
                                                 __gm__ float* back, __gm__ half* square,
                                                 __gm__ half* planes, __gm__ half* five_hd) {
  GlobalTensor<float> gsrc, gout, gback;
  GlobalTensor<half> gsquare, gplanes, gfive;
  gsrc.SetGlobalBuffer(src);
  gout.SetGlobalBuffer(out);
  gback.SetGlobalBuffer(back);
  gsquare.SetGlobalBuffer(square);
  gplanes.SetGlobalBuffer(planes);
  gfive.SetGlobalBuffer(five_hd);
  LocalMemAllocator<Hardware::UB> ub;
  LocalTensor<float> x = ub.Alloc<float, 192>(), y = ub.Alloc<float, 192>();
  LocalTensor<float> z = ub.Alloc<float, 192>();
  LocalTensor<half> sq = ub.Alloc<half, 256>();
  LocalTensor<half> pl = ub.Alloc<half, 512>(), fh = ub.Alloc<half, 512>();
  LocalTensor<uint8_t> tmp = ub.Alloc<uint8_t, 1024>();
  DataCopy(x, gsrc, 192);
  DataCopy(sq, gsquare, 256);
  DataCopy(pl, gplanes, 512);
  Transpose(y, x, tmp, TransposeParamsExt(2, 3, 4, 8, TransposeType::TRANSPOSE_NCHW2NHWC));
  Transpose(z, y, tmp, TransposeParamsExt(2, 3, 4, 8, TransposeType::TRANSPOSE_NHWC2NCHW));
  Transpose(sq, sq);
  // 16 planes of 32 halves; block i of repeat k of the result = column i of the
  // planes' k-th blocks.
  uint64_t dst_list[16], src_list[16];
  for (int i = 0; i < 16; ++i) {
    dst_list[i] = fh[i * 16].GetPhyAddr();
    src_list[i] = pl[i * 32].GetPhyAddr();
  }
  TransDataTo5HD<half>(dst_list, src_list, TransDataTo5HDParams(false, false, 2, 16, 1));
  DataCopy(gout, y, 192);
  DataCopy(gback, z, 192);
  DataCopy(gsquare, sq, 256);
  DataCopy(gfive, fh, 512);
}

NPUD_KERNEL_REGISTER(transposes);

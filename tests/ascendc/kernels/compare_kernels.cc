// Compare, Compares and Select (npud_ascendc/compare_select.h) through the UB:
// masks of a comparison, then a selection by them.
#include "kernel_operator.h"

using namespace AscendC;

namespace {

constexpr uint32_t kCount = 128;  // floats: two whole 256-byte blocks

}  // namespace

// mask = (a < b) bit by bit; out = mask ? a : b (the elementwise minimum), and
// scalar_out = (a >= 0) ? a : -1.
extern "C" __global__ __aicore__ void compare_select(__gm__ float* a, __gm__ float* b,
                                                     __gm__ uint8_t* mask_out, __gm__ float* out,
                                                     __gm__ float* scalar_out, uint32_t count) {
  GlobalTensor<float> ga, gb, gout, gscalar;
  GlobalTensor<uint8_t> gmask;
  ga.SetGlobalBuffer(a);
  gb.SetGlobalBuffer(b);
  gout.SetGlobalBuffer(out);
  gscalar.SetGlobalBuffer(scalar_out);
  gmask.SetGlobalBuffer(mask_out);
  LocalMemAllocator<Hardware::UB> ub;
  LocalTensor<float> la = ub.Alloc<float, kCount>();
  LocalTensor<float> lb = ub.Alloc<float, kCount>();
  LocalTensor<float> lout = ub.Alloc<float, kCount>();
  LocalTensor<uint8_t> lmask = ub.Alloc<uint8_t, 32>();
  DataCopy(la, ga, kCount);
  DataCopy(lb, gb, kCount);
  Duplicate(lmask.ReinterpretCast<uint32_t>(), 0u, 8);
  Compare(lmask, la, lb, CMPMODE::LT, count);
  for (uint32_t i = 0; i < kCount / 8; ++i) gmask.SetValue(i, lmask.GetValue(i));
  Select(lout, lmask, la, lb, SELMODE::VSEL_TENSOR_TENSOR_MODE, kCount);
  DataCopy(gout, lout, kCount);
  Compares(lmask, la, 0.0f, CMPMODE::GE, kCount);
  Select(lout, lmask, la, -1.0f, SELMODE::VSEL_TENSOR_SCALAR_MODE, kCount);
  DataCopy(gscalar, lout, kCount);
}

// int32_t compares with EQ only.
extern "C" __global__ __aicore__ void compare_int_lt() {
  LocalMemAllocator<Hardware::UB> ub;
  LocalTensor<int32_t> x = ub.Alloc<int32_t, 64>();
  LocalTensor<uint8_t> mask = ub.Alloc<uint8_t, 32>();
  Compare(mask, x, x, CMPMODE::LT, 64);
}

NPUD_KERNEL_REGISTER(compare_select);
NPUD_KERNEL_REGISTER(compare_int_lt);

// out[i] = src[offsets[i] / 4] through Gather (byte offsets from base 0).
extern "C" __global__ __aicore__ void gather_floats(__gm__ float* src, __gm__ uint32_t* offsets,
                                                    __gm__ float* out, uint32_t count) {
  GlobalTensor<float> gsrc, gout;
  GlobalTensor<uint32_t> goff;
  gsrc.SetGlobalBuffer(src);
  goff.SetGlobalBuffer(offsets);
  gout.SetGlobalBuffer(out);
  LocalMemAllocator<Hardware::UB> ub;
  LocalTensor<float> lsrc = ub.Alloc<float, 64>();
  LocalTensor<uint32_t> loff = ub.Alloc<uint32_t, 64>();
  LocalTensor<float> lout = ub.Alloc<float, 64>();
  DataCopy(lsrc, gsrc, 64);
  DataCopy(loff, goff, 64);
  Gather(lout, lsrc, loff, 0, count);
  DataCopy(gout, lout, 64);
}

// A 16 x 16 half matrix transposed in the UB.
extern "C" __global__ __aicore__ void transpose_16x16(__gm__ half* src, __gm__ half* out) {
  GlobalTensor<half> gsrc, gout;
  gsrc.SetGlobalBuffer(src);
  gout.SetGlobalBuffer(out);
  LocalMemAllocator<Hardware::UB> ub;
  LocalTensor<half> lsrc = ub.Alloc<half, 256>();
  LocalTensor<half> lout = ub.Alloc<half, 256>();
  DataCopy(lsrc, gsrc, 256);
  Transpose(lout, lsrc);
  DataCopy(gout, lout, 256);
}

NPUD_KERNEL_REGISTER(gather_floats);
NPUD_KERNEL_REGISTER(transpose_16x16);

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

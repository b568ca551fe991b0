// BilinearInterpolation (bilinear_interpolation.h) on the reference page's example and
// on a second shape: three horizontal repeats, repeatMode true, a partial mask and a
// destination block stride of 2.
#include "kernel_operator.h"

using namespace AscendC;

// io: src0 (512 halves), src1 (32 halves), src0Offset (32 uint32, as 64 halves' bytes);
// out: 256 halves per case (the caller fills it with a sentinel).
extern "C" __global__ __aicore__ void bilinear_interpolation(__gm__ half* src0, __gm__ half* src1,
                                                             __gm__ uint32_t* offsets,
                                                             __gm__ half* out, uint32_t which) {
  GlobalTensor<half> g0, g1, gout;
  GlobalTensor<uint32_t> goff;
  g0.SetGlobalBuffer(src0);
  g1.SetGlobalBuffer(src1);
  goff.SetGlobalBuffer(offsets);
  gout.SetGlobalBuffer(out);
  LocalMemAllocator<Hardware::UB> ub;
  LocalTensor<half> s0 = ub.Alloc<half, 512>();
  LocalTensor<half> s1 = ub.Alloc<half, 32>();
  LocalTensor<uint32_t> off = ub.Alloc<uint32_t, 32>();
  LocalTensor<half> dst = ub.Alloc<half, 256>();
  LocalTensor<uint8_t> tmp = ub.Alloc<uint8_t, 4096>();
  DataCopy(s0, g0, 512);
  DataCopy(s1, g1, 32);
  DataCopy(off, goff, 32);
  DataCopy(dst, gout, 256);
  if (which == 0) {
    BilinearInterpolation(dst, s0, off, s1, uint64_t{128}, 2, false, 1, 128, 2, tmp);
  } else if (which == 1) {
    BilinearInterpolation(dst, s0, off, s1, uint64_t{128}, 2, true, 1, 128, 2, tmp);
  } else {
    uint64_t mask[2] = {0x0000FFFF0000FFFFull, 0};  // lanes 0-15 and 32-47: blocks 0 and 2
    BilinearInterpolation(dst, s0, off, s1, mask, 3, true, 2, 128, 1, tmp);
  }
  DataCopy(gout, dst, 256);
}

NPUD_KERNEL_REGISTER(bilinear_interpolation);

// CastDequant (cast_dequant.h) in its scalar and vector quantisation modes, both
// halves of the destination blocks, level 0 with a mask and strides, and int32_t to
// half.
#include "kernel_operator.h"

using namespace AscendC;

// src: 64 int16. out (bytes, prefilled by the caller): [0, 128) scalar mode into the
// second halves (halfBlock true), [128, 256) the first halves (false, with uint8_t and
// signMode false), [256, 512) vector mode, level 0: mask 0xFFFF00000000FFFF (lanes
// 0-15 and 48-63), dst block stride 2.
extern "C" __global__ __aicore__ void cast_dequant_b8(__gm__ int16_t* src, __gm__ uint8_t* out,
                                                      __gm__ float* scales) {
  GlobalTensor<int16_t> gs;
  GlobalTensor<uint8_t> gout;
  gs.SetGlobalBuffer(src);
  gout.SetGlobalBuffer(out);
  LocalMemAllocator<Hardware::UB> ub;
  LocalTensor<int16_t> s = ub.Alloc<int16_t, 64>();
  LocalTensor<uint8_t> o = ub.Alloc<uint8_t, 512>();
  LocalTensor<uint64_t> vdeq = ub.Alloc<uint64_t, 16>();
  DataCopy(s, gs, 64);
  DataCopy(o, gout, 512);
  SetDeqScale(scales[0], static_cast<int16_t>(3), true);
  CastDequant<int8_t, int16_t, false, true>(o.ReinterpretCast<int8_t>(), s, 64);
  SetDeqScale(scales[1], static_cast<int16_t>(-5), false);
  CastDequant<uint8_t, int16_t, false, false>(o[128], s, 64);
  float vscale[16];
  int16_t voffset[16];
  bool vsign[16];
  for (int i = 0; i < 16; ++i) {
    vscale[i] = scales[2 + i];
    voffset[i] = static_cast<int16_t>(i * 37 - 256);  // 9 bits: -256 .. 299 wraps
    vsign[i] = i % 2 == 0;
  }
  SetDeqScale<uint64_t>(vdeq, VdeqInfo(vscale, voffset, vsign));
  uint64_t mask[2] = {0xFFFF00000000FFFFull, 0};
  CastDequant<int8_t, int16_t, true, true, true>(o[256].ReinterpretCast<int8_t>(), s, mask, 1,
                                                 UnaryRepeatParams(2, 1, 8, 8));
  DataCopy(gout, o, 512);
}

NPUD_KERNEL_REGISTER(cast_dequant_b8);

// int32 -> half with scale 0.25 (SetDeqScale(half)): out[0, 64) level 2, out[64, 128)
// level 0 with 32 lanes.
extern "C" __global__ __aicore__ void cast_dequant_s32(__gm__ int32_t* src, __gm__ half* out) {
  GlobalTensor<int32_t> gs;
  GlobalTensor<half> gout;
  gs.SetGlobalBuffer(src);
  gout.SetGlobalBuffer(out);
  LocalMemAllocator<Hardware::UB> ub;
  LocalTensor<int32_t> s = ub.Alloc<int32_t, 64>();
  LocalTensor<half> o = ub.Alloc<half, 128>();
  DataCopy(s, gs, 64);
  DataCopy(o, gout, 128);
  SetDeqScale(half(0.25f));
  CastDequant<half, int32_t>(o, s, 64);
  CastDequant<half, int32_t>(o[64], s, 32, 1, UnaryRepeatParams(1, 1, 8, 8));
  DataCopy(gout, o, 128);
}

NPUD_KERNEL_REGISTER(cast_dequant_s32);

// The CTRL register's saturation modes (ctrl_register.h) on vector instructions.
#include "kernel_operator.h"

using namespace AscendC;

// h: 32 halves (a = h[0..16), b = h[16..32)), f: 16 floats. hout: Add(a, b) in the
// default mode (0), with FLOAT saturation (16), after SetCtrlSpr<48, 48>(1) (32), and
// Cast(f) to half with saturation (48). flags: the register read back along the way,
// also after AscendCUtils::SetOverflow(0).
extern "C" __global__ __aicore__ void float_saturation(__gm__ half* h, __gm__ float* f,
                                                       __gm__ half* hout, __gm__ int32_t* flags) {
  GlobalTensor<half> gh, gout;
  GlobalTensor<float> gf;
  gh.SetGlobalBuffer(h);
  gf.SetGlobalBuffer(f);
  gout.SetGlobalBuffer(hout);
  LocalMemAllocator<Hardware::UB> ub;
  LocalTensor<half> in = ub.Alloc<half, 32>();
  LocalTensor<float> fin = ub.Alloc<float, 16>();
  LocalTensor<half> o = ub.Alloc<half, 64>();
  DataCopy(in, gh, 32);
  DataCopy(fin, gf, 16);
  flags[0] = GetSaturationFlag<SaturationMode::FLOAT>() ? 1 : 0;
  flags[1] = static_cast<int32_t>(GetCtrlSpr<48, 48>());
  Add(o, in, in[16], 16);
  SetSaturationFlag<SaturationMode::FLOAT>(true);
  flags[2] = GetSaturationFlag<SaturationMode::FLOAT>() ? 1 : 0;
  flags[3] = static_cast<int32_t>(GetCtrlSpr<48, 48>());
  Add(o[16], in, in[16], 16);
  Cast(o[48], fin, RoundMode::CAST_RINT, 16);
  SetCtrlSpr<48, 48>(1);
  flags[4] = GetSaturationFlag<SaturationMode::FLOAT>() ? 1 : 0;
  Add(o[32], in, in[16], 16);
  AscendCUtils::SetOverflow(0);  // the same bit: saturate again
  flags[5] = GetSaturationFlag<SaturationMode::FLOAT>() ? 1 : 0;
  AscendCUtils::SetOverflow(1);
  DataCopy(gout, o, 64);
}

NPUD_KERNEL_REGISTER(float_saturation);

// a, b: 16 int16 each; f: 16 floats. out (int16): Add wrapping (0) and saturating
// (16), Sub (32) and Mul (48) saturating; bytes (int8): Cast(f) saturating (0) and
// truncating (32). flags: INT and CAST read back.
extern "C" __global__ __aicore__ void int_saturation(__gm__ int16_t* ab, __gm__ float* f,
                                                     __gm__ int16_t* out, __gm__ int8_t* bytes,
                                                     __gm__ int32_t* flags) {
  GlobalTensor<int16_t> gab, gout;
  GlobalTensor<float> gf;
  GlobalTensor<int8_t> gbytes;
  gab.SetGlobalBuffer(ab);
  gf.SetGlobalBuffer(f);
  gout.SetGlobalBuffer(out);
  gbytes.SetGlobalBuffer(bytes);
  LocalMemAllocator<Hardware::UB> ub;
  LocalTensor<int16_t> in = ub.Alloc<int16_t, 32>();
  LocalTensor<float> fin = ub.Alloc<float, 16>();
  LocalTensor<int16_t> o = ub.Alloc<int16_t, 64>();
  LocalTensor<int8_t> b = ub.Alloc<int8_t, 64>();
  DataCopy(in, gab, 32);
  DataCopy(fin, gf, 16);
  Duplicate(b, static_cast<int8_t>(0), 64);
  flags[0] = GetSaturationFlag<SaturationMode::INT>() ? 1 : 0;
  flags[1] = GetSaturationFlag<SaturationMode::CAST>() ? 1 : 0;
  Add(o, in, in[16], 16);
  SetSaturationFlag<SaturationMode::INT>(true);
  flags[2] = GetSaturationFlag<SaturationMode::INT>() ? 1 : 0;
  Add(o[16], in, in[16], 16);
  Sub(o[32], in, in[16], 16);
  Mul(o[48], in, in[16], 16);
  Cast(b, fin, RoundMode::CAST_RINT, 16);
  SetSaturationFlag<SaturationMode::CAST>(false);
  flags[3] = GetSaturationFlag<SaturationMode::CAST>() ? 1 : 0;
  Cast(b[32], fin, RoundMode::CAST_RINT, 16);
  DataCopy(gout, o, 64);
  DataCopy(gbytes, b, 64);
}

NPUD_KERNEL_REGISTER(int_saturation);

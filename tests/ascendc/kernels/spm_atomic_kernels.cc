// TPipe's SPM buffer (spm_buffer.h) and the store atomic configuration
// (store_atomic_config.h).
#include "kernel_operator.h"

using namespace AscendC;

// x: 64 floats. Spills x[0..32) to the SPM (ws) contiguously at element 8, and x in
// two bursts of 16 floats with a gap of one block on each side at element 64; reads
// both back into a zeroed tensor (the bursts back to back); out gets what came back.
extern "C" __global__ __aicore__ void spm_round_trip(__gm__ float* x, __gm__ float* ws,
                                                     __gm__ float* out) {
  TPipe pipe;
  GlobalTensor<float> gx, gws, gout;
  gx.SetGlobalBuffer(x);
  gws.SetGlobalBuffer(ws);
  gout.SetGlobalBuffer(out);
  TBuf<TPosition::VECCALC> buf;
  pipe.InitBuffer(buf, 2 * 64 * sizeof(float));
  LocalTensor<float> a = buf.Get<float>();
  LocalTensor<float> b = a[64];
  DataCopy(a, gx, 64);
  Duplicate(b, 0.0f, 64);
  pipe.InitSpmBuffer(gws, 160 * sizeof(float));
  pipe.WriteSpmBuffer(a, 32, 8);
  const DataCopyParams bursts{2, 2, 1, 1};  // 2 x 16 floats, one block apart
  pipe.WriteSpmBuffer(a, bursts, 64);
  pipe.ReadSpmBuffer(b, 32, 8);
  const DataCopyParams back{2, 2, 1, 0};  // the SPM's gap, none in UB
  pipe.ReadSpmBuffer(b[32], back, 64);
  DataCopy(gout, b, 64);
}

NPUD_KERNEL_REGISTER(spm_round_trip);

// A write past the end of a 64-byte SPM buffer.
extern "C" __global__ __aicore__ void spm_overflow(__gm__ float* ws) {
  TPipe pipe;
  GlobalTensor<float> gws;
  gws.SetGlobalBuffer(ws);
  TBuf<TPosition::VECCALC> buf;
  pipe.InitBuffer(buf, 64 * sizeof(float));
  LocalTensor<float> a = buf.Get<float>();
  pipe.InitSpmBuffer(gws, 64);
  pipe.WriteSpmBuffer(a, 8, 8);  // 32 bytes at byte 32: fits
  pipe.WriteSpmBuffer(a, 16, 8);  // 64 bytes at byte 32: does not
}

NPUD_KERNEL_REGISTER(spm_overflow);

// Stores of 16 halves with the store atomic configuration: a sum onto out (type 2),
// then none (overwrites). regs gets the (type, op) read back after each setting, and
// after SetAtomicMax<float>() and SetAtomicMin<int32_t>().
extern "C" __global__ __aicore__ void store_atomic_config(__gm__ half* x, __gm__ half* out,
                                                          __gm__ uint16_t* regs) {
  GlobalTensor<half> gx, gout;
  gx.SetGlobalBuffer(x);
  gout.SetGlobalBuffer(out);
  LocalMemAllocator<Hardware::UB> ub;
  LocalTensor<half> a = ub.Alloc<half, 32>();
  DataCopy(a, gx, 32);
  uint16_t type = 99, op = 99;
  GetStoreAtomicConfig(type, op);
  regs[0] = type;
  regs[1] = op;
  SetStoreAtomicConfig<AtomicDtype::ATOMIC_F16, AtomicOp::ATOMIC_SUM>();
  GetStoreAtomicConfig(type, op);
  regs[2] = type;
  regs[3] = op;
  DataCopy(gout, a, 16);  // out[0..16) += x[0..16)
  SetStoreAtomicConfig<AtomicDtype::ATOMIC_NONE, AtomicOp::ATOMIC_SUM>();
  GetStoreAtomicConfig(type, op);
  regs[4] = type;
  regs[5] = op;
  DataCopy(gout[16], a[16], 16);  // out[16..32) = x[16..32)
  SetAtomicMax<float>();
  GetStoreAtomicConfig(type, op);
  regs[6] = type;
  regs[7] = op;
  SetAtomicMin<int32_t>();
  GetStoreAtomicConfig(type, op);
  regs[8] = type;
  regs[9] = op;
  SetAtomicNone();
  GetStoreAtomicConfig(type, op);
  regs[10] = type;
  regs[11] = op;
}

NPUD_KERNEL_REGISTER(store_atomic_config);

// Kernels for the matrix moves between GM, UB, L1 and L0C and the Mmad control
// bits (npud_ascendc/cube_copies.h, mmad_config.h, the ND2NZ of cube.h, LoadData
// GM -> L1, L1 -> GM): each writes what it moved or computed to GM for a host
// reference (cube_moves_test.cc). Parameters come in a uint32 array in GM, so one
// kernel serves every case of a form.
#include "kernel_operator.h"

using namespace AscendC;

namespace {

uint16_t U16(uint32_t v) { return static_cast<uint16_t>(v); }

Nd2NzParams Nd2NzFrom(const __gm__ uint32_t* q) {
  return Nd2NzParams(U16(q[0]), U16(q[1]), U16(q[2]), U16(q[3]), U16(q[4]), U16(q[5]), U16(q[6]),
                     U16(q[7]));
}

// A (16 x k) and B (n x k, B transposed) of T from GM through L1 (ND2NZ) into
// L0A/L0B, then C (float, 16 x n) = A x B into L0C. With m = 16 the NZ layouts in
// L1 are already the L0A/L0B fractal orders, so each moves with one 2D load.
template <class T>
LocalTensor<float> GemmM16(__gm__ T* a, __gm__ T* b, uint32_t n, uint32_t k) {
  constexpr uint32_t c0 = 32 / sizeof(T);
  GlobalTensor<T> aGm, bGm;
  aGm.SetGlobalBuffer(a);
  bGm.SetGlobalBuffer(b);
  LocalTensor<T> a1(TPosition::A1, 0, 16 * k), b1(TPosition::B1, 128 * 1024, n * k);
  LocalTensor<T> a2(TPosition::A2, 0, 16 * k), b2(TPosition::B2, 0, n * k);
  DataCopy(a1, aGm, Nd2NzParams{1, 16, U16(k), 0, U16(k), 16, 1, 0});
  DataCopy(b1, bGm, Nd2NzParams{1, U16(n), U16(k), 0, U16(k), U16(n), 1, 0});
  LoadData(a2, a1, LoadData2DParams{0, static_cast<uint8_t>(k / c0), 1, 0, 0, false, 0});
  LoadData(b2, b1,
           LoadData2DParams{0, static_cast<uint8_t>(k / c0 * (n / 16)), 1, 0, 0, false, 0});
  LocalTensor<float> c1(TPosition::CO1, 0, 16 * n);
  Mmad(c1, a2, b2, MmadParams{16, U16(n), U16(k), 0, false, true});
  return c1;
}

}  // namespace

// LoadData GM -> L1 (2D, whole fractals): L1 starts as `background` (total
// elements), then q = {startIndex, repeatTimes, srcStride, dstGap, addrMode} moves
// fractals of `src` into it; all of L1's `total` elements go back to `out`.
extern "C" __global__ __cube__ void moves_load2d_gm_to_l1(__gm__ int16_t* src,
                                                          __gm__ int16_t* background,
                                                          __gm__ int16_t* out,
                                                          __gm__ uint32_t* q, uint32_t total) {
  GlobalTensor<int16_t> srcGm, bgGm, outGm;
  srcGm.SetGlobalBuffer(src);
  bgGm.SetGlobalBuffer(background);
  outGm.SetGlobalBuffer(out);
  LocalTensor<int16_t> l1(TPosition::A1, 0, total);
  DataCopy(l1, bgGm, total);
  LoadData2DParams p;
  p.startIndex = U16(q[0]);
  p.repeatTimes = static_cast<uint8_t>(q[1]);
  p.srcStride = U16(q[2]);
  p.dstGap = U16(q[3]);
  p.addrMode = static_cast<uint8_t>(q[4]);
  LoadData(l1, srcGm, p);
  DataCopy(outGm, l1, total);
}

// L1 -> GM in bursts: L1 holds `src` (total elements); q = {blockCount, blockLen,
// srcGap, dstGap} (32-byte blocks) copies it to `out`, through the newer field names.
extern "C" __global__ __cube__ void moves_l1_to_gm_bursts(__gm__ int16_t* src,
                                                          __gm__ int16_t* out,
                                                          __gm__ uint32_t* q, uint32_t total) {
  GlobalTensor<int16_t> srcGm, outGm;
  srcGm.SetGlobalBuffer(src);
  outGm.SetGlobalBuffer(out);
  LocalTensor<int16_t> l1(TPosition::B1, 32 * 1024, total);
  DataCopy(l1, srcGm, total);
  DataCopyParams p;
  p.blockCount = U16(q[0]);
  p.blockLen = U16(q[1]);
  p.srcGap = U16(q[2]);
  p.dstGap = U16(q[3]);
  DataCopy(outGm, l1, p);
}

// UB -> L1 in a mix kernel, as the reference does it: the cube core fills L1 with
// `background` (l1_total elements) and raises flag 1; vector core 0 loads `src`
// (ub_total elements) into UB, copies it to L1 by q[0]'s form, and both vector
// cores raise flag 2; the cube core then writes L1 back to `out`. Forms:
//   0  DataCopy(l1[q[2]], ub[q[3]], count q[1])
//   1  DataCopy(l1, ub, DataCopyParams{q[1..4]})
//   2  DataCopy(l1, ub, Nd2NzParams{q[1..8]})
//   3  DataCopyPad(l1, ub, DataCopyExtParams{q[1..4], 0}, Nd2NzParams{q[5..12]})
extern "C" __global__ __mix__(1, 2) void moves_ub_to_l1(__gm__ int16_t* src,
                                                        __gm__ int16_t* background,
                                                        __gm__ int16_t* out, __gm__ uint32_t* q,
                                                        uint32_t ub_total, uint32_t l1_total) {
  LocalTensor<int16_t> l1(TPosition::A1, 0, l1_total);
  if ASCEND_IS_AIC {
    GlobalTensor<int16_t> bgGm, outGm;
    bgGm.SetGlobalBuffer(background);
    outGm.SetGlobalBuffer(out);
    DataCopy(l1, bgGm, l1_total);
    CrossCoreSetFlag<2, PIPE_MTE2>(1);
    CrossCoreWaitFlag(2);
    DataCopy(outGm, l1, l1_total);
  }
  if ASCEND_IS_AIV {
    CrossCoreWaitFlag(1);
    if (GetSubBlockIdx() == 0) {
      GlobalTensor<int16_t> srcGm;
      srcGm.SetGlobalBuffer(src);
      LocalTensor<int16_t> ub(TPosition::VECIN, 0, ub_total);
      DataCopy(ub, srcGm, ub_total);
      switch (q[0]) {
        case 0:
          DataCopy(l1[q[2]], ub[q[3]], q[1]);
          break;
        case 1:
          DataCopy(l1, ub, DataCopyParams(U16(q[1]), U16(q[2]), U16(q[3]), U16(q[4])));
          break;
        case 2:
          DataCopy(l1, ub, Nd2NzFrom(q + 1));
          break;
        default:
          DataCopyPad(l1, ub, DataCopyExtParams(U16(q[1]), q[2], q[3], q[4], 0), Nd2NzFrom(q + 5));
          break;
      }
    }
    CrossCoreSetFlag<2, PIPE_MTE3>(2);
  }
}

// GM -> UB with ND2NZ (q = Nd2NzParams): UB starts as `background` (total
// elements); all of it goes back to `out`.
extern "C" __global__ __vector__ void moves_gm_to_ub_nd2nz(__gm__ int16_t* src,
                                                           __gm__ int16_t* background,
                                                           __gm__ int16_t* out,
                                                           __gm__ uint32_t* q, uint32_t total) {
  GlobalTensor<int16_t> srcGm, bgGm, outGm;
  srcGm.SetGlobalBuffer(src);
  bgGm.SetGlobalBuffer(background);
  outGm.SetGlobalBuffer(out);
  LocalTensor<int16_t> ub(TPosition::VECIN, 0, total);
  DataCopy(ub, bgGm, total);
  DataCopy(ub, srcGm, Nd2NzFrom(q));
  DataCopy(outGm, ub, total);
}

// UB -> GM with NZ2ND: UB holds `src` (total float elements); q = Nz2NdParamsFull.
extern "C" __global__ __vector__ void moves_ub_to_gm_nz2nd(__gm__ float* src, __gm__ float* out,
                                                           __gm__ uint32_t* q, uint32_t total) {
  GlobalTensor<float> srcGm, outGm;
  srcGm.SetGlobalBuffer(src);
  outGm.SetGlobalBuffer(out);
  LocalTensor<float> ub(TPosition::VECOUT, 0, total);
  DataCopy(ub, srcGm, total);
  DataCopy(outGm, ub,
           Nz2NdParamsFull(U16(q[0]), U16(q[1]), U16(q[2]), U16(q[3]), U16(q[4]), U16(q[5]),
                           U16(q[6])));
}

// C = A (16 x k) x B^T (n x k), half, into L0C, then DataCopy L0C -> L1 as half
// (F322F16, ReLU when relu is 1, dstStride blocks between column blocks) into an L1
// that starts as `background` (total halves); all of it goes back to `out`.
extern "C" __global__ __cube__ void moves_l0c_to_l1(__gm__ half* a, __gm__ half* b,
                                                    __gm__ half* background, __gm__ half* out,
                                                    uint32_t n, uint32_t k, uint32_t relu,
                                                    uint32_t dst_stride, uint32_t total) {
  LocalTensor<float> c1 = GemmM16(a, b, n, k);
  GlobalTensor<half> bgGm, outGm;
  bgGm.SetGlobalBuffer(background);
  outGm.SetGlobalBuffer(out);
  LocalTensor<half> l1(TPosition::C1, 256 * 1024, total);
  DataCopy(l1, bgGm, total);
  DataCopyCO12DstParams p(U16(n), 16, dst_stride, 16, QuantMode_t::F322F16,
                          static_cast<uint8_t>(relu), false, false);
  DataCopy(l1, c1, p);
  DataCopy(outGm, l1, total);
}

// The same path with NoQuant, which it does not have: the block fails.
extern "C" __global__ __cube__ void moves_l0c_to_l1_without_quant() {
  LocalTensor<float> c1(TPosition::CO1, 0, 256);
  LocalTensor<float> l1(TPosition::A1, 0, 256);
  DataCopy(l1, c1, DataCopyCO12DstParams(16, 16, 2, 16, QuantMode_t::NoQuant, 0, false, false));
}

// C = A (16 x k) x B^T (n x k), float, to GM (16 x n, row major) under the Mmad
// control bits: hf32 0 off, 1 on (ties to even), 2 on (NEAREST_ZERO); row_major 1
// calls SetMMRowMajor. The bits are put back to their defaults afterwards.
extern "C" __global__ __cube__ void moves_mmad_modes(__gm__ float* a, __gm__ float* b,
                                                     __gm__ float* c, uint32_t n, uint32_t k,
                                                     uint32_t hf32, uint32_t row_major) {
  if (hf32 != 0) {
    SetHF32Mode(HF32Mode::ENABLE);
    SetHF32TransMode(hf32 == 2 ? HF32TransMode::NEAREST_ZERO : HF32TransMode::NEAREST_EVEN);
  }
  if (row_major != 0) SetMMRowMajor();
  LocalTensor<float> c1 = GemmM16(a, b, n, k);
  SetHF32Mode(HF32Mode::DISABLE);
  SetHF32TransMode(HF32TransMode::NEAREST_EVEN);
  SetMMColumnMajor();
  GlobalTensor<float> cGm;
  cGm.SetGlobalBuffer(c);
  Fixpipe(cGm, c1, FixpipeParamsV220{U16(n), 16, 16, n, false});
}

NPUD_KERNEL_REGISTER_AS(moves_load2d_gm_to_l1, NPUD_CORE_TYPE_CUBE);
NPUD_KERNEL_REGISTER_AS(moves_l1_to_gm_bursts, NPUD_CORE_TYPE_CUBE);
NPUD_KERNEL_REGISTER_AS(moves_ub_to_l1, NPUD_CORE_TYPE_MIX);
NPUD_KERNEL_REGISTER_AS(moves_gm_to_ub_nd2nz, NPUD_CORE_TYPE_VECTOR);
NPUD_KERNEL_REGISTER_AS(moves_ub_to_gm_nz2nd, NPUD_CORE_TYPE_VECTOR);
NPUD_KERNEL_REGISTER_AS(moves_l0c_to_l1, NPUD_CORE_TYPE_CUBE);
NPUD_KERNEL_REGISTER_AS(moves_l0c_to_l1_without_quant, NPUD_CORE_TYPE_CUBE);
NPUD_KERNEL_REGISTER_AS(moves_mmad_modes, NPUD_CORE_TYPE_CUBE);

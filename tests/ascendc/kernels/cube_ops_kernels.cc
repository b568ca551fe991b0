// Kernels for the cube's moves and arithmetic beyond the basic half GEMM
// (cube_kernels.cc): int4b_t matrices, LoadDataWithTranspose, the 3D (image to
// column) load, Fixpipe's quantisation and NZ outputs, biases, GEMV and the sparse
// multiply. Each writes results a host reference checks (cube_ops_test.cc; the raw
// Mmads at the end: cube_mmad_test.cc).
#include <cfenv>
#include <type_traits>

#include "kernel_operator.h"

using namespace AscendC;

namespace {

uint16_t U16(uint32_t v) { return static_cast<uint16_t>(v); }

// A (m x k) and B (n x k, i.e. B transposed) from GM through L1 into L0A/L0B with
// the 2D load, for any element type of C0 = c0 elements per fractal row.
template <class T>
void LoadABTransposed(const GlobalTensor<T>& aGm, const GlobalTensor<T>& bGm,
                      const LocalTensor<T>& a2, const LocalTensor<T>& b2, uint32_t m, uint32_t n,
                      uint32_t k, uint32_t c0) {
  // int4b_t moves as bytes through Nd2Nz: its d values count bytes.
  const uint32_t per_byte = IsSameType<T, int4b_t>::value ? 2 : 1;
  LocalTensor<T> a1(TPosition::A1, 0, m * k);
  LocalTensor<T> b1(TPosition::B1, 64 * 1024, n * k);
  DataCopy(a1, aGm, Nd2NzParams{1, U16(m), U16(k / per_byte), 0, U16(k / per_byte), U16(m), 1, 0});
  DataCopy(b1, bGm, Nd2NzParams{1, U16(n), U16(k / per_byte), 0, U16(k / per_byte), U16(n), 1, 0});
  for (uint32_t i = 0; i < m / 16; ++i) {
    LoadData(a2[i * k * 16], a1[i * 16 * c0],
             LoadData2DParams{0, static_cast<uint8_t>(k / c0), U16(m / 16), 0, 0, false, 0});
  }
  for (uint32_t i = 0; i < k / c0; ++i) {
    LoadData(b2[i * n * c0], b1[i * n * c0],
             LoadData2DParams{0, static_cast<uint8_t>(n / 16), 1, 0, 0, false, 0});
  }
}

}  // namespace

// c (int32, m x n) = a (int4, m x k) * b^T (int4, n x k); int4 packed two to a byte,
// the first in the low nibble. m, n multiples of 16, k of 64.
extern "C" __global__ __cube__ void cube_int4_gemm(__gm__ uint8_t* a, __gm__ uint8_t* b,
                                                   __gm__ int32_t* c, uint32_t m, uint32_t n,
                                                   uint32_t k) {
  GlobalTensor<int4b_t> aGm, bGm;
  GlobalTensor<int32_t> cGm;
  aGm.SetGlobalBuffer(reinterpret_cast<__gm__ int4b_t*>(a));
  bGm.SetGlobalBuffer(reinterpret_cast<__gm__ int4b_t*>(b));
  cGm.SetGlobalBuffer(c);
  LocalTensor<int4b_t> a2(TPosition::A2, 0, m * k), b2(TPosition::B2, 0, n * k);
  LoadABTransposed(aGm, bGm, a2, b2, m, n, k, 64);
  LocalTensor<int32_t> c1(TPosition::CO1, 0, m * n);
  Mmad(c1, a2, b2, MmadParams{U16(m), U16(n), U16(k), 0, false, true});
  Fixpipe(cGm, c1, FixpipeParamsV220{U16(n), U16(m), U16(m), n, false});
}

// c (int32, m x n) = a (int8, m x k) * b (int8, k x n), B given as it is (k x n) and
// transposed on the way into L0B by LoadDataWithTranspose (32 x 32 squares). m a
// multiple of 16, n and k of 32.
extern "C" __global__ __cube__ void cube_int8_gemm_transposing_b(__gm__ int8_t* a,
                                                                 __gm__ int8_t* b,
                                                                 __gm__ int32_t* c, uint32_t m,
                                                                 uint32_t n, uint32_t k) {
  GlobalTensor<int8_t> aGm, bGm;
  GlobalTensor<int32_t> cGm;
  aGm.SetGlobalBuffer(a);
  bGm.SetGlobalBuffer(b);
  cGm.SetGlobalBuffer(c);
  LocalTensor<int8_t> a1(TPosition::A1, 0, m * k), b1(TPosition::B1, 64 * 1024, k * n);
  LocalTensor<int8_t> a2(TPosition::A2, 0, m * k), b2(TPosition::B2, 0, k * n);
  DataCopy(a1, aGm, Nd2NzParams{1, U16(m), U16(k), 0, U16(k), U16(m), 1, 0});
  DataCopy(b1, bGm, Nd2NzParams{1, U16(k), U16(n), 0, U16(n), U16(k), 1, 0});
  for (uint32_t i = 0; i < m / 16; ++i) {
    LoadData(a2[i * k * 16], a1[i * 16 * 32],
             LoadData2DParams{0, static_cast<uint8_t>(k / 32), U16(m / 16), 0, 0, false, 0});
  }
  LoadData2dTransposeParams t;
  t.repeatTimes = static_cast<uint8_t>(n / 32);
  t.srcStride = U16(k / 32);
  t.dstGap = 1;
  for (uint32_t i = 0; i < k / 32; ++i) LoadDataWithTranspose(b2[i * n * 32], b1[i * 1024], t);
  LocalTensor<int32_t> c1(TPosition::CO1, 0, m * n);
  Mmad(c1, a2, b2, MmadParams{U16(m), U16(n), U16(k), 0, false, true});
  Fixpipe(cGm, c1, FixpipeParamsV220{U16(n), U16(m), U16(m), n, false});
}

// A 3 x 3 convolution, stride 1, padding 1 filled with `pad`, of a 16-channel h x w
// half feature map (NC1HWC0, C1 = 1) with 16 filters given as w (16 x 144: filter n,
// column (kh * 3 + kw) * 16 + c): the 3D load builds the image-to-column matrix in
// L0A. out is twice (h * w) x 16 floats (V2 and V2 Pro parameters).
extern "C" __global__ __cube__ void cube_conv3x3_load3d(__gm__ half* fmap, __gm__ half* w,
                                                        __gm__ float* out, uint32_t h, uint32_t wd,
                                                        float pad) {
  GlobalTensor<half> fGm, wGm;
  GlobalTensor<float> oGm;
  fGm.SetGlobalBuffer(fmap);
  wGm.SetGlobalBuffer(w);
  oGm.SetGlobalBuffer(out);
  const uint32_t m = h * wd, k = 144, n = 16;
  LocalTensor<half> f1(TPosition::A1, 0, m * 16), w1(TPosition::B1, 64 * 1024, n * k);
  DataCopy(f1, fGm, m * 16);
  DataCopy(w1, wGm, Nd2NzParams{1, U16(n), U16(k), 0, U16(k), U16(n), 1, 0});
  LocalTensor<half> a2(TPosition::A2, 0, m * k), b2(TPosition::B2, 0, n * k);
  LoadData3DParamsV2<half> p;
  for (uint8_t& side : p.padList) side = 1;
  p.l1H = U16(h);
  p.l1W = U16(wd);
  p.channelSize = 16;
  p.kExtension = U16(k);
  p.mExtension = U16(m);
  p.filterW = 3;
  p.filterH = 3;
  p.padValue = half(pad);
  LoadData(a2, f1, p);
  LoadData(b2, w1, LoadData2DParams{0, static_cast<uint8_t>(k / 16), 1, 0, 0, false, 0});
  LocalTensor<float> c1(TPosition::CO1, 0, m * n);
  Mmad(c1, a2, b2, MmadParams{U16(m), U16(n), U16(k), 0, false, true});
  Fixpipe(oGm, c1, FixpipeParamsV220{U16(n), U16(m), U16(m), n, false});
  // Again with the V2 Pro form: the feature map and padding from their registers,
  // the extents and filter packed; out[m * n, 2 * m * n).
  Fill(a2, InitConstValueParams<half>(static_cast<uint16_t>(m * k / 256), 1, 0, half(0)));
  const uint8_t pads[4] = {1, 1, 1, 1};
  SetFmatrix(U16(h), U16(wd), pads, FmatrixMode::FMATRIX_LEFT);
  SetLoadDataPaddingValue(half(pad));
  const uint64_t ext = (uint64_t{m} << 16) | k;
  const uint64_t filter = (uint64_t{1} << 40) | (uint64_t{1} << 32) | (uint64_t{3} << 24) |
                          (uint64_t{3} << 16) | (uint64_t{1} << 8) | 1;
  LoadData(a2, f1, LoadData3DParamsV2Pro(16, false, false, false, false, false, ext, filter));
  Mmad(c1, a2, b2, MmadParams{U16(m), U16(n), U16(k), 0, false, true});
  Fixpipe(oGm[m * n], c1, FixpipeParamsV220{U16(n), U16(m), U16(m), n, false});
}

// The int8 GEMM c = a * b^T (m x n, k = 32) moved out of L0C three ways: quantised
// by REQ8 with `word` (and ReLU) to int8 rows (q), as int32 in NZ (nz32), and
// quantised to int8 in NZ, where pairs of 16-column blocks merge (nz8).
extern "C" __global__ __cube__ void cube_fixpipe_outputs(__gm__ int8_t* a, __gm__ int8_t* b,
                                                         __gm__ int8_t* q, __gm__ int32_t* nz32,
                                                         __gm__ int8_t* nz8, uint32_t m,
                                                         uint32_t n, uint64_t word,
                                                         uint32_t relu) {
  GlobalTensor<int8_t> aGm, bGm, qGm, nz8Gm;
  GlobalTensor<int32_t> nz32Gm;
  aGm.SetGlobalBuffer(a);
  bGm.SetGlobalBuffer(b);
  qGm.SetGlobalBuffer(q);
  nz8Gm.SetGlobalBuffer(nz8);
  nz32Gm.SetGlobalBuffer(nz32);
  const uint32_t k = 32;
  LocalTensor<int8_t> a2(TPosition::A2, 0, m * k), b2(TPosition::B2, 0, n * k);
  LoadABTransposed(aGm, bGm, a2, b2, m, n, k, 32);
  LocalTensor<int32_t> c1(TPosition::CO1, 0, m * n);
  Mmad(c1, a2, b2, MmadParams{U16(m), U16(n), U16(k), 0, false, true});
  Fixpipe<int8_t, int32_t, CFG_ROW_MAJOR>(
      qGm, c1,
      FixpipeParamsV220{U16(n), U16(m), U16(m), n, relu != 0, QuantMode_t::REQ8,
                        static_cast<int64_t>(word), 1, 0, 0, 0});
  // NZ: dstStride counts 32-byte blocks between column blocks (m rows of 16 int32,
  // m rows of 32 int8).
  Fixpipe<int32_t, int32_t, CFG_NZ>(nz32Gm, c1, FixpipeParamsV220{U16(n), U16(m), U16(m), m * 2, false});
  Fixpipe<int8_t, int32_t, CFG_NZ>(
      nz8Gm, c1,
      FixpipeParamsV220{U16(n), U16(m), U16(m), m, false, QuantMode_t::REQ8,
                        static_cast<int64_t>(word), 1, 0, 0, 0});
}

// c = a * b^T + bias (half in, float out, m x n, k = 16) twice: with the bias tensor
// in the bias table (withTensor) and with the C matrix started from the bias table
// (cmatrixSource, fromTable). The bias goes GM -> L1 -> bias table.
extern "C" __global__ __cube__ void cube_bias_gemm(__gm__ half* a, __gm__ half* b,
                                                   __gm__ float* bias, __gm__ float* withTensor,
                                                   __gm__ float* fromTable, uint32_t m,
                                                   uint32_t n) {
  GlobalTensor<half> aGm, bGm;
  GlobalTensor<float> biasGm, o1, o2;
  aGm.SetGlobalBuffer(a);
  bGm.SetGlobalBuffer(b);
  biasGm.SetGlobalBuffer(bias);
  o1.SetGlobalBuffer(withTensor);
  o2.SetGlobalBuffer(fromTable);
  const uint32_t k = 16;
  LocalTensor<half> a2(TPosition::A2, 0, m * k), b2(TPosition::B2, 0, n * k);
  LoadABTransposed(aGm, bGm, a2, b2, m, n, k, 16);
  LocalTensor<float> bias1(TPosition::C1, 128 * 1024, n), bias2(TPosition::C2, 0, n);
  DataCopy(bias1, biasGm, n);
  DataCopy(bias2, bias1, DataCopyParams{1, U16(n * 4 / 64), 0, 0});  // 64-byte units into BT
  LocalTensor<float> c1(TPosition::CO1, 0, m * n);
  Mmad(c1, a2, b2, bias2, MmadParams{U16(m), U16(n), U16(k), 0, false, false});
  Fixpipe(o1, c1, FixpipeParamsV220{U16(n), U16(m), U16(m), n, false});
  Mmad(c1, a2, b2, MmadParams{U16(m), U16(n), U16(k), 0, true, false});
  Fixpipe(o2, c1, FixpipeParamsV220{U16(n), U16(m), U16(m), n, false});
}

// GEMV: c (1 x n, float) = a (1 x k, half, one contiguous row in L0A) * b^T (n x k).
extern "C" __global__ __cube__ void cube_gemv(__gm__ half* a, __gm__ half* b, __gm__ float* c,
                                              uint32_t n, uint32_t k) {
  GlobalTensor<half> aGm, bGm;
  GlobalTensor<float> cGm;
  aGm.SetGlobalBuffer(a);
  bGm.SetGlobalBuffer(b);
  cGm.SetGlobalBuffer(c);
  LocalTensor<half> a1(TPosition::A1, 0, k), b1(TPosition::B1, 64 * 1024, n * k);
  LocalTensor<half> a2(TPosition::A2, 0, k), b2(TPosition::B2, 0, n * k);
  DataCopy(a1, aGm, k);
  LoadData(a2, a1, LoadData2DParams{0, static_cast<uint8_t>(k / 256), 1, 0, 0, false, 0});
  DataCopy(b1, bGm, Nd2NzParams{1, U16(n), U16(k), 0, U16(k), U16(n), 1, 0});
  for (uint32_t i = 0; i < k / 16; ++i) {
    LoadData(b2[i * n * 16], b1[i * n * 16],
             LoadData2DParams{0, static_cast<uint8_t>(n / 16), 1, 0, 0, false, 0});
  }
  LocalTensor<float> c1(TPosition::CO1, 0, 16 * n);
  Mmad(c1, a2, b2, MmadParams{1, U16(n), U16(k), 0, false, true});
  Fixpipe(cGm, c1, FixpipeParamsV220{U16(n), 1, 16, n, false});
}

// The 4:2 sparse GEMM: c (int32, m x n) = a (int8, m x k) * B, B given densely as
// dense (k/2 rows, in L0B fractal order: fractal (k/2 block, n block), each 16 n-rows
// of 32) with its 2-bit indices idx (128 bytes per fractal).
extern "C" __global__ __cube__ void cube_sparse_gemm(__gm__ int8_t* a, __gm__ int8_t* dense,
                                                     __gm__ uint8_t* idx, __gm__ int32_t* c,
                                                     uint32_t m, uint32_t n, uint32_t k) {
  GlobalTensor<int8_t> aGm, dGm;
  GlobalTensor<uint8_t> iGm;
  GlobalTensor<int32_t> cGm;
  aGm.SetGlobalBuffer(a);
  dGm.SetGlobalBuffer(dense);
  iGm.SetGlobalBuffer(idx);
  cGm.SetGlobalBuffer(c);
  LocalTensor<int8_t> a1(TPosition::A1, 0, m * k), d1(TPosition::B1, 64 * 1024, n * k / 2);
  LocalTensor<uint8_t> i1(TPosition::B1, 128 * 1024, n * k / 8);
  LocalTensor<int8_t> a2(TPosition::A2, 0, m * k), b2(TPosition::B2, 0, n * k / 2);
  DataCopy(a1, aGm, Nd2NzParams{1, U16(m), U16(k), 0, U16(k), U16(m), 1, 0});
  DataCopy(d1, dGm, n * k / 2);
  DataCopy(i1, iGm, n * k / 8);
  for (uint32_t i = 0; i < m / 16; ++i) {
    LoadData(a2[i * k * 16], a1[i * 16 * 32],
             LoadData2DParams{0, static_cast<uint8_t>(k / 32), U16(m / 16), 0, 0, false, 0});
  }
  LoadData2DParams p;
  p.repeatTimes = static_cast<uint8_t>(n * k / 2 / 512);
  LoadDataWithSparse(b2, d1, i1, p);
  LocalTensor<int32_t> c1(TPosition::CO1, 0, m * n);
  MmadWithSparse(c1, a2, b2, MmadParams{U16(m), U16(n), U16(k), false, 0, false, false, false});
  Fixpipe(cGm, c1, FixpipeParamsV220{U16(n), U16(m), U16(m), n, false});
}

NPUD_KERNEL_REGISTER_AS(cube_int4_gemm, NPUD_CORE_TYPE_CUBE);
NPUD_KERNEL_REGISTER_AS(cube_int8_gemm_transposing_b, NPUD_CORE_TYPE_CUBE);
NPUD_KERNEL_REGISTER_AS(cube_conv3x3_load3d, NPUD_CORE_TYPE_CUBE);
NPUD_KERNEL_REGISTER_AS(cube_fixpipe_outputs, NPUD_CORE_TYPE_CUBE);
NPUD_KERNEL_REGISTER_AS(cube_bias_gemm, NPUD_CORE_TYPE_CUBE);
NPUD_KERNEL_REGISTER_AS(cube_gemv, NPUD_CORE_TYPE_CUBE);
NPUD_KERNEL_REGISTER_AS(cube_sparse_gemm, NPUD_CORE_TYPE_CUBE);

// Mmad on operands the host lays out as the L0A / L0B fractals themselves (moved in
// whole by the 2D load from GM), of any m, n, k: mode 0 C = A x B, 1 the same and
// then C += A x B, 2 C starts from the bias table, 3 from a bias tensor (both the n
// floats of `bias`, rounded up to 16). c gets C row-major (m x n), and `flags` the
// floating-point exceptions the Mmads raised (FE_INVALID, FE_OVERFLOW).
template <class T, class C>
void RawMmad(__gm__ T* a, __gm__ T* b, __gm__ float* bias, __gm__ C* c, __gm__ int32_t* flags,
             uint32_t m, uint32_t n, uint32_t k, uint32_t aFractals, uint32_t bFractals,
             uint32_t mode, uint32_t kAlign) {
  constexpr uint32_t kFractal = 512 / sizeof(T);
  GlobalTensor<T> aGm, bGm;
  GlobalTensor<float> biasGm;
  GlobalTensor<C> cGm;
  aGm.SetGlobalBuffer(a);
  bGm.SetGlobalBuffer(b);
  biasGm.SetGlobalBuffer(bias);
  cGm.SetGlobalBuffer(c);
  LocalTensor<T> a2(TPosition::A2, 0, aFractals * kFractal),
      b2(TPosition::B2, 0, bFractals * kFractal);
  LoadData(a2, aGm, LoadData2DParams{0, static_cast<uint8_t>(aFractals), 1, 0, 0, false, 0});
  LoadData(b2, bGm, LoadData2DParams{0, static_cast<uint8_t>(bFractals), 1, 0, 0, false, 0});
  const uint32_t mPadded = (m + 15) / 16 * 16, nPadded = (n + 15) / 16 * 16;
  LocalTensor<float> bias1(TPosition::C1, 128 * 1024, nPadded), bias2(TPosition::C2, 0, nPadded);
  if (mode >= 2) {
    DataCopy(bias1, biasGm, nPadded);
    DataCopy(bias2, bias1, DataCopyParams{1, U16(nPadded * 4 / 64), 0, 0});
  }
  LocalTensor<C> c1(TPosition::CO1, 0, mPadded * nPadded);
  MmadParams p{U16(m), U16(n), U16(k), 0, mode == 2, mode <= 1};
  p.kDirectionAlign = kAlign != 0;
  std::feclearexcept(FE_ALL_EXCEPT);
  if constexpr (std::is_same_v<C, float>) {
    if (mode == 3) {
      Mmad(c1, a2, b2, bias2, p);
    } else {
      Mmad(c1, a2, b2, p);
    }
  } else {
    Mmad(c1, a2, b2, p);
  }
  if (mode == 1) {
    p.cmatrixInitVal = false;
    Mmad(c1, a2, b2, p);
  }
  flags[0] = std::fetestexcept(FE_INVALID | FE_OVERFLOW);
  Fixpipe(cGm, c1, FixpipeParamsV220{U16(n), U16(m), U16(mPadded), n, false});
}

extern "C" __global__ __cube__ void cube_raw_mmad_half(__gm__ half* a, __gm__ half* b,
                                                       __gm__ float* bias, __gm__ float* c,
                                                       __gm__ int32_t* flags, uint32_t m,
                                                       uint32_t n, uint32_t k, uint32_t aFractals,
                                                       uint32_t bFractals, uint32_t mode,
                                                       uint32_t kAlign) {
  RawMmad(a, b, bias, c, flags, m, n, k, aFractals, bFractals, mode, kAlign);
}
extern "C" __global__ __cube__ void cube_raw_mmad_bf16(__gm__ bfloat16_t* a, __gm__ bfloat16_t* b,
                                                       __gm__ float* bias, __gm__ float* c,
                                                       __gm__ int32_t* flags, uint32_t m,
                                                       uint32_t n, uint32_t k, uint32_t aFractals,
                                                       uint32_t bFractals, uint32_t mode,
                                                       uint32_t kAlign) {
  RawMmad(a, b, bias, c, flags, m, n, k, aFractals, bFractals, mode, kAlign);
}
extern "C" __global__ __cube__ void cube_raw_mmad_float(__gm__ float* a, __gm__ float* b,
                                                        __gm__ float* bias, __gm__ float* c,
                                                        __gm__ int32_t* flags, uint32_t m,
                                                        uint32_t n, uint32_t k, uint32_t aFractals,
                                                        uint32_t bFractals, uint32_t mode,
                                                        uint32_t kAlign) {
  RawMmad(a, b, bias, c, flags, m, n, k, aFractals, bFractals, mode, kAlign);
}
extern "C" __global__ __cube__ void cube_raw_mmad_int8(__gm__ int8_t* a, __gm__ int8_t* b,
                                                       __gm__ float* bias, __gm__ int32_t* c,
                                                       __gm__ int32_t* flags, uint32_t m,
                                                       uint32_t n, uint32_t k, uint32_t aFractals,
                                                       uint32_t bFractals, uint32_t mode,
                                                       uint32_t kAlign) {
  RawMmad(a, b, bias, c, flags, m, n, k, aFractals, bFractals, mode, kAlign);
}
NPUD_KERNEL_REGISTER_AS(cube_raw_mmad_half, NPUD_CORE_TYPE_CUBE);
NPUD_KERNEL_REGISTER_AS(cube_raw_mmad_bf16, NPUD_CORE_TYPE_CUBE);
NPUD_KERNEL_REGISTER_AS(cube_raw_mmad_float, NPUD_CORE_TYPE_CUBE);
NPUD_KERNEL_REGISTER_AS(cube_raw_mmad_int8, NPUD_CORE_TYPE_CUBE);

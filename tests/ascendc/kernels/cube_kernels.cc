// Cube path kernels: a GEMM through L1, L0A/L0B and L0C the way the asc-devkit
// basic matmul writes it (Nd2Nz DataCopy, LoadData, Mmad, Fixpipe), and the
// misuses that must fail the block.
#include "kernel_operator.h"

using namespace AscendC;

namespace {

constexpr uint32_t kBlock = 16;

// c[m x n] = a[m x k] * b[k x n] (all multiples of 16, one core), then Fixpipe to
// `Out` (half: F322F16; float: NoQuant). With `twice`, a second Mmad accumulates
// onto the first (cmatrixInitVal false): c = 2 * a * b.
template <class Out>
void Gemm(__gm__ half* a, __gm__ half* b, __gm__ Out* c, uint32_t m, uint32_t n, uint32_t k,
          bool relu, bool twice) {
  GlobalTensor<half> aGm, bGm;
  GlobalTensor<Out> cGm;
  aGm.SetGlobalBuffer(a);
  bGm.SetGlobalBuffer(b);
  cGm.SetGlobalBuffer(c);
  LocalMemAllocator<Hardware::L1> l1;
  LocalMemAllocator<Hardware::L0A> l0a;
  LocalMemAllocator<Hardware::L0B> l0b;
  LocalMemAllocator<Hardware::L0C> l0c;
  LocalTensor<half> a1 = l1.Alloc<TPosition::A1, half>(m * k);
  LocalTensor<half> b1 = l1.Alloc<TPosition::B1, half>(k * n);
  LocalTensor<half> a2 = l0a.Alloc<TPosition::A2, half>(m * k);
  LocalTensor<half> b2 = l0b.Alloc<TPosition::B2, half>(k * n);
  LocalTensor<float> c1 = l0c.Alloc<TPosition::CO1, float>(m * n);
  const auto u16 = [](uint32_t v) { return static_cast<uint16_t>(v); };
  DataCopy(a1, aGm, Nd2NzParams{1, u16(m), u16(k), 0, u16(k), u16(m), 1, 0});
  DataCopy(b1, bGm, Nd2NzParams{1, u16(k), u16(n), 0, u16(n), u16(k), 1, 0});
  for (uint32_t i = 0; i < m / kBlock; ++i) {
    LoadData(a2[i * k * kBlock], a1[i * 256],
             LoadData2DParams{0, static_cast<uint8_t>(k / kBlock), u16(m / kBlock), 0, 0, false, 0});
  }
  for (uint32_t i = 0; i < k / kBlock; ++i) {
    LoadData(b2[i * n * kBlock], b1[i * 256],
             LoadData2DParams{0, static_cast<uint8_t>(n / kBlock), u16(k / kBlock), 0, 0, true, 0});
  }
  Mmad(c1, a2, b2, MmadParams{u16(m), u16(n), u16(k), 0, false, true});
  if (twice) Mmad(c1, a2, b2, MmadParams{u16(m), u16(n), u16(k), 0, false, false});
  const QuantMode_t quant = sizeof(Out) == 2 ? QuantMode_t::F322F16 : QuantMode_t::NoQuant;
  Fixpipe(cGm, c1, FixpipeParamsV220{u16(n), u16(m), u16(m), n, relu, quant, 0, 1, 0, 0, 0});
}

}  // namespace

extern "C" __global__ __cube__ void cube_gemm_half(__gm__ half* a, __gm__ half* b, __gm__ half* c,
                                                   uint32_t m, uint32_t n, uint32_t k, uint32_t relu) {
  Gemm<half>(a, b, c, m, n, k, relu != 0, false);
}

extern "C" __global__ __cube__ void cube_gemm_float_twice(__gm__ half* a, __gm__ half* b,
                                                          __gm__ float* c, uint32_t m, uint32_t n,
                                                          uint32_t k) {
  Gemm<float>(a, b, c, m, n, k, false, true);
}

// Fixpipe to half without a conversion mode: not something the hardware does.
extern "C" __global__ __cube__ void cube_fixpipe_without_quant(__gm__ half* c) {
  GlobalTensor<half> cGm;
  cGm.SetGlobalBuffer(c);
  LocalMemAllocator<Hardware::L0C> l0c;
  LocalTensor<float> c1 = l0c.Alloc<TPosition::CO1, float>(256);
  Fixpipe(cGm, c1, FixpipeParamsV220{16, 16, 16, 16, false, QuantMode_t::NoQuant, 0, 1, 0, 0, 0});
}

// More than the 512 KiB of L1.
extern "C" __global__ __cube__ void cube_l1_overflow() {
  LocalMemAllocator<Hardware::L1> l1;
  l1.Alloc<TPosition::A1, half>(200 * 1024);
  l1.Alloc<TPosition::B1, half>(100 * 1024);
}

// ND -> NZ of two 5 x 20 matrices (a partial column block each) into L1 filled
// with -1 first; `out` gets the first 1024 elements of L1.
extern "C" __global__ __cube__ void cube_nd2nz_layout(__gm__ half* a, __gm__ half* out) {
  GlobalTensor<half> aGm, outGm;
  aGm.SetGlobalBuffer(a);
  outGm.SetGlobalBuffer(out);
  LocalMemAllocator<Hardware::L1> l1;
  LocalTensor<half> a1 = l1.Alloc<TPosition::A1, half>(1024);
  InitConstValue(a1, InitConstValueParams<half>{1, 64, 0, half(-1)});
  DataCopy(a1, aGm, Nd2NzParams{2, 5, 20, 120, 24, 6, 1, 200});
  for (uint32_t i = 0; i < 1024; ++i) outGm.SetValue(i, a1.GetValue(i));
}

// ND -> NZ into a tensor of one 16 x 16 fractal, with a second column block that
// lands past it (in L1 still, so only the tensor's size stops it).
extern "C" __global__ __cube__ void cube_nd2nz_past_tensor(__gm__ half* a) {
  GlobalTensor<half> aGm;
  aGm.SetGlobalBuffer(a);
  LocalMemAllocator<Hardware::L1> l1;
  LocalTensor<half> a1 = l1.Alloc<TPosition::A1, half>(256);
  DataCopy(a1, aGm, Nd2NzParams{1, 16, 32, 0, 32, 16, 1, 0});
}

// Fixpipe of 16 x 32 results from an L0C tensor of 16 x 16.
extern "C" __global__ __cube__ void cube_fixpipe_past_source(__gm__ float* c) {
  GlobalTensor<float> cGm;
  cGm.SetGlobalBuffer(c);
  LocalMemAllocator<Hardware::L0C> l0c;
  LocalTensor<float> c1 = l0c.Alloc<TPosition::CO1, float>(256);
  Fixpipe(cGm, c1, FixpipeParamsV220{32, 16, 16, 32, false});
}

NPUD_KERNEL_REGISTER_AS(cube_gemm_half, NPUD_CORE_TYPE_CUBE);
NPUD_KERNEL_REGISTER_AS(cube_nd2nz_layout, NPUD_CORE_TYPE_CUBE);
NPUD_KERNEL_REGISTER_AS(cube_nd2nz_past_tensor, NPUD_CORE_TYPE_CUBE);
NPUD_KERNEL_REGISTER_AS(cube_fixpipe_past_source, NPUD_CORE_TYPE_CUBE);
NPUD_KERNEL_REGISTER_AS(cube_gemm_float_twice, NPUD_CORE_TYPE_CUBE);
NPUD_KERNEL_REGISTER_AS(cube_fixpipe_without_quant, NPUD_CORE_TYPE_CUBE);
NPUD_KERNEL_REGISTER_AS(cube_l1_overflow, NPUD_CORE_TYPE_CUBE);

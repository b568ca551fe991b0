// Kernels of the advanced Matmul API (lib/matmul_intf.h): a cube kernel computing
// its cores' parts with IterateAll, and a mix kernel whose vector cores iterate the
// base blocks into the UB and add one before writing them out.
#include "kernel_operator.h"
#include "lib/matmul_intf.h"

using AscendC::TPosition;

template <bool kSync>
__aicore__ void MatmulAll(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c, TCubeTiling& tiling) {
  AscendC::GlobalTensor<half> ga, gb;
  AscendC::GlobalTensor<float> gbias, gc;
  ga.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(a));
  gb.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(b));
  gbias.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(bias));
  gc.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(c));
  matmul::Matmul<matmul::MatmulType<TPosition::GM, CubeFormat::ND, half>,
                 matmul::MatmulType<TPosition::GM, CubeFormat::ND, half>,
                 matmul::MatmulType<TPosition::GM, CubeFormat::ND, float>>
      mm;
  REGIST_MATMUL_OBJ(nullptr, GetSysWorkSpacePtr(), mm, &tiling);
  // Cores split M: this one has rows [idx * singleCoreM, ...).
  const uint64_t row = uint64_t(AscendC::GetBlockIdx()) * tiling.singleCoreM;
  mm.SetTensorA(ga[row * tiling.Ka]);
  mm.SetTensorB(gb[0]);
  if (tiling.isBias) mm.SetBias(gbias);
  mm.template IterateAll<kSync>(gc[row * tiling.N]);
  if (!kSync) mm.WaitIterateAll();
  mm.End();
}

extern "C" __global__ __cube__ void matmul_all(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c,
                                               TCubeTiling tiling) {
  MatmulAll<true>(a, b, bias, c, tiling);
}

// The asynchronous IterateAll, then WaitIterateAll.
extern "C" __global__ __cube__ void matmul_all_async(GM_ADDR a, GM_ADDR b, GM_ADDR bias,
                                                     GM_ADDR c, TCubeTiling tiling) {
  MatmulAll<false>(a, b, bias, c, tiling);
}

extern "C" __global__ __mix__(1, 2) void matmul_blocks_plus_one(GM_ADDR a, GM_ADDR b, GM_ADDR c,
                                                                TCubeTiling tiling) {
  AscendC::GlobalTensor<half> ga, gb;
  AscendC::GlobalTensor<float> gc;
  ga.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(a));
  gb.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(b));
  gc.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(c));
  AscendC::TPipe pipe;
  AscendC::TQue<TPosition::VECIN, 1> queue;
  matmul::Matmul<matmul::MatmulType<TPosition::GM, CubeFormat::ND, half>,
                 matmul::MatmulType<TPosition::GM, CubeFormat::ND, half>,
                 matmul::MatmulType<TPosition::VECIN, CubeFormat::ND, float>>
      mm;
  REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &tiling);
  // Cores split N: this one has columns [idx * singleCoreN, ...).
  const uint32_t col = AscendC::GetBlockIdx() * tiling.singleCoreN;
  mm.SetTensorA(ga);
  mm.SetTensorB(gb[col]);
  pipe.InitBuffer(queue, 1, tiling.baseM * tiling.baseN * sizeof(float));
  uint32_t round = 0;
  while (mm.Iterate()) {
    AscendC::LocalTensor<float> block = queue.AllocTensor<float>();
    mm.GetTensorC(block, 0, true);
    AscendC::Adds(block, block, 1.0f, tiling.baseM * tiling.baseN);
    for (int32_t r = 0; r < tiling.baseM; ++r) {
      for (int32_t j = 0; j < tiling.baseN; ++j) {
        gc.SetValue((uint64_t(round) * tiling.baseM + r) * tiling.N + col + j,
                    block.GetValue(r * tiling.baseN + j));
      }
    }
    queue.FreeTensor(block);
    ++round;
  }
  mm.End();
}

// CANN 9's spelling with a partial-output configuration: each Iterate is one baseK
// slice of a block, written densely to `slices` one after the other.
constexpr MatmulConfig PartialConfig() {
  MatmulConfig cfg = CFG_MDL;
  cfg.isPartialOutput = true;
  return cfg;
}
constexpr MatmulConfig kPartial = PartialConfig();

extern "C" __global__ __cube__ void matmul_partial_slices(GM_ADDR a, GM_ADDR b, GM_ADDR bias,
                                                          GM_ADDR slices, TCubeTiling tiling) {
  AscendC::GlobalTensor<half> ga, gb;
  AscendC::GlobalTensor<float> gbias, gs;
  ga.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(a));
  gb.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(b));
  gbias.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(bias));
  gs.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(slices));
  AscendC::Matmul<AscendC::MatmulType<TPosition::GM, CubeFormat::ND, half>,
                  AscendC::MatmulType<TPosition::GM, CubeFormat::ND, half>,
                  AscendC::MatmulType<TPosition::GM, CubeFormat::ND, float>,
                  AscendC::MatmulType<TPosition::GM, CubeFormat::ND, float>, kPartial>
      mm;
  REGIST_MATMUL_OBJ(nullptr, GetSysWorkSpacePtr(), mm, &tiling);
  mm.SetTensorA(ga);
  mm.SetTensorB(gb);
  mm.SetBias(gbias);
  uint32_t offset = 0;
  while (mm.Iterate()) {
    mm.GetTensorC(gs[offset], 0, true);
    offset += tiling.baseM * tiling.baseN;
  }
  mm.End();
}

// A tiling fixed at compile time (64 x 64 x 32 blocks): no TCubeTiling, the shapes
// from SetOrgShape and SetTail.
constexpr MatmulShapeParams kShapes = {128, 128, 64, 64, 64, 32};
constexpr MatmulApiStaticTiling ConstantTiling() {
  return AscendC::GetMatmulApiTiling<AscendC::MatmulType<TPosition::GM, CubeFormat::ND, half>,
                                     AscendC::MatmulType<TPosition::GM, CubeFormat::ND, half>,
                                     AscendC::MatmulType<TPosition::GM, CubeFormat::ND, float>,
                                     AscendC::MatmulType<TPosition::GM, CubeFormat::ND, float>>(
      GetMMConfig<MatmulConfigMode::CONFIG_MDL>(kShapes));
}
constexpr MatmulApiStaticTiling kConstant = ConstantTiling();

extern "C" __global__ __cube__ void matmul_constant(GM_ADDR a, GM_ADDR b, GM_ADDR c, int32_t m,
                                                    int32_t n, int32_t k) {
  AscendC::GlobalTensor<half> ga, gb;
  AscendC::GlobalTensor<float> gc;
  ga.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(a));
  gb.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(b));
  gc.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(c));
  AscendC::Matmul<AscendC::MatmulType<TPosition::GM, CubeFormat::ND, half>,
                  AscendC::MatmulType<TPosition::GM, CubeFormat::ND, half>,
                  AscendC::MatmulType<TPosition::GM, CubeFormat::ND, float>,
                  AscendC::MatmulType<TPosition::GM, CubeFormat::ND, float>, kConstant>
      mm;
  REGIST_MATMUL_OBJ(nullptr, GetSysWorkSpacePtr(), mm, (TCubeTiling*)nullptr);
  mm.SetOrgShape(m, n, k);
  mm.SetTail(m, n, k);
  mm.SetTensorA(ga);
  mm.SetTensorB(gb);
  mm.IterateAll(gc);
  mm.End();
}

// The asynchronous walk of a mix kernel: Iterate<false> once, then GetTensorC<false>
// per block into the UB; each block goes to C where the tiling's iterateOrder puts
// it (0: down M first). Every core marks `ran` after REGIST_MATMUL_OBJ: the cube
// core must not get there.
extern "C" __global__ __mix__(1, 2) void matmul_async_blocks(GM_ADDR a, GM_ADDR b, GM_ADDR c,
                                                             GM_ADDR ran, TCubeTiling tiling) {
  AscendC::GlobalTensor<half> ga, gb;
  AscendC::GlobalTensor<float> gc;
  ga.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(a));
  gb.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(b));
  gc.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(c));
  AscendC::TPipe pipe;
  AscendC::TQue<TPosition::VECIN, 1> queue;
  AscendC::Matmul<AscendC::MatmulType<TPosition::GM, CubeFormat::ND, half>,
                  AscendC::MatmulType<TPosition::GM, CubeFormat::ND, half>,
                  AscendC::MatmulType<TPosition::VECIN, CubeFormat::ND, float>>
      mm;
  REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &tiling);
  const int64_t slot = ASCEND_IS_AIC ? 3 * AscendC::GetBlockIdx()
                                     : 3 * (AscendC::GetBlockIdx() / 2) + 1 + AscendC::GetSubBlockIdx();
  reinterpret_cast<__gm__ int32_t*>(ran)[slot] = 1;
  const uint32_t col = AscendC::GetBlockIdx() * tiling.singleCoreN;
  mm.SetTensorA(ga);
  mm.SetTensorB(gb[col]);
  pipe.InitBuffer(queue, 1, tiling.baseM * tiling.baseN * sizeof(float));
  mm.template Iterate<false>();
  const uint32_t m_iters = tiling.singleCoreM / tiling.baseM;
  const uint32_t n_iters = tiling.singleCoreN / tiling.baseN;
  for (uint32_t i = 0; i < m_iters * n_iters; ++i) {
    AscendC::LocalTensor<float> block = queue.AllocTensor<float>();
    mm.template GetTensorC<false>(block);
    const uint32_t mi = tiling.iterateOrder != 1 ? i % m_iters : i / n_iters;
    const uint32_t ni = tiling.iterateOrder != 1 ? i / m_iters : i % n_iters;
    for (int32_t r = 0; r < tiling.baseM; ++r) {
      for (int32_t j = 0; j < tiling.baseN; ++j) {
        gc.SetValue((uint64_t(mi) * tiling.baseM + r) * tiling.N + col + ni * tiling.baseN + j,
                    block.GetValue(r * tiling.baseN + j));
      }
    }
    queue.FreeTensor(block);
  }
  mm.End();
}

NPUD_KERNEL_REGISTER_AS(matmul_partial_slices, NPUD_CORE_TYPE_CUBE);
NPUD_KERNEL_REGISTER_AS(matmul_constant, NPUD_CORE_TYPE_CUBE);
NPUD_KERNEL_REGISTER_AS(matmul_async_blocks, NPUD_CORE_TYPE_MIX);
NPUD_KERNEL_REGISTER_AS(matmul_all, NPUD_CORE_TYPE_CUBE);
NPUD_KERNEL_REGISTER_AS(matmul_all_async, NPUD_CORE_TYPE_CUBE);
NPUD_KERNEL_REGISTER_AS(matmul_blocks_plus_one, NPUD_CORE_TYPE_MIX);

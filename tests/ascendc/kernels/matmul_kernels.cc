// Kernels of the advanced Matmul API (lib/matmul_intf.h): a cube kernel computing
// its cores' parts with IterateAll, and a mix kernel whose vector cores iterate the
// base blocks into the UB and add one before writing them out.
#include "kernel_operator.h"
#include "lib/matmul_intf.h"

using AscendC::TPosition;

extern "C" __global__ __cube__ void matmul_all(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c,
                                               TCubeTiling tiling) {
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
  mm.IterateAll(gc[row * tiling.N]);
  mm.End();
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

NPUD_KERNEL_REGISTER_AS(matmul_all, NPUD_CORE_TYPE_CUBE);
NPUD_KERNEL_REGISTER_AS(matmul_blocks_plus_one, NPUD_CORE_TYPE_MIX);

// Kernels of the kernel benchmark.

#include "kernel_operator.h"
#include "lib/matmul_intf.h"

namespace {

constexpr int32_t kBufferNum = 2;
constexpr uint32_t kTile = 8192;  // floats per step (32 KiB)

}  // namespace

// z = x + y over n floats, AscendC style: tiles stream through the unified
// buffer with double-buffered queues and vector adds.
extern "C" __global__ __aicore__ void vector_add(GM_ADDR x, GM_ADDR y, GM_ADDR z, uint64_t n) {
  const uint64_t per_block = n / AscendC::GetBlockNum();
  const uint64_t offset = per_block * AscendC::GetBlockIdx();
  AscendC::GlobalTensor<float> gx, gy, gz;
  gx.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(x) + offset, per_block);
  gy.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(y) + offset, per_block);
  gz.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(z) + offset, per_block);
  AscendC::TPipe pipe;
  AscendC::TQue<AscendC::QuePosition::VECIN, kBufferNum> qx, qy;
  AscendC::TQue<AscendC::QuePosition::VECOUT, kBufferNum> qz;
  pipe.InitBuffer(qx, kBufferNum, kTile * sizeof(float));
  pipe.InitBuffer(qy, kBufferNum, kTile * sizeof(float));
  pipe.InitBuffer(qz, kBufferNum, kTile * sizeof(float));
  for (uint64_t done = 0; done < per_block; done += kTile) {
    AscendC::LocalTensor<float> lx = qx.AllocTensor<float>();
    AscendC::LocalTensor<float> ly = qy.AllocTensor<float>();
    AscendC::DataCopy(lx, gx[done], kTile);
    AscendC::DataCopy(ly, gy[done], kTile);
    qx.EnQue(lx);
    qy.EnQue(ly);
    lx = qx.DeQue<float>();
    ly = qy.DeQue<float>();
    AscendC::LocalTensor<float> lz = qz.AllocTensor<float>();
    AscendC::Add(lz, lx, ly, kTile);
    qz.EnQue(lz);
    qx.FreeTensor(lx);
    qy.FreeTensor(ly);
    lz = qz.DeQue<float>();
    AscendC::DataCopy(gz[done], lz, kTile);
    qz.FreeTensor(lz);
  }
}

extern "C" __global__ __aicore__ void empty() {}

// `rounds` hardware SyncAll barriers across the launch's blocks.
extern "C" __global__ __aicore__ void sync_rounds(uint32_t rounds) {
  for (uint32_t r = 0; r < rounds; ++r) AscendC::SyncAll();
}

// c[m x n] = a[m x k] * b[k x n] in half (float accumulation), the way a basic-API
// cube kernel does it: 128 x 128 tiles of C over the blocks, k in steps of 64
// through L1 (ND -> NZ), L0A / L0B (LoadData) and L0C (Mmad), then Fixpipe to GM.
// m and n are multiples of 128, k of 64.
extern "C" __global__ __cube__ void cube_gemm(GM_ADDR a, GM_ADDR b, GM_ADDR c, uint32_t m,
                                              uint32_t n, uint32_t k) {
  constexpr uint32_t kTileMN = 128, kTileK = 64, kBlock = 16;
  AscendC::GlobalTensor<half> ga, gb, gc;
  ga.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(a));
  gb.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(b));
  gc.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(c));
  AscendC::LocalMemAllocator<AscendC::Hardware::L1> l1;
  AscendC::LocalMemAllocator<AscendC::Hardware::L0A> l0a;
  AscendC::LocalMemAllocator<AscendC::Hardware::L0B> l0b;
  AscendC::LocalMemAllocator<AscendC::Hardware::L0C> l0c;
  auto a1 = l1.Alloc<AscendC::TPosition::A1, half>(kTileMN * kTileK);
  auto b1 = l1.Alloc<AscendC::TPosition::B1, half>(kTileK * kTileMN);
  auto a2 = l0a.Alloc<AscendC::TPosition::A2, half>(kTileMN * kTileK);
  auto b2 = l0b.Alloc<AscendC::TPosition::B2, half>(kTileK * kTileMN);
  auto c1 = l0c.Alloc<AscendC::TPosition::CO1, float>(kTileMN * kTileMN);
  const uint32_t tiles_n = n / kTileMN;
  const uint32_t tiles = m / kTileMN * tiles_n;
  const auto u16 = [](uint32_t v) { return static_cast<uint16_t>(v); };
  for (uint32_t t = AscendC::GetBlockIdx(); t < tiles; t += AscendC::GetBlockNum()) {
    const uint32_t row = t / tiles_n * kTileMN, col = t % tiles_n * kTileMN;
    for (uint32_t kk = 0; kk < k; kk += kTileK) {
      AscendC::DataCopy(
          a1, ga[uint64_t{row} * k + kk],
          AscendC::Nd2NzParams{1, u16(kTileMN), u16(kTileK), 0, u16(k), u16(kTileMN), 1, 0});
      AscendC::DataCopy(
          b1, gb[uint64_t{kk} * n + col],
          AscendC::Nd2NzParams{1, u16(kTileK), u16(kTileMN), 0, u16(n), u16(kTileK), 1, 0});
      for (uint32_t i = 0; i < kTileMN / kBlock; ++i) {
        AscendC::LoadData(
            a2[i * kTileK * kBlock], a1[i * 256],
            AscendC::LoadData2DParams{0, kTileK / kBlock, kTileMN / kBlock, 0, 0, false, 0});
      }
      for (uint32_t i = 0; i < kTileK / kBlock; ++i) {
        AscendC::LoadData(
            b2[i * kTileMN * kBlock], b1[i * 256],
            AscendC::LoadData2DParams{0, kTileMN / kBlock, kTileK / kBlock, 0, 0, true, 0});
      }
      AscendC::Mmad(
          c1, a2, b2,
          AscendC::MmadParams{u16(kTileMN), u16(kTileMN), u16(kTileK), 0, false, kk == 0});
    }
    AscendC::Fixpipe(gc[uint64_t{row} * n + col], c1,
                     AscendC::FixpipeParamsV220{u16(kTileMN), u16(kTileMN), u16(kTileMN), n, false,
                                                QuantMode_t::F322F16, 0, 1, 0, 0, 0});
  }
}

NPUD_KERNEL_REGISTER(vector_add);
// c = a * b with the advanced Matmul API: the tiling's cores split M and N;
// this block takes its singleCoreM x singleCoreN part.
extern "C" __global__ __cube__ void matmul_gemm(GM_ADDR a, GM_ADDR b, GM_ADDR c,
                                                TCubeTiling tiling) {
  AscendC::GlobalTensor<half> ga, gb;
  AscendC::GlobalTensor<float> gc;
  ga.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(a));
  gb.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(b));
  gc.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(c));
  matmul::Matmul<matmul::MatmulType<AscendC::TPosition::GM, CubeFormat::ND, half>,
                 matmul::MatmulType<AscendC::TPosition::GM, CubeFormat::ND, half>,
                 matmul::MatmulType<AscendC::TPosition::GM, CubeFormat::ND, float>>
      mm;
  REGIST_MATMUL_OBJ(nullptr, GetSysWorkSpacePtr(), mm, &tiling);
  const uint32_t n_dim = (tiling.N + tiling.singleCoreN - 1) / tiling.singleCoreN;
  const uint64_t mi = AscendC::GetBlockIdx() / n_dim, ni = AscendC::GetBlockIdx() % n_dim;
  // The last cores of each axis may have less (a tail), as CANN kernels handle it.
  const int32_t tail_m = std::min<int32_t>(tiling.singleCoreM, tiling.M - mi * tiling.singleCoreM);
  const int32_t tail_n = std::min<int32_t>(tiling.singleCoreN, tiling.N - ni * tiling.singleCoreN);
  mm.SetTail(tail_m, tail_n);
  mm.SetTensorA(ga[mi * tiling.singleCoreM * tiling.Ka]);
  mm.SetTensorB(gb[ni * tiling.singleCoreN]);
  mm.IterateAll(gc[mi * tiling.singleCoreM * tiling.N + ni * tiling.singleCoreN]);
  mm.End();
}

NPUD_KERNEL_REGISTER(empty);
NPUD_KERNEL_REGISTER(sync_rounds);
NPUD_KERNEL_REGISTER_AS(matmul_gemm, NPUD_CORE_TYPE_CUBE);
NPUD_KERNEL_REGISTER_AS(cube_gemm, NPUD_CORE_TYPE_CUBE);

// Kernels of the kernel benchmark.

#include "kernel_operator.h"

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

NPUD_KERNEL_REGISTER(vector_add);
NPUD_KERNEL_REGISTER(empty);

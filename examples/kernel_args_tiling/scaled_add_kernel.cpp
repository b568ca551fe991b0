// z = x * scale + y over float vectors, with the sizes and the scale passed
// the way CANN passes tiling data: through a placeholder argument that
// points at a small structure the runtime copies next to the arguments.

#include "kernel_operator.h"

#include "scaled_add_tiling.h"

extern "C" __global__ __aicore__ void scaled_add(GM_ADDR x, GM_ADDR y, GM_ADDR z,
                                                 GM_ADDR tiling_data) {
  const ScaledAddTiling tiling = *reinterpret_cast<__gm__ ScaledAddTiling*>(tiling_data);
  const uint32_t per_block = tiling.total / AscendC::GetBlockNum();
  const uint64_t offset = per_block * AscendC::GetBlockIdx();
  AscendC::GlobalTensor<float> gx, gy, gz;
  gx.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(x) + offset, per_block);
  gy.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(y) + offset, per_block);
  gz.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(z) + offset, per_block);

  AscendC::TPipe pipe;
  AscendC::TBuf<AscendC::QuePosition::VECCALC> buffer_x, buffer_y;
  pipe.InitBuffer(buffer_x, tiling.tile * sizeof(float));
  pipe.InitBuffer(buffer_y, tiling.tile * sizeof(float));
  AscendC::LocalTensor<float> lx = buffer_x.Get<float>();
  AscendC::LocalTensor<float> ly = buffer_y.Get<float>();
  for (uint32_t done = 0; done < per_block; done += tiling.tile) {
    AscendC::DataCopy(lx, gx[done], tiling.tile);
    AscendC::DataCopy(ly, gy[done], tiling.tile);
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::Muls(lx, lx, tiling.scale, tiling.tile);
    AscendC::Add(lx, lx, ly, tiling.tile);
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::DataCopy(gz[done], lx, tiling.tile);
  }
}

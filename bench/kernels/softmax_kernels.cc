// The kernel of the softmax benchmark (bench/softmax_bench.cc).

#include <algorithm>

#include "kernel_operator.h"

namespace {

constexpr int32_t kBufferNum = 2;
constexpr uint32_t kRows = 4;  // rows per tile

}  // namespace

// y = softmax(x) along each row of `cols` floats (cols a multiple of 8),
// AscendC style: every block takes an equal share of the rows; tiles of
// kRows rows (fewer at a share's end) stream through the unified buffer in
// double-buffered queues, and the advanced API's SoftMax computes each tile
// with its row sums and maxima.
extern "C" __global__ __aicore__ void softmax_rows(GM_ADDR x, GM_ADDR y, uint32_t rows,
                                                   uint32_t cols) {
  const uint64_t blocks = AscendC::GetBlockNum(), block = AscendC::GetBlockIdx();
  const uint64_t first = rows * block / blocks, end = rows * (block + 1) / blocks;
  AscendC::GlobalTensor<float> gx, gy;
  gx.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(x) + first * cols, (end - first) * cols);
  gy.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(y) + first * cols, (end - first) * cols);
  AscendC::TPipe pipe;
  AscendC::TQue<AscendC::QuePosition::VECIN, kBufferNum> qx;
  AscendC::TQue<AscendC::QuePosition::VECOUT, kBufferNum> qy;
  AscendC::TBuf<AscendC::TPosition::VECCALC> sums, maxima;
  pipe.InitBuffer(qx, kBufferNum, kRows * cols * sizeof(float));
  pipe.InitBuffer(qy, kBufferNum, kRows * cols * sizeof(float));
  // One 32-byte block per row for its sum and its maximum.
  pipe.InitBuffer(sums, kRows * 8 * sizeof(float));
  pipe.InitBuffer(maxima, kRows * 8 * sizeof(float));
  AscendC::LocalTensor<float> sum = sums.Get<float>();
  AscendC::LocalTensor<float> max = maxima.Get<float>();
  SoftMaxTiling tiling;
  for (uint64_t row = 0; row < end - first; row += kRows) {
    const uint32_t n = static_cast<uint32_t>(std::min<uint64_t>(kRows, end - first - row));
    AscendC::LocalTensor<float> lx = qx.AllocTensor<float>();
    AscendC::DataCopy(lx, gx[row * cols], n * cols);
    qx.EnQue(lx);
    lx = qx.DeQue<float>();
    AscendC::LocalTensor<float> ly = qy.AllocTensor<float>();
    const AscendC::SoftMaxShapeInfo shape{n, cols, n, cols};
    AscendC::SoftMax<float>(ly, sum, max, lx, tiling, shape);
    qy.EnQue(ly);
    qx.FreeTensor(lx);
    ly = qy.DeQue<float>();
    AscendC::DataCopy(gy[row * cols], ly, n * cols);
    qy.FreeTensor(ly);
  }
}

NPUD_KERNEL_REGISTER(softmax_rows);

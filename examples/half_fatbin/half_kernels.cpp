// Elementwise add, sub and mul of half-precision vectors, the AscendC way:
// each block moves its tile from global memory into the unified buffer,
// computes there with vector instructions, and copies the result back.

#include "kernel_operator.h"

namespace {

constexpr int32_t kBufferNum = 2;

enum class Op { kAdd, kSub, kMul };

template <Op kOp>
class Elementwise {
 public:
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR z, uint32_t total, uint32_t tile) {
    const uint32_t per_block = total / AscendC::GetBlockNum();
    const uint64_t offset = per_block * AscendC::GetBlockIdx();
    x_.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(x) + offset, per_block);
    y_.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(y) + offset, per_block);
    z_.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(z) + offset, per_block);
    tile_ = tile;
    tiles_ = per_block / tile;
    pipe_.InitBuffer(in_x_, kBufferNum, tile * sizeof(half));
    pipe_.InitBuffer(in_y_, kBufferNum, tile * sizeof(half));
    pipe_.InitBuffer(out_, kBufferNum, tile * sizeof(half));
  }

  __aicore__ inline void Process() {
    for (uint32_t i = 0; i < tiles_; ++i) {
      CopyIn(i);
      Compute();
      CopyOut(i);
    }
  }

 private:
  __aicore__ inline void CopyIn(uint32_t i) {
    AscendC::LocalTensor<half> x = in_x_.AllocTensor<half>();
    AscendC::LocalTensor<half> y = in_y_.AllocTensor<half>();
    AscendC::DataCopy(x, x_[i * tile_], tile_);
    AscendC::DataCopy(y, y_[i * tile_], tile_);
    in_x_.EnQue(x);
    in_y_.EnQue(y);
  }

  __aicore__ inline void Compute() {
    AscendC::LocalTensor<half> x = in_x_.DeQue<half>();
    AscendC::LocalTensor<half> y = in_y_.DeQue<half>();
    AscendC::LocalTensor<half> z = out_.AllocTensor<half>();
    if constexpr (kOp == Op::kAdd) AscendC::Add(z, x, y, tile_);
    if constexpr (kOp == Op::kSub) AscendC::Sub(z, x, y, tile_);
    if constexpr (kOp == Op::kMul) AscendC::Mul(z, x, y, tile_);
    out_.EnQue(z);
    in_x_.FreeTensor(x);
    in_y_.FreeTensor(y);
  }

  __aicore__ inline void CopyOut(uint32_t i) {
    AscendC::LocalTensor<half> z = out_.DeQue<half>();
    AscendC::DataCopy(z_[i * tile_], z, tile_);
    out_.FreeTensor(z);
  }

  AscendC::TPipe pipe_;
  AscendC::TQue<AscendC::QuePosition::VECIN, kBufferNum> in_x_, in_y_;
  AscendC::TQue<AscendC::QuePosition::VECOUT, kBufferNum> out_;
  AscendC::GlobalTensor<half> x_, y_, z_;
  uint32_t tile_ = 0;
  uint32_t tiles_ = 0;
};

}  // namespace

extern "C" __global__ __aicore__ void add_half(GM_ADDR x, GM_ADDR y, GM_ADDR z, uint32_t total,
                                               uint32_t tile) {
  Elementwise<Op::kAdd> op;
  op.Init(x, y, z, total, tile);
  op.Process();
}

extern "C" __global__ __aicore__ void sub_half(GM_ADDR x, GM_ADDR y, GM_ADDR z, uint32_t total,
                                               uint32_t tile) {
  Elementwise<Op::kSub> op;
  op.Init(x, y, z, total, tile);
  op.Process();
}

extern "C" __global__ __aicore__ void mul_half(GM_ADDR x, GM_ADDR y, GM_ADDR z, uint32_t total,
                                               uint32_t tile) {
  Elementwise<Op::kMul> op;
  op.Init(x, y, z, total, tile);
  op.Process();
}

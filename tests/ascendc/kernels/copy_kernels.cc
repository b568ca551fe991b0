// Data movement kernels: burst DataCopy with strides, local->local copies through a
// TQueBind, DataCopyPad, and atomic accumulation into GM from all blocks.
#include "kernel_operator.h"

using namespace AscendC;

// GM -> UB with DataCopyParams{count, len, srcStride, 0} (gathers the bursts), then
// UB -> UB (VECIN -> VECOUT) with the count form, then UB -> GM with
// DataCopyParams{count, len, 0, dstStride} (scatters them).
extern "C" __global__ __aicore__ void strided_copy(__gm__ float* src, __gm__ float* dst, uint16_t blockCount,
                                                   uint16_t blockLen, uint16_t srcStride, uint16_t dstStride)
{
    const uint32_t packed = uint32_t{blockCount} * blockLen * 8;  // floats: 8 per 32-byte block
    TPipe pipe;
    TQueBind<TPosition::VECIN, TPosition::VECOUT, 1> bind;
    TQue<QuePosition::VECOUT, 1> out;
    pipe.InitBuffer(bind, 1, packed * sizeof(float));
    pipe.InitBuffer(out, 1, packed * sizeof(float));
    GlobalTensor<float> srcGm;
    GlobalTensor<float> dstGm;
    srcGm.SetGlobalBuffer(src);
    dstGm.SetGlobalBuffer(dst);

    LocalTensor<float> gathered = bind.AllocTensor<float>();
    DataCopy(gathered, srcGm, DataCopyParams{blockCount, blockLen, srcStride, 0});
    bind.EnQue(gathered);
    gathered = bind.DeQue<float>();
    LocalTensor<float> copy = out.AllocTensor<float>();
    DataCopy(copy, gathered, packed);
    bind.FreeTensor(gathered);
    out.EnQue(copy);
    copy = out.DeQue<float>();
    DataCopyParams scatter;
    scatter.blockCount = blockCount;
    scatter.blockLen = blockLen;
    scatter.dstStride = dstStride;
    DataCopy(dstGm, copy, scatter);
    out.FreeTensor(copy);
}

// GM -> UB with DataCopyPad (rows of blockLen bytes, left/right padding with padValue),
// the whole padded UB region copied out to `rows` with the count form, and the data
// copied back unpadded to `back` with DataCopyPad UB -> GM.
extern "C" __global__ __aicore__ void pad_copy(__gm__ float* src, __gm__ float* rows, __gm__ float* back,
                                               uint32_t blockCount, uint32_t blockLen, uint32_t leftPad,
                                               uint32_t rightPad, float padValue, uint32_t rowsFloats)
{
    TPipe pipe;
    TBuf<TPosition::VECIN> buf;
    pipe.InitBuffer(buf, rowsFloats * sizeof(float));
    LocalTensor<float> local = buf.Get<float>();
    Duplicate(local, -1.0f, rowsFloats);
    GlobalTensor<float> srcGm;
    GlobalTensor<float> rowsGm;
    GlobalTensor<float> backGm;
    srcGm.SetGlobalBuffer(src);
    rowsGm.SetGlobalBuffer(rows);
    backGm.SetGlobalBuffer(back);
    DataCopyExtParams params{static_cast<uint16_t>(blockCount), blockLen, 0, 0, 0};
    DataCopyPadExtParams<float> pad{true, static_cast<uint8_t>(leftPad), static_cast<uint8_t>(rightPad), padValue};
    DataCopyPad(local, srcGm, params, pad);
    DataCopy(rowsGm, local, rowsFloats);
    // Back out: skip the left padding of the first row; rows are the padded length apart.
    const uint32_t rowBytes = (leftPad * 4 + blockLen + rightPad * 4 + 31) / 32 * 32;
    const uint32_t firstDataBytes = leftPad * 4;
    if (firstDataBytes % 32 == 0) {
        DataCopyExtParams outParams{static_cast<uint16_t>(blockCount), blockLen,
                                    (rowBytes - (blockLen + 31) / 32 * 32) / 32, 0, 0};
        DataCopyPad(backGm, local[leftPad], outParams);
    }
}

// Every block adds (block_idx + 1) to each of dst[0..n) with SetAtomicAdd, then
// overwrites nothing: the result is the initial value plus 1 + 2 + ... + block_num.
extern "C" __global__ __aicore__ void atomic_accumulate(__gm__ float* dst, uint32_t n)
{
    TPipe pipe;
    TQue<QuePosition::VECOUT, 1> out;
    pipe.InitBuffer(out, 1, n * sizeof(float));
    GlobalTensor<float> dstGm;
    dstGm.SetGlobalBuffer(dst, n);
    LocalTensor<float> values = out.AllocTensor<float>();
    Duplicate(values, static_cast<float>(GetBlockIdx() + 1), n);
    out.EnQue(values);
    values = out.DeQue<float>();
    SetAtomicAdd<float>();
    for (int repeat = 0; repeat < 50; ++repeat) {
        DataCopy(dstGm, values, n);
    }
    SetAtomicNone();
    out.FreeTensor(values);
}

// Each block's n elements GM -> L1 (an A1 queue, carved from L1 rather than the
// unified buffer) -> GM.
extern "C" __global__ __aicore__ void l1_roundtrip(__gm__ float* src, __gm__ float* dst, uint32_t n)
{
    TPipe pipe;
    TQue<QuePosition::A1, 1> l1;
    pipe.InitBuffer(l1, 1, n * sizeof(float));
    GlobalTensor<float> srcGm;
    GlobalTensor<float> dstGm;
    srcGm.SetGlobalBuffer(src + GetBlockIdx() * n, n);
    dstGm.SetGlobalBuffer(dst + GetBlockIdx() * n, n);
    LocalTensor<float> local = l1.AllocTensor<float>();
    DataCopy(local, srcGm, n);
    l1.EnQue(local);
    local = l1.DeQue<float>();
    DataCopy(dstGm, local, n);
    l1.FreeTensor(local);
}

NPUD_KERNEL_REGISTER(strided_copy);
NPUD_KERNEL_REGISTER(l1_roundtrip);
NPUD_KERNEL_REGISTER(pad_copy);
NPUD_KERNEL_REGISTER(atomic_accumulate);

// Data movement kernels: burst DataCopy with strides, local->local copies through a
// TQueBind, DataCopyPad, atomic accumulation into GM from all blocks, and the vector
// unit's masked Copy.
#include "kernel_operator.h"
#include "tests/ascendc/kernels/test_kernel_defs.h"

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

namespace {

// src (srcLen elements) and dst (dstLen elements, so lanes Copy leaves out keep the
// values the host put there) GM -> UB, Copy VECIN -> VECOUT, dst UB -> GM. The pipes
// are ordered with TQueSync rather than queues.
template <class T>
__aicore__ inline void UbCopy(__gm__ T* src, __gm__ T* dst, uint32_t srcLen, uint32_t dstLen, uint32_t maskMode,
                              uint64_t maskLow, uint64_t maskHigh, uint32_t repeatTime,
                              const CopyRepeatParams& params)
{
    TPipe pipe;
    TBuf<TPosition::VECIN> inBuf;
    TBuf<TPosition::VECOUT> outBuf;
    pipe.InitBuffer(inBuf, srcLen * sizeof(T));
    pipe.InitBuffer(outBuf, dstLen * sizeof(T));
    LocalTensor<T> in = inBuf.Get<T>();
    LocalTensor<T> out = outBuf.Get<T>();
    GlobalTensor<T> srcGm;
    GlobalTensor<T> dstGm;
    srcGm.SetGlobalBuffer(src, srcLen);
    dstGm.SetGlobalBuffer(dst, dstLen);
    DataCopy(in, srcGm, srcLen);
    DataCopy(out, dstGm, dstLen);

    TQueSync<PIPE_MTE2, PIPE_V> loaded;
    loaded.SetFlag(EVENT_ID0);
    loaded.WaitFlag(EVENT_ID0);
    const uint8_t repeats = static_cast<uint8_t>(repeatTime);
    if (maskMode == npud_test::kCopyBitMask) {
        const uint64_t mask[2] = {maskLow, maskHigh};
        Copy(out, in, mask, repeats, params);
    } else if (maskMode == npud_test::kCopyCounterMode) {
        SetMaskCount();
        SetVectorMask<T, MaskMode::COUNTER>(static_cast<int32_t>(maskLow));
        Copy<T, false>(out, in, MASK_PLACEHOLDER, repeats, params);
        SetMaskNorm();
        ResetMask();
    } else {
        Copy(out, in, maskLow, repeats, params);
    }
    TQueSync<PIPE_V, PIPE_MTE3> copied;
    copied.SetFlag(EVENT_ID1);
    copied.WaitFlag(EVENT_ID1);
    DataCopy(dstGm, out, dstLen);
}

}  // namespace

extern "C" __global__ __aicore__ void ub_copy_f32(__gm__ float* src, __gm__ float* dst, uint32_t srcLen,
                                                  uint32_t dstLen, uint32_t maskMode, uint64_t maskLow,
                                                  uint64_t maskHigh, uint32_t repeatTime, uint16_t dstStride,
                                                  uint16_t srcStride, uint16_t dstRepeatSize, uint16_t srcRepeatSize)
{
    UbCopy(src, dst, srcLen, dstLen, maskMode, maskLow, maskHigh, repeatTime,
           {dstStride, srcStride, dstRepeatSize, srcRepeatSize});
}

extern "C" __global__ __aicore__ void ub_copy_u16(__gm__ uint16_t* src, __gm__ uint16_t* dst, uint32_t srcLen,
                                                  uint32_t dstLen, uint32_t maskMode, uint64_t maskLow,
                                                  uint64_t maskHigh, uint32_t repeatTime, uint16_t dstStride,
                                                  uint16_t srcStride, uint16_t dstRepeatSize, uint16_t srcRepeatSize)
{
    UbCopy(src, dst, srcLen, dstLen, maskMode, maskLow, maskHigh, repeatTime,
           {dstStride, srcStride, dstRepeatSize, srcRepeatSize});
}

NPUD_KERNEL_REGISTER(strided_copy);
NPUD_KERNEL_REGISTER(l1_roundtrip);
NPUD_KERNEL_REGISTER(pad_copy);
NPUD_KERNEL_REGISTER(atomic_accumulate);
NPUD_KERNEL_REGISTER(ub_copy_f32);
NPUD_KERNEL_REGISTER(ub_copy_u16);

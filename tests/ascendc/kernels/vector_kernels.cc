// Vector kernels: TPipe/TQue pipelines (float and half), every element-wise op, Cast
// and the reductions.
#include "kernel_operator.h"
#include "tests/ascendc/kernels/test_kernel_defs.h"

namespace {

constexpr int32_t kBufferNum = 2;  // double buffering
constexpr int32_t kTileNum = 8;

// Float add over totalSize elements split evenly between the blocks, each block's
// slice in kTileNum * kBufferNum tiles (the shape of the runtime's kernel_add).
class FloatAddPipeline {
public:
    __aicore__ inline void Init(__gm__ float* a, __gm__ float* b, __gm__ float* dst, uint32_t totalSize)
    {
        using namespace AscendC;
        const uint32_t perBlock = totalSize / GetBlockNum();
        tileLength_ = perBlock / kTileNum / kBufferNum;
        const uint32_t start = GetBlockIdx() * perBlock;
        aGm_.SetGlobalBuffer(a + start, perBlock);
        bGm_.SetGlobalBuffer(b + start, perBlock);
        dstGm_.SetGlobalBuffer(dst + start, perBlock);
        pipe_.InitBuffer(inA_, kBufferNum, tileLength_ * sizeof(float));
        pipe_.InitBuffer(inB_, kBufferNum, tileLength_ * sizeof(float));
        pipe_.InitBuffer(out_, kBufferNum, tileLength_ * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        for (int32_t i = 0; i < kTileNum * kBufferNum; ++i) {
            CopyIn(i);
            Compute();
            CopyOut(i);
        }
    }

private:
    __aicore__ inline void CopyIn(int32_t tile)
    {
        AscendC::LocalTensor<float> a = inA_.AllocTensor<float>();
        AscendC::LocalTensor<float> b = inB_.AllocTensor<float>();
        AscendC::DataCopy(a, aGm_[tile * tileLength_], tileLength_);
        AscendC::DataCopy(b, bGm_[tile * tileLength_], tileLength_);
        inA_.EnQue(a);
        inB_.EnQue(b);
    }
    __aicore__ inline void Compute()
    {
        AscendC::LocalTensor<float> a = inA_.DeQue<float>();
        AscendC::LocalTensor<float> b = inB_.DeQue<float>();
        AscendC::LocalTensor<float> sum = out_.AllocTensor<float>();
        AscendC::Add(sum, a, b, tileLength_);
        out_.EnQue<float>(sum);
        inA_.FreeTensor(a);
        inB_.FreeTensor(b);
    }
    __aicore__ inline void CopyOut(int32_t tile)
    {
        AscendC::LocalTensor<float> sum = out_.DeQue<float>();
        AscendC::DataCopy(dstGm_[tile * tileLength_], sum, tileLength_);
        out_.FreeTensor(sum);
    }

    AscendC::TPipe pipe_;
    AscendC::TQue<AscendC::QuePosition::VECIN, kBufferNum> inA_;
    AscendC::TQue<AscendC::QuePosition::VECIN, kBufferNum> inB_;
    AscendC::TQue<AscendC::QuePosition::VECOUT, kBufferNum> out_;
    AscendC::GlobalTensor<float> aGm_;
    AscendC::GlobalTensor<float> bGm_;
    AscendC::GlobalTensor<float> dstGm_;
    uint32_t tileLength_ = 0;
};

// The same pipeline on half, GM_ADDR parameters, with a selectable binary op.
class HalfBinaryPipeline {
public:
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR z, uint32_t op, uint32_t totalLength)
    {
        op_ = op;
        const uint32_t perBlock = totalLength / AscendC::GetBlockNum();
        tileLength_ = perBlock / kTileNum / kBufferNum;
        xGm_.SetGlobalBuffer((__gm__ half*)x + perBlock * AscendC::GetBlockIdx(), perBlock);
        yGm_.SetGlobalBuffer((__gm__ half*)y + perBlock * AscendC::GetBlockIdx(), perBlock);
        zGm_.SetGlobalBuffer((__gm__ half*)z + perBlock * AscendC::GetBlockIdx(), perBlock);
        pipe_.InitBuffer(inX_, kBufferNum, tileLength_ * sizeof(half));
        pipe_.InitBuffer(inY_, kBufferNum, tileLength_ * sizeof(half));
        pipe_.InitBuffer(outZ_, kBufferNum, tileLength_ * sizeof(half));
    }
    __aicore__ inline void Process()
    {
        for (int32_t i = 0; i < kTileNum * kBufferNum; ++i) {
            AscendC::LocalTensor<half> x = inX_.AllocTensor<half>();
            AscendC::LocalTensor<half> y = inY_.AllocTensor<half>();
            AscendC::DataCopy(x, xGm_[i * tileLength_], tileLength_);
            AscendC::DataCopy(y, yGm_[i * tileLength_], tileLength_);
            inX_.EnQue(x);
            inY_.EnQue(y);

            x = inX_.DeQue<half>();
            y = inY_.DeQue<half>();
            AscendC::LocalTensor<half> z = outZ_.AllocTensor<half>();
            switch (op_) {
                case npud_test::kAdd: AscendC::Add(z, x, y, tileLength_); break;
                case npud_test::kSub: AscendC::Sub(z, x, y, tileLength_); break;
                case npud_test::kMul: AscendC::Mul(z, x, y, tileLength_); break;
                default: AscendC::Div(z, x, y, tileLength_); break;
            }
            outZ_.EnQue<half>(z);
            inX_.FreeTensor(x);
            inY_.FreeTensor(y);

            z = outZ_.DeQue<half>();
            AscendC::DataCopy(zGm_[i * tileLength_], z, tileLength_);
            outZ_.FreeTensor(z);
        }
    }

private:
    AscendC::TPipe pipe_;
    AscendC::TQue<AscendC::QuePosition::VECIN, kBufferNum> inX_;
    AscendC::TQue<AscendC::QuePosition::VECIN, kBufferNum> inY_;
    AscendC::TQue<AscendC::QuePosition::VECOUT, kBufferNum> outZ_;
    AscendC::GlobalTensor<half> xGm_;
    AscendC::GlobalTensor<half> yGm_;
    AscendC::GlobalTensor<half> zGm_;
    uint32_t op_ = 0;
    uint32_t tileLength_ = 0;
};

// One block, one shot: x, y -> z through TBuf scratch tensors.
template <class T>
__aicore__ inline void Elementwise(GM_ADDR x, GM_ADDR y, GM_ADDR z, uint32_t op, float scalar, uint32_t n)
{
    using namespace AscendC;
    TPipe pipe;
    TBuf<TPosition::VECCALC> xBuf;
    TBuf<TPosition::VECCALC> yBuf;
    TBuf<TPosition::VECCALC> zBuf;
    pipe.InitBuffer(xBuf, n * sizeof(T));
    pipe.InitBuffer(yBuf, n * sizeof(T));
    pipe.InitBuffer(zBuf, n * sizeof(T));
    GlobalTensor<T> xGm;
    GlobalTensor<T> yGm;
    GlobalTensor<T> zGm;
    xGm.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(x), n);
    yGm.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(y), n);
    zGm.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(z), n);
    LocalTensor<T> xl = xBuf.Get<T>();
    LocalTensor<T> yl = yBuf.Get<T>(n);
    LocalTensor<T> zl = zBuf.Get<T>();
    DataCopy(xl, xGm, n);
    DataCopy(yl, yGm, n);
    const T s = T(scalar);
    const int32_t count = n;
    switch (op) {
        case npud_test::kAdd: Add(zl, xl, yl, count); break;
        case npud_test::kSub: Sub(zl, xl, yl, count); break;
        case npud_test::kMul: Mul(zl, xl, yl, count); break;
        case npud_test::kDiv: Div(zl, xl, yl, count); break;
        case npud_test::kMax: Max(zl, xl, yl, count); break;
        case npud_test::kMin: Min(zl, xl, yl, count); break;
        case npud_test::kAddRelu: AddRelu(zl, xl, yl, count); break;
        case npud_test::kSubRelu: SubRelu(zl, xl, yl, count); break;
        case npud_test::kAdds: Adds(zl, xl, s, count); break;
        case npud_test::kMuls: Muls(zl, xl, s, count); break;
        case npud_test::kMaxs: Maxs(zl, xl, s, count); break;
        case npud_test::kMins: Mins(zl, xl, s, count); break;
        case npud_test::kLeakyRelu: LeakyRelu(zl, xl, s, count); break;
        case npud_test::kAxpy:
            DataCopy(zl, yl, n);
            Axpy(zl, xl, s, count);
            break;
        case npud_test::kAbs: Abs(zl, xl, count); break;
        case npud_test::kExp: Exp(zl, xl, count); break;
        case npud_test::kLn: Ln(zl, xl, count); break;
        case npud_test::kSqrt: Sqrt(zl, xl, count); break;
        case npud_test::kRsqrt: Rsqrt(zl, xl, count); break;
        case npud_test::kRelu: Relu(zl, xl, count); break;
        case npud_test::kReciprocal: Reciprocal(zl, xl, count); break;
        case npud_test::kNeg: Neg(zl, xl, count); break;
        case npud_test::kDuplicate: Duplicate(zl, s, count); break;
        default: trap();
    }
    PipeBarrier<PIPE_V>();
    DataCopy(zGm, zl, n);
}

template <class S, class D>
__aicore__ inline void CastVia(GM_ADDR src, GM_ADDR dst, AscendC::RoundMode mode, uint32_t n)
{
    using namespace AscendC;
    TPipe pipe;
    TQue<TPosition::VECIN, 1> in;
    TQue<TPosition::VECOUT, 1> out;
    pipe.InitBuffer(in, 1, n * sizeof(S));
    pipe.InitBuffer(out, 1, n * sizeof(D));
    GlobalTensor<S> srcGm;
    GlobalTensor<D> dstGm;
    srcGm.SetGlobalBuffer(reinterpret_cast<__gm__ S*>(src));
    dstGm.SetGlobalBuffer(reinterpret_cast<__gm__ D*>(dst));
    LocalTensor<S> s = in.AllocTensor<S>();
    DataCopy(s, srcGm, n);
    in.EnQue(s);
    s = in.DeQue<S>();
    LocalTensor<D> d = out.AllocTensor<D>();
    Cast(d, s, mode, n);
    out.EnQue(d);
    in.FreeTensor(s);
    d = out.DeQue<D>();
    DataCopy(dstGm, d, n);
    out.FreeTensor(d);
}

template <class T>
__aicore__ inline void Reduce(GM_ADDR x, GM_ADDR z, uint32_t op, uint32_t n)
{
    using namespace AscendC;
    constexpr uint32_t kResultElems = 32 / sizeof(T);
    TPipe pipe;
    TQue<TPosition::VECIN, 1> in;
    TQue<TPosition::VECOUT, 1> out;
    TBuf<> work;
    pipe.InitBuffer(in, 1, n * sizeof(T));
    pipe.InitBuffer(out, 1, 32);
    pipe.InitBuffer(work, n * sizeof(T));
    GlobalTensor<T> xGm;
    GlobalTensor<T> zGm;
    xGm.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(x), n);
    zGm.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(z), kResultElems);
    LocalTensor<T> xl = in.AllocTensor<T>();
    DataCopy(xl, xGm, n);
    in.EnQue(xl);
    xl = in.DeQue<T>();
    LocalTensor<T> zl = out.AllocTensor<T>();
    Duplicate(zl, T(0), kResultElems);
    LocalTensor<T> wl = work.Get<T>();
    switch (op) {
        case npud_test::kReduceSum: ReduceSum(zl, xl, wl, n); break;
        case npud_test::kReduceMax: ReduceMax(zl, xl, wl, n); break;
        case npud_test::kReduceMin: ReduceMin(zl, xl, wl, n); break;
        case npud_test::kReduceMaxIndex: ReduceMax(zl, xl, wl, n, true); break;
        default: ReduceMin(zl, xl, wl, n, true); break;
    }
    out.EnQue(zl);
    in.FreeTensor(xl);
    zl = out.DeQue<T>();
    DataCopy(zGm, zl, kResultElems);
    out.FreeTensor(zl);
}

}  // namespace

extern "C" __global__ __aicore__ void add_float_pipeline(__gm__ float* a, __gm__ float* b, __gm__ float* dst,
                                                         uint32_t totalSize)
{
    FloatAddPipeline op;
    op.Init(a, b, dst, totalSize);
    op.Process();
}

extern "C" __global__ __aicore__ void half_binary_pipeline(GM_ADDR x, GM_ADDR y, GM_ADDR z, uint32_t op,
                                                           uint32_t totalLength)
{
    HalfBinaryPipeline pipeline;
    pipeline.Init(x, y, z, op, totalLength);
    pipeline.Process();
}

extern "C" __global__ __aicore__ void elementwise_f32(GM_ADDR x, GM_ADDR y, GM_ADDR z, uint32_t op, float scalar,
                                                      uint32_t n)
{
    Elementwise<float>(x, y, z, op, scalar, n);
}

extern "C" __global__ __aicore__ void elementwise_f16(GM_ADDR x, GM_ADDR y, GM_ADDR z, uint32_t op, float scalar,
                                                      uint32_t n)
{
    Elementwise<half>(x, y, z, op, scalar, n);
}

extern "C" __global__ __aicore__ void cast_kernel(GM_ADDR src, GM_ADDR dst, uint32_t pair, uint32_t mode, uint32_t n)
{
    const AscendC::RoundMode roundMode = static_cast<AscendC::RoundMode>(mode);
    switch (pair) {
        case npud_test::kF32ToF16: CastVia<float, half>(src, dst, roundMode, n); break;
        case npud_test::kF16ToF32: CastVia<half, float>(src, dst, roundMode, n); break;
        case npud_test::kF32ToI32: CastVia<float, int32_t>(src, dst, roundMode, n); break;
        case npud_test::kI32ToF32: CastVia<int32_t, float>(src, dst, roundMode, n); break;
        case npud_test::kF16ToI32: CastVia<half, int32_t>(src, dst, roundMode, n); break;
        case npud_test::kI32ToF16: CastVia<int32_t, half>(src, dst, roundMode, n); break;
        case npud_test::kF32ToBf16: CastVia<float, bfloat16_t>(src, dst, roundMode, n); break;
        default: CastVia<bfloat16_t, float>(src, dst, roundMode, n); break;
    }
}

extern "C" __global__ __aicore__ void reduce_f32(GM_ADDR x, GM_ADDR z, uint32_t op, uint32_t n)
{
    Reduce<float>(x, z, op, n);
}

extern "C" __global__ __aicore__ void reduce_f16(GM_ADDR x, GM_ADDR z, uint32_t op, uint32_t n)
{
    Reduce<half>(x, z, op, n);
}

NPUD_KERNEL_REGISTER(add_float_pipeline);
NPUD_KERNEL_REGISTER(half_binary_pipeline);
NPUD_KERNEL_REGISTER(elementwise_f32);
NPUD_KERNEL_REGISTER(elementwise_f16);
NPUD_KERNEL_REGISTER(cast_kernel);
NPUD_KERNEL_REGISTER(reduce_f32);
NPUD_KERNEL_REGISTER(reduce_f16);

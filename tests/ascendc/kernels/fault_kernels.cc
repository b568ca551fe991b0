// Kernels that fail: trap instructions, UB overflow, misaligned copies and every queue
// misuse the library checks. Each must end its block through ctx->trap().
#include "kernel_operator.h"
#include "tests/ascendc/kernels/test_kernel_defs.h"

// The runtime samples' ErrorOP: an AI Core trap.
extern "C" __global__ __aicore__ void asm_trap() { asm("trap"); }

extern "C" __global__ __aicore__ void trap_call(__gm__ int32_t* reached)
{
    AscendC::printf("before trap %d\n", static_cast<int32_t>(block_idx));
    trap();
    *reached = 1;  // never runs
}

// A compiler barrier is not a trap.
extern "C" __global__ __aicore__ void asm_barrier(__gm__ int32_t* reached)
{
    asm("" ::: "memory");
    *reached = 1;
}

// Two buffers of bytesPerBuffer each from the unified buffer.
extern "C" __global__ __aicore__ void ub_claim(uint32_t bytesPerBuffer, __gm__ int32_t* reached)
{
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::QuePosition::VECIN, 2> queue;
    pipe.InitBuffer(queue, 2, bytesPerBuffer);
    *reached = 1;
}

// DataCopy of `count` halves GM -> UB (count * 2 bytes must be a multiple of 32).
extern "C" __global__ __aicore__ void copy_count(GM_ADDR x, uint32_t count)
{
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::QuePosition::VECIN, 1> queue;
    pipe.InitBuffer(queue, 1, 1024);
    AscendC::GlobalTensor<half> xGm;
    xGm.SetGlobalBuffer((__gm__ half*)x);
    AscendC::LocalTensor<half> local = queue.AllocTensor<half>();
    AscendC::DataCopy(local, xGm, count);
    queue.FreeTensor(local);
}

extern "C" __global__ __aicore__ void fault(uint32_t mode, GM_ADDR x)
{
    using namespace AscendC;
    TPipe pipe;
    TQue<QuePosition::VECIN, 1> queue;
    TQue<QuePosition::VECOUT, 1> other;
    GlobalTensor<float> xGm;
    xGm.SetGlobalBuffer((__gm__ float*)x);
    if (mode != npud_test::kQueueWithoutInit && mode != npud_test::kInitZeroLength &&
        mode != npud_test::kTooManyBuffers) {
        pipe.InitBuffer(queue, 2, 256);
        pipe.InitBuffer(other, 1, 256);
    }
    switch (mode) {
        case npud_test::kDeQueEmpty: {
            queue.DeQue<float>();
            break;
        }
        case npud_test::kEnQueBeyondDepth: {
            LocalTensor<float> a = queue.AllocTensor<float>();
            LocalTensor<float> b = queue.AllocTensor<float>();
            queue.EnQue(a);
            queue.EnQue(b);
            break;
        }
        case npud_test::kFreeTwice: {
            LocalTensor<float> a = queue.AllocTensor<float>();
            queue.FreeTensor(a);
            queue.FreeTensor(a);
            break;
        }
        case npud_test::kAllocExhausted: {
            queue.AllocTensor<float>();
            queue.AllocTensor<float>();
            queue.AllocTensor<float>();
            break;
        }
        case npud_test::kFreeWhileQueued: {
            LocalTensor<float> a = queue.AllocTensor<float>();
            queue.EnQue(a);
            queue.FreeTensor(a);
            break;
        }
        case npud_test::kEnQueForeignTensor: {
            LocalTensor<float> a = other.AllocTensor<float>();
            queue.EnQue(a);
            break;
        }
        case npud_test::kQueueWithoutInit: {
            queue.AllocTensor<float>();
            break;
        }
        case npud_test::kInitZeroLength: {
            pipe.InitBuffer(queue, 2, 0);
            break;
        }
        case npud_test::kTooManyBuffers: {
            TQue<QuePosition::VECIN, 1> queues[9];
            for (auto& q : queues) pipe.InitBuffer(q, 8, 32);
            break;
        }
        case npud_test::kVectorCountTooLarge: {
            LocalTensor<float> a = queue.AllocTensor<float>();
            Add(a, a, a, 65);  // the buffer holds 64 floats
            break;
        }
        case npud_test::kLocalIndexOutOfRange: {
            LocalTensor<float> a = queue.AllocTensor<float>();
            a.SetValue(64, 1.0f);
            break;
        }
        case npud_test::kUnsupportedAsm: {
            asm("nop");
            break;
        }
        case npud_test::kCopyBeyondTensor: {
            LocalTensor<float> a = queue.AllocTensor<float>();
            DataCopy(a, xGm, 72);
            break;
        }
        case npud_test::kMisalignedLocal: {
            LocalTensor<float> a = queue.AllocTensor<float>();
            DataCopy(a[4], xGm, 8);
            break;
        }
        case npud_test::kTBufTooSmall: {
            TBuf<> scratch;
            pipe.InitBuffer(scratch, 64);
            scratch.Get<float>(17);
            break;
        }
        case npud_test::kWaitFlagWithoutSet: {
            SetFlag<HardEvent::MTE2_V>(EVENT_ID1);  // another event id
            WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
            break;
        }
        case npud_test::kSecondWaitFlag: {
            TQueSync<PIPE_V, PIPE_MTE3> sync;
            sync.SetFlag(2);
            WaitFlag<HardEvent::V_MTE3>(2);  // the same counter: taken
            sync.WaitFlag(2);
            break;
        }
        default:
            break;
    }
}

NPUD_KERNEL_REGISTER(asm_trap);
NPUD_KERNEL_REGISTER(trap_call);
NPUD_KERNEL_REGISTER(asm_barrier);
NPUD_KERNEL_REGISTER(ub_claim);
NPUD_KERNEL_REGISTER(copy_count);
NPUD_KERNEL_REGISTER(fault);

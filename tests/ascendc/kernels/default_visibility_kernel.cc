// Built WITHOUT the kernel visibility options (default visibility, as a plain
// `g++ -std=c++17 -fPIC -shared` would): it must still compile warning-free with a
// global-namespace kernel class holding AscendC objects (the shape of the runtime's
// add_custom.cpp), keep its own block state and registry next to other kernel objects,
// define no STB_GNU_UNIQUE symbol, and stay unloadable.
#include "kernel_operator.h"

class KernelCopy {
public:
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y)
    {
        xGm.SetGlobalBuffer((__gm__ float*)x + 8 * AscendC::GetBlockIdx(), 8);
        yGm.SetGlobalBuffer((__gm__ float*)y + 8 * AscendC::GetBlockIdx(), 8);
        pipe.InitBuffer(queue, 1, 8 * sizeof(float));
    }
    __aicore__ inline void Process()
    {
        AscendC::LocalTensor<float> local = queue.AllocTensor<float>();
        AscendC::DataCopy(local, xGm, 8);
        AscendC::Adds(local, local, static_cast<float>(block_idx), 8);
        queue.EnQue(local);
        local = queue.DeQue<float>();
        AscendC::DataCopy(yGm, local, 8);
        queue.FreeTensor(local);
    }

private:
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::QuePosition::VECIN, 1> queue;
    AscendC::GlobalTensor<float> xGm;
    AscendC::GlobalTensor<float> yGm;
};

// y[8 * b + i] = x[8 * b + i] + b for every block b.
extern "C" __global__ __aicore__ void copy_plus_block(GM_ADDR x, GM_ADDR y)
{
    KernelCopy op;
    op.Init(x, y);
    op.Process();
}

NPUD_KERNEL_REGISTER(copy_plus_block);

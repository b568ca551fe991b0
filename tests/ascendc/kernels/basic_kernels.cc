// Scalar kernels: argument passing, block identity, plain GM loads and stores, the
// workspace pointers. Written in the style of the runtime samples (block_idx as a
// plain identifier, a file-wide `using namespace AscendC`, dcci under the 3510 guard).
#include "kernel_operator.h"
#include "tests/ascendc/kernels/test_kernel_defs.h"

using namespace AscendC;

// Each block writes every argument it received to out[block_idx].
extern "C" __global__ __aicore__ void args_probe(__gm__ uint8_t* out, float f, uint32_t u, int64_t i64, half h,
                                                 uint8_t byte, double d, __gm__ int32_t* ptr)
{
    __gm__ npud_test::ProbeRecord* record = reinterpret_cast<__gm__ npud_test::ProbeRecord*>(out) + block_idx;
    record->f = f;
    record->u = u;
    record->i64 = i64;
    record->half_bits = h.ToBits();
    record->byte = byte;
    record->d = d;
    record->ptr = reinterpret_cast<uint64_t>(ptr);
    record->ptr_value = *ptr;
}

extern "C" __global__ __aicore__ void no_args() {}

// out[4 * i + 0..3] = block_idx, block_num, GetBlockIdx(), GetBlockNum() of block i.
extern "C" __global__ __aicore__ void block_identity(__gm__ int64_t* out)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
    int32_t idx = block_idx;
    out[4 * idx + 0] = block_idx;
    out[4 * idx + 1] = block_num;
    out[4 * idx + 2] = GetBlockIdx();
    out[4 * idx + 3] = AscendC::GetBlockNum();
    if ASCEND_IS_AIC {
        out[4 * idx + 0] = -1;
    }
    PipeBarrier<PIPE_ALL>();
#if __NPU_ARCH__ == 3510
    dcci(reinterpret_cast<__gm__ int64_t*>(out), cache_line_t::ENTIRE_DATA_CACHE, dcci_dst_t::CACHELINE_OUT);
#endif
}

// x[block_idx] += 1
extern "C" __global__ __aicore__ void increment_own_slot(__gm__ uint32_t* x)
{
    int32_t idx = block_idx;
    x[idx] += 1;
    dcci(reinterpret_cast<__gm__ int64_t*>(x), cache_line_t::ENTIRE_DATA_CACHE, dcci_dst_t::CACHELINE_OUT);
}

// dst = a + alpha * b over all elements (every block does the whole loop).
extern "C" __global__ __aicore__ void scalar_axpy(__gm__ float* a, __gm__ float* b, __gm__ float* dst, float alpha,
                                                  uint32_t count)
{
    for (uint32_t i = 0; i < count; ++i) {
        dst[i] = a[i] + alpha * b[i];
    }
}

// out[3 * block_idx + 0..2]: GetSysWorkSpacePtr() before and after
// SetSysWorkspace(workspace), and GetUserWorkspace(workspace); then the block stores
// block_idx + 1 in word block_idx of the user workspace, if there is one.
extern "C" __global__ __aicore__ void workspace_pointers(GM_ADDR workspace, __gm__ uint64_t* out)
{
    const int32_t idx = block_idx;
    out[3 * idx + 0] = reinterpret_cast<uint64_t>(GetSysWorkSpacePtr());
    SetSysWorkspace(workspace);
    out[3 * idx + 1] = reinterpret_cast<uint64_t>(GetSysWorkSpacePtr());
    GM_ADDR user = GetUserWorkspace(workspace);
    out[3 * idx + 2] = reinterpret_cast<uint64_t>(user);
    if (user != nullptr) {
        reinterpret_cast<__gm__ uint32_t*>(user)[idx] = idx + 1;
    }
}

NPUD_KERNEL_REGISTER(args_probe);
NPUD_KERNEL_REGISTER(no_args);
NPUD_KERNEL_REGISTER(block_identity);
NPUD_KERNEL_REGISTER(increment_own_slot);
NPUD_KERNEL_REGISTER_AS(scalar_axpy, NPUD_CORE_TYPE_MIX);
NPUD_KERNEL_REGISTER(workspace_pointers);

// Kernels of the fatbin sample, launched by name (aclrtBinaryGetFunction).
#include "kernel_operator.h"

struct FillTiling {
    uint32_t count;
    uint16_t tag;
};

// out[i] = i * step, the elements split evenly over the blocks.
extern "C" __global__ __aicore__ void fill_sequence(GM_ADDR out, uint32_t count, float step)
{
    __gm__ float* values = reinterpret_cast<__gm__ float*>(out);
    const uint32_t per_block = count / static_cast<uint32_t>(AscendC::GetBlockNum());
    const uint32_t begin = per_block * static_cast<uint32_t>(AscendC::GetBlockIdx());
    for (uint32_t i = begin; i < begin + per_block; ++i) {
        values[i] = static_cast<float>(i) * step;
    }
#if __NPU_ARCH__ == 3510
    dcci(reinterpret_cast<__gm__ int64_t*>(out), cache_line_t::ENTIRE_DATA_CACHE, dcci_dst_t::CACHELINE_OUT);
#endif
}

extern "C" __global__ __aicore__ void tiled_marker(GM_ADDR out, FillTiling tiling, uint8_t flag)
{
    reinterpret_cast<__gm__ uint32_t*>(out)[0] = tiling.count + tiling.tag + flag;
}

extern "C" __global__ __aicore__ void no_args()
{
}

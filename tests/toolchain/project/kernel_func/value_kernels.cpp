// Kernels of the toolchain test's "mixed" sample: scalar GM stores and loads per block,
// a by-value tiling struct, a kernel without parameters, and the <<<>>> forms the
// runtime samples use (status dropped, status returned, multi-line, default stream).
// A comment mentioning Fake<<<1, nullptr, nullptr>>>() must not be rewritten.
#include "kernel_operator.h"
#include "value_ops.h"

extern "C" __global__ __aicore__ void StoreValue(__gm__ int32_t* slots, int32_t value)
{
    const int32_t block = static_cast<int32_t>(block_idx);
    slots[block] = value + block;
    AscendC::printf("Source data: %d\n", value + block);
}

extern "C" __global__ __aicore__ void ReadValue(__gm__ int32_t* slots)
{
    int32_t idx = block_idx;
    AscendC::printf("Destination data: %d\n", slots[idx]);
}

extern "C" __global__ __aicore__ void ScaleValues(__gm__ float* data, ScaleTiling tiling)
{
    const uint32_t per_block = tiling.count / static_cast<uint32_t>(AscendC::GetBlockNum());
    __gm__ float* mine = data + per_block * AscendC::GetBlockIdx();
    for (uint32_t i = 0; i < per_block; ++i) {
        mine[i] = mine[i] * tiling.factor + static_cast<float>(tiling.tag);
    }
}

extern "C" __global__ __aicore__ void SayHello()
{
    AscendC::printf("Hello from block %d of %d\n", static_cast<int32_t>(AscendC::GetBlockIdx()),
                    static_cast<int32_t>(AscendC::GetBlockNum()));
}

extern "C" __global__ __aicore__ void ReportArch(__gm__ int32_t* out)
{
    out[0] = __NPU_ARCH__;
}

void StoreDo(uint32_t blockDim, void* stream, int32_t* slots, int32_t value)
{
    StoreValue<<<blockDim, nullptr, stream>>>(slots, value);
}

void ReadDo(uint32_t blockDim, void* stream, int32_t* slots) { ReadValue<<<blockDim, nullptr, stream>>>(slots); }

int32_t StoreChecked(uint32_t blockDim, void* stream, int32_t* slots, int32_t value)
{
    return static_cast<int32_t>(StoreValue<<<blockDim, nullptr, stream>>>(slots, value));
}

int32_t ScaleDo(uint32_t blockDim, void* stream, float* data, ScaleTiling tiling)
{
    const char* note = "ScaleValues<<<n, 0, s>>>(x) in a string stays as it is";
    (void)note;
    return static_cast<int32_t>(ScaleValues
        <<<blockDim,
           0,
           stream>>>(data,
                     tiling));
}

int32_t HelloDo(uint32_t blockDim, void* stream)
{
    (void)stream;
    return static_cast<int32_t>(::SayHello<<<blockDim, nullptr, nullptr>>>());  // default stream
}

int32_t ArchDo(void* stream, int32_t* out) { return static_cast<int32_t>(ReportArch<<<1, nullptr, stream>>>(out)); }

// Host wrappers of value_kernels.cpp, declared plainly as the runtime samples'
// kernel_func/kernel_ops.h does: programs include this and link the kernel library.
#ifndef TOOLCHAIN_TEST_VALUE_OPS_H_
#define TOOLCHAIN_TEST_VALUE_OPS_H_

#include <cstdint>

struct ScaleTiling {
    uint32_t count;
    float factor;
    uint16_t tag;
};

// Launch status dropped, as the samples' WriteDo/ReadDo do.
void StoreDo(uint32_t blockDim, void* stream, int32_t* slots, int32_t value);
void ReadDo(uint32_t blockDim, void* stream, int32_t* slots);
// Launch status returned (0 = success), as VectorAddDo does.
int32_t StoreChecked(uint32_t blockDim, void* stream, int32_t* slots, int32_t value);
int32_t ScaleDo(uint32_t blockDim, void* stream, float* data, ScaleTiling tiling);
int32_t HelloDo(uint32_t blockDim, void* stream);
int32_t ArchDo(void* stream, int32_t* out);

#endif  // TOOLCHAIN_TEST_VALUE_OPS_H_

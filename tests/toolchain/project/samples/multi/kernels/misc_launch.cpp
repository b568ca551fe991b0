// OBJECT library of the multi sample, launch half: the kernel is defined in
// misc_kernel.cpp, another source of the same library.
#include "kernel_operator.h"

extern "C" __global__ __aicore__ void Negate(__gm__ int32_t* x, uint32_t n);

int32_t NegateDo(uint32_t blockDim, void* stream, int32_t* x, uint32_t n)
{
    return static_cast<int32_t>(Negate<<<blockDim, nullptr, stream>>>(x, n));
}

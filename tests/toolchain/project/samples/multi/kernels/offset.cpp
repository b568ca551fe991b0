// SHARED library of the multi sample: x[i] = x[i] + TOOLCHAIN_OFFSET.
#include "kernel_operator.h"

namespace {
class Worker {
public:
    __aicore__ explicit Worker(__gm__ int32_t* data) : data_(data) {}
    __aicore__ void Apply(uint32_t i) { data_[i] = data_[i] + TOOLCHAIN_OFFSET; }

private:
    __gm__ int32_t* data_;
};
}  // namespace

extern "C" __global__ __aicore__ void AddOffset(__gm__ int32_t* x, uint32_t n)
{
    Worker worker(x);
    for (uint32_t i = static_cast<uint32_t>(block_idx); i < n; i += static_cast<uint32_t>(block_num)) {
        worker.Apply(i);
    }
}

int32_t OffsetDo(uint32_t blockDim, void* stream, int32_t* x, uint32_t n)
{
    return static_cast<int32_t>(AddOffset<<<blockDim, nullptr, stream>>>(x, n));
}

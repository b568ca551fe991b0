// STATIC library of the multi sample: x[i] = 3 * x[i].
#include "kernel_operator.h"

static_assert(__NPU_ARCH__ == EXPECTED_NPU_ARCH, "SOC_VERSION ascend310p3 must give __NPU_ARCH__ 2002");

namespace {
class Worker {
public:
    __aicore__ explicit Worker(__gm__ int32_t* data) : data_(data) {}
    __aicore__ void Apply(uint32_t i) { data_[i] = data_[i] * 3; }

private:
    __gm__ int32_t* data_;
};
}  // namespace

extern "C" __global__ __aicore__ void Triple(__gm__ int32_t* x, uint32_t n)
{
    Worker worker(x);
    for (uint32_t i = static_cast<uint32_t>(block_idx); i < n; i += static_cast<uint32_t>(block_num)) {
        worker.Apply(i);
    }
}

// 1 if TOOLCHAIN_HOST_ONLY reached this compile: it must not in the kernel object.
extern "C" __global__ __aicore__ void HostOnlySeen(__gm__ int32_t* out)
{
#ifdef TOOLCHAIN_HOST_ONLY
    out[0] = 1;
#else
    out[0] = 0;
#endif
}

int32_t TripleDo(uint32_t blockDim, void* stream, int32_t* x, uint32_t n)
{
    return static_cast<int32_t>(Triple<<<blockDim, nullptr, stream>>>(x, n));
}

int32_t HostOnlySeenDo(void* stream, int32_t* out)
{
    return static_cast<int32_t>(HostOnlySeen<<<1, nullptr, stream>>>(out));
}

int32_t HostOnlyFlag()
{
#ifdef TOOLCHAIN_HOST_ONLY
    return 1;
#else
    return 0;
#endif
}

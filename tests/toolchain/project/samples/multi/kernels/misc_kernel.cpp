// OBJECT library of the multi sample, kernel half: x[i] = -x[i].
#include "kernel_operator.h"
#include "misc_helper.h"

namespace {
class Worker {
public:
    __aicore__ explicit Worker(__gm__ int32_t* data) : data_(data) {}
    __aicore__ void Apply(uint32_t i) { data_[i] = MiscNegate(data_[i]); }

private:
    __gm__ int32_t* data_;
};
}  // namespace

extern "C" __global__ __aicore__ void Negate(__gm__ int32_t* x, uint32_t n)
{
    Worker worker(x);
    for (uint32_t i = static_cast<uint32_t>(block_idx); i < n; i += static_cast<uint32_t>(block_num)) {
        worker.Apply(i);
    }
}

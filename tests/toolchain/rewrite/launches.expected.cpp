// Input of toolchain_rewrite_test: the <<<>>> rewrite and the kernel scan of
// npud-ascendc-scan source (not compiled). Expected results: launches.expected.cpp
// (the rewritten source without its #line directive) and launches.expected.kernels.
#include "kernel_operator.h"
// Not code: Commented<<<1, nullptr, s>>>(x); extern "C" __global__ void InComment() {}
/* Not code either:
   extern "C" __global__ __aicore__ void InBlockComment(int x) {}
   Launch<<<a, b, c>>>(); */
const char* kText = "Quoted<<<1, 2, 3>>>() and __global__ void InString() {}";
const char kQuote = '"';
const char kLess = '<';
const char* kRaw = R"tag(Raw<<<a, b, c>>>() )" __global__ void InRaw() {} )tag";
const long kBig = 1'000'000;
#define KERNEL_ATTRS extern "C" __global__ __aicore__
#if 0
extern "C" __global__ __aicore__ void Disabled(__gm__ int* x) { x[0] = 0; }
void DisabledDo(void* s) { Disabled<<<1, nullptr, s>>>(nullptr); }
#else
extern "C" __global__ __aicore__ void Enabled(__gm__ int* x) { x[0] = 1; }
#endif

extern "C" __global__ __aicore__ void Plain(__gm__ int* devPtr, int value)
{
    devPtr[block_idx] = value;
}

extern "C" __global__ __aicore__ void OnlyDeclared(__gm__ int* x);

extern "C" {
__global__ __aicore__ void InExternBlock(__gm__ float* x) { x[0] = 1.0f; }
}

extern "C" __global__ __cube__ void CubeKernel(GM_ADDR a) {}
extern "C" __global__ __mix__(1, 2) void MixKernel(GM_ADDR a) {}
__global__ __vector__ void CppLinkage(GM_ADDR a) {}

template <typename T, int N>
__global__ __aicore__ void Templated(__gm__ T* x) { x[0] = N; }

namespace inner {
extern "C" __global__ __aicore__ void Namespaced(__gm__ int* x) { x[0] = 2; }
}

struct Holder {
    static void Launch(void* s, int* p) { ::npud_ascendc_launch<(Plain)>("Plain", 2, nullptr, s)(p, 7); }
};

int32_t Wrappers(uint32_t blockDim, void* stream, int* p)
{
    ::npud_ascendc_launch<(Plain)>("Plain", blockDim, nullptr, stream)(p, 1);
    ::npud_ascendc_launch<(::Plain)>("Plain", blockDim,
        nullptr,
        stream )  (p,
                    2);
    ::npud_ascendc_launch<(Templated<float, (3 > 2)>)>("Templated<float, (3 > 2)>", blockDim, 0, stream)(nullptr);
    ::npud_ascendc_launch<(inner::Namespaced)>("inner::Namespaced", Count(a, b), Ctrl(c), streams[0])(p);
    auto later = [&]() { return ::npud_ascendc_launch<(Plain)>("Plain", 1, nullptr, stream)(p, 3); };
    (void)later;
    if (p != nullptr) return static_cast<int32_t>(::npud_ascendc_launch<(Plain)>("Plain", blockDim, nullptr, stream)(p, kBig > 1 ? 4 : 5));
    return static_cast<int32_t>(::npud_ascendc_launch<(Plain)>("Plain", blockDim, nullptr, nullptr)
        (p, 6));
}
int kLastLine = __LINE__;

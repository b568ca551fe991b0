// The "multi" toolchain sample: three kernel libraries in one program. Exit status: 0 =
// all checks passed, 77 = the runtime does not launch kernels, anything else = failure.
#include <cstdio>

#include "acl/acl.h"

int32_t TripleDo(uint32_t blockDim, void* stream, int32_t* x, uint32_t n);
int32_t HostOnlySeenDo(void* stream, int32_t* out);
int32_t HostOnlyFlag();
int32_t OffsetDo(uint32_t blockDim, void* stream, int32_t* x, uint32_t n);
int32_t NegateDo(uint32_t blockDim, void* stream, int32_t* x, uint32_t n);

namespace {

bool Check(aclError err, const char* what)
{
    if (err != ACL_SUCCESS) {
        std::printf("FAILED: %s returned %d\n", what, static_cast<int>(err));
        return false;
    }
    return true;
}

int Run(aclrtStream stream)
{
    if (HostOnlyFlag() != 1) {
        std::printf("FAILED: the host-only option did not reach the host compile\n");
        return 1;
    }
    constexpr uint32_t kCount = 40;
    int32_t host[kCount];
    for (uint32_t i = 0; i < kCount; ++i) host[i] = static_cast<int32_t>(i);
    int32_t* x = nullptr;
    if (!Check(aclrtMalloc(reinterpret_cast<void**>(&x), sizeof(host), ACL_MEM_MALLOC_HUGE_FIRST), "aclrtMalloc") ||
        !Check(aclrtMemcpy(x, sizeof(host), host, sizeof(host), ACL_MEMCPY_HOST_TO_DEVICE), "aclrtMemcpy")) {
        return 1;
    }
    const int32_t first = TripleDo(4, stream, x, kCount);
    if (first == ACL_ERROR_RT_FEATURE_NOT_SUPPORT) {
        std::printf("LAUNCH NOT SUPPORTED: Triple<<<>>> returned %d\n", first);
        return 77;
    }
    if (!Check(first, "Triple<<<>>>") || !Check(OffsetDo(3, stream, x, kCount), "AddOffset<<<>>>") ||
        !Check(NegateDo(5, stream, x, kCount), "Negate<<<>>>") ||
        !Check(aclrtSynchronizeStream(stream), "aclrtSynchronizeStream") ||
        !Check(aclrtMemcpy(host, sizeof(host), x, sizeof(host), ACL_MEMCPY_DEVICE_TO_HOST), "aclrtMemcpy")) {
        return 1;
    }
    for (uint32_t i = 0; i < kCount; ++i) {
        const int32_t want = -(3 * static_cast<int32_t>(i) + 1000);
        if (host[i] != want) {
            std::printf("FAILED: x[%u] is %d, expected %d\n", i, host[i], want);
            return 1;
        }
    }
    if (!Check(HostOnlySeenDo(stream, x), "HostOnlySeen<<<>>>") ||
        !Check(aclrtSynchronizeStream(stream), "aclrtSynchronizeStream") ||
        !Check(aclrtMemcpy(host, sizeof(int32_t), x, sizeof(int32_t), ACL_MEMCPY_DEVICE_TO_HOST), "aclrtMemcpy")) {
        return 1;
    }
    if (host[0] != 0) {
        std::printf("FAILED: the host-only option reached the kernel object\n");
        return 1;
    }
    aclrtFree(x);
    std::printf("MULTI OK\n");
    return 0;
}

}  // namespace

int main()
{
    if (!Check(aclInit(nullptr), "aclInit") || !Check(aclrtSetDevice(0), "aclrtSetDevice")) return 1;
    aclrtStream stream = nullptr;
    if (!Check(aclrtCreateStream(&stream), "aclrtCreateStream")) return 1;
    const int result = Run(stream);
    aclrtDestroyStreamForce(stream);
    aclrtResetDeviceForce(0);
    aclFinalize();
    return result;
}

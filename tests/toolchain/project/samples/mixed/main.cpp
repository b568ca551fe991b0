// The "mixed" toolchain sample: kernels launched with <<<>>> from a static kernel library;
// this program links only that library. Exit status: 0 = all checks passed, 77 = the
// runtime does not launch kernels (first launch returned ACL_ERROR_RT_FEATURE_NOT_SUPPORT),
// anything else = failure.
#include <cmath>
#include <cstdio>
#include <cstring>

#include "acl/acl.h"
#include "aclrtlaunch_StoreValue.h"
#include "kernel_func/value_ops.h"

namespace {

constexpr int kNotSupported = 77;

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
    constexpr uint32_t kSlots = 8;
    int32_t* slots = nullptr;
    if (!Check(aclrtMalloc(reinterpret_cast<void**>(&slots), kSlots * sizeof(int32_t), ACL_MEM_MALLOC_HUGE_FIRST),
               "aclrtMalloc")) {
        return 1;
    }
    const int32_t first = StoreChecked(4, stream, slots, 100);
    if (first == ACL_ERROR_RT_FEATURE_NOT_SUPPORT) {
        std::printf("LAUNCH NOT SUPPORTED: StoreValue<<<>>> returned %d\n", first);
        return kNotSupported;
    }
    if (!Check(first, "StoreValue<<<>>>")) return 1;
    StoreDo(4, stream, slots + 4, 200);
    if (!Check(aclrtSynchronizeStream(stream), "aclrtSynchronizeStream")) return 1;

    int32_t host[kSlots] = {};
    if (!Check(aclrtMemcpy(host, sizeof(host), slots, sizeof(host), ACL_MEMCPY_DEVICE_TO_HOST), "aclrtMemcpy")) return 1;
    for (uint32_t i = 0; i < kSlots; ++i) {
        const int32_t want = (i < 4 ? 100 : 200) + static_cast<int32_t>(i % 4);
        if (host[i] != want) {
            std::printf("FAILED: slot %u is %d, expected %d\n", i, host[i], want);
            return 1;
        }
    }
    ReadDo(1, stream, slots);
    if (!Check(aclrtSynchronizeStream(stream), "aclrtSynchronizeStream")) return 1;

    constexpr uint32_t kCount = 64;
    float values[kCount];
    for (uint32_t i = 0; i < kCount; ++i) values[i] = static_cast<float>(i);
    float* data = nullptr;
    if (!Check(aclrtMalloc(reinterpret_cast<void**>(&data), sizeof(values), ACL_MEM_MALLOC_HUGE_FIRST), "aclrtMalloc")) {
        return 1;
    }
    if (!Check(aclrtMemcpy(data, sizeof(values), values, sizeof(values), ACL_MEMCPY_HOST_TO_DEVICE), "aclrtMemcpy")) {
        return 1;
    }
    ScaleTiling tiling{kCount, 2.5f, 3};
    if (!Check(ScaleDo(4, stream, data, tiling), "ScaleValues<<<>>>")) return 1;
    if (!Check(HelloDo(3, stream), "SayHello<<<>>>")) return 1;
    if (!Check(aclrtSynchronizeDevice(), "aclrtSynchronizeDevice")) return 1;
    if (!Check(aclrtMemcpy(values, sizeof(values), data, sizeof(values), ACL_MEMCPY_DEVICE_TO_HOST), "aclrtMemcpy")) {
        return 1;
    }
    for (uint32_t i = 0; i < kCount; ++i) {
        const float want = static_cast<float>(i) * 2.5f + 3.0f;
        if (std::fabs(values[i] - want) > 1e-4f) {
            std::printf("FAILED: scaled value %u is %f, expected %f\n", i, values[i], want);
            return 1;
        }
    }

    if (!Check(ArchDo(stream, slots), "ReportArch<<<>>>")) return 1;
    if (!Check(aclrtSynchronizeStream(stream), "aclrtSynchronizeStream")) return 1;

    if (!Check(aclrtMemcpy(host, sizeof(int32_t), slots, sizeof(int32_t), ACL_MEMCPY_DEVICE_TO_HOST), "aclrtMemcpy")) {
        return 1;
    }
    std::printf("device __NPU_ARCH__: %d\n", host[0]);

    // The generated aclrtlaunch_StoreValue.h, as CANN's ascendc_library offers it.
    if (!Check(static_cast<aclError>(ACLRT_LAUNCH_KERNEL(StoreValue)(2, stream, slots, 300)),
               "ACLRT_LAUNCH_KERNEL(StoreValue)")) {
        return 1;
    }
    if (!Check(aclrtSynchronizeStream(stream), "aclrtSynchronizeStream")) return 1;
    if (!Check(aclrtMemcpy(host, sizeof(host), slots, sizeof(host), ACL_MEMCPY_DEVICE_TO_HOST), "aclrtMemcpy")) return 1;
    if (host[0] != 300 || host[1] != 301) {
        std::printf("FAILED: ACLRT_LAUNCH_KERNEL(StoreValue) stored %d, %d\n", host[0], host[1]);
        return 1;
    }
    aclrtFree(data);
    aclrtFree(slots);
    std::printf("MIXED OK\n");
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

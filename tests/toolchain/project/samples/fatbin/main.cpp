// The "fatbin" toolchain sample: loads the kernel object ascendc_fatbin_library built and
// launches a kernel by name with the kernel-args API. Run from this directory (the
// object is ./out/fatbin/fill_kernels/fill_kernels.o, as in the runtime samples).
// Exit status: 0 = all checks passed, 77 = the runtime does not load or launch kernels
// (ACL_ERROR_RT_FEATURE_NOT_SUPPORT), anything else = failure.
#include <cmath>
#include <cstdio>

#include "acl/acl.h"

namespace {

constexpr const char* kObject = "./out/fatbin/fill_kernels/fill_kernels.o";

// 1 = failed, 77 = not supported by the runtime, 0 = fine.
int Status(aclError err, const char* what)
{
    if (err == ACL_SUCCESS) return 0;
    if (err == ACL_ERROR_RT_FEATURE_NOT_SUPPORT) {
        std::printf("LAUNCH NOT SUPPORTED: %s returned %d\n", what, static_cast<int>(err));
        return 77;
    }
    std::printf("FAILED: %s returned %d\n", what, static_cast<int>(err));
    return 1;
}

int Run(aclrtStream stream)
{
    aclrtBinHandle binary = nullptr;
    int status = Status(aclrtBinaryLoadFromFile(kObject, nullptr, &binary), "aclrtBinaryLoadFromFile");
    if (status != 0) return status;
    aclrtFuncHandle fill = nullptr;
    if ((status = Status(aclrtBinaryGetFunction(binary, "fill_sequence", &fill), "aclrtBinaryGetFunction")) != 0) {
        return status;
    }
    aclrtFuncHandle other = nullptr;
    if ((status = Status(aclrtBinaryGetFunction(binary, "no_args", &other), "aclrtBinaryGetFunction")) != 0) {
        return status;
    }
    if (aclrtBinaryGetFunction(binary, "not_a_kernel", &other) == ACL_SUCCESS) {
        std::printf("FAILED: aclrtBinaryGetFunction found a kernel the object does not have\n");
        return 1;
    }

    constexpr uint32_t kCount = 256;
    constexpr uint32_t kBlocks = 8;
    void* out = nullptr;
    if ((status = Status(aclrtMalloc(&out, kCount * sizeof(float), ACL_MEM_MALLOC_HUGE_FIRST), "aclrtMalloc")) != 0) {
        return status;
    }
    uint32_t count = kCount;
    float step = 0.5f;
    aclrtArgsHandle args = nullptr;
    aclrtParamHandle param = nullptr;
    if ((status = Status(aclrtKernelArgsInit(fill, &args), "aclrtKernelArgsInit")) != 0 ||
        (status = Status(aclrtKernelArgsAppend(args, &out, sizeof(out), &param), "aclrtKernelArgsAppend")) != 0 ||
        (status = Status(aclrtKernelArgsAppend(args, &count, sizeof(count), &param), "aclrtKernelArgsAppend")) != 0 ||
        (status = Status(aclrtKernelArgsAppend(args, &step, sizeof(step), &param), "aclrtKernelArgsAppend")) != 0 ||
        (status = Status(aclrtKernelArgsFinalize(args), "aclrtKernelArgsFinalize")) != 0 ||
        (status = Status(aclrtLaunchKernelWithConfig(fill, kBlocks, stream, nullptr, args, nullptr),
                         "aclrtLaunchKernelWithConfig")) != 0 ||
        (status = Status(aclrtSynchronizeStream(stream), "aclrtSynchronizeStream")) != 0) {
        return status;
    }
    float values[kCount] = {};
    if ((status = Status(aclrtMemcpy(values, sizeof(values), out, sizeof(values), ACL_MEMCPY_DEVICE_TO_HOST),
                         "aclrtMemcpy")) != 0) {
        return status;
    }
    for (uint32_t i = 0; i < kCount; ++i) {
        if (std::fabs(values[i] - 0.5f * static_cast<float>(i)) > 1e-6f) {
            std::printf("FAILED: element %u is %f, expected %f\n", i, values[i], 0.5f * static_cast<float>(i));
            return 1;
        }
    }
    aclrtFree(out);
    if ((status = Status(aclrtBinaryUnLoad(binary), "aclrtBinaryUnLoad")) != 0) return status;
    std::printf("FATBIN OK\n");
    return 0;
}

}  // namespace

int main()
{
    if (aclInit(nullptr) != ACL_SUCCESS || aclrtSetDevice(0) != ACL_SUCCESS) {
        std::printf("FAILED: aclInit/aclrtSetDevice\n");
        return 1;
    }
    aclrtStream stream = nullptr;
    if (aclrtCreateStream(&stream) != ACL_SUCCESS) {
        std::printf("FAILED: aclrtCreateStream\n");
        return 1;
    }
    const int result = Run(stream);
    aclrtDestroyStreamForce(stream);
    aclrtResetDeviceForce(0);
    aclFinalize();
    return result;
}

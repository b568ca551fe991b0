// Loads the kernel object of fill.asc by path and launches fill_values by name.
#include <cstdint>
#include <cstdio>

#include "acl/acl.h"

int main() {
  constexpr uint32_t kBlocks = 4;
  aclrtBinHandle binary = nullptr;
  aclrtFuncHandle fill = nullptr;
  aclrtStream stream = nullptr;
  void* dev = nullptr;
  if (aclInit(nullptr) != ACL_SUCCESS || aclrtSetDevice(0) != ACL_SUCCESS ||
      aclrtCreateStream(&stream) != ACL_SUCCESS ||
      aclrtBinaryLoadFromFile(KERNEL_OBJECT, nullptr, &binary) != ACL_SUCCESS ||
      aclrtBinaryGetFunction(binary, "fill_values", &fill) != ACL_SUCCESS ||
      aclrtMalloc(&dev, kBlocks * sizeof(int32_t), ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS) {
    std::printf("setting up failed\n");
    return 1;
  }
  struct {
    void* out;
    int32_t value;
  } args{dev, 40};
  int32_t host[kBlocks] = {};
  if (aclrtLaunchKernelWithHostArgs(fill, kBlocks, stream, nullptr, &args, sizeof(args), nullptr,
                                    0) != ACL_SUCCESS ||
      aclrtSynchronizeStream(stream) != ACL_SUCCESS ||
      aclrtMemcpy(host, sizeof(host), dev, sizeof(host), ACL_MEMCPY_DEVICE_TO_HOST) !=
          ACL_SUCCESS) {
    std::printf("the launch failed\n");
    return 1;
  }
  for (uint32_t i = 0; i < kBlocks; ++i) {
    if (host[i] != 40 + static_cast<int32_t>(i)) {
      std::printf("block %u wrote %d\n", i, host[i]);
      return 1;
    }
  }
  aclrtFree(dev);
  aclrtBinaryUnLoad(binary);
  aclrtDestroyStream(stream);
  aclrtResetDevice(0);
  aclFinalize();
  std::printf("fatbin: PASS\n");
  return 0;
}

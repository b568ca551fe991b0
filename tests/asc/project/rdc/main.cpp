// Runs the kernel of launch.asc, whose device code is linked with scale.asc's.
#include <cstdint>
#include <cstdio>

#include "acl/acl.h"

uint32_t RunScaleAll(int32_t* data, uint32_t blocks, int32_t factor, aclrtStream stream);

int main() {
  constexpr uint32_t kBlocks = 6;
  int32_t host[kBlocks];
  for (uint32_t i = 0; i < kBlocks; ++i) host[i] = static_cast<int32_t>(i) - 2;
  void* dev = nullptr;
  aclrtStream stream = nullptr;
  if (aclInit(nullptr) != ACL_SUCCESS || aclrtSetDevice(0) != ACL_SUCCESS ||
      aclrtCreateStream(&stream) != ACL_SUCCESS ||
      aclrtMalloc(&dev, sizeof(host), ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS ||
      aclrtMemcpy(dev, sizeof(host), host, sizeof(host), ACL_MEMCPY_HOST_TO_DEVICE) !=
          ACL_SUCCESS ||
      RunScaleAll(static_cast<int32_t*>(dev), kBlocks, 5, stream) != 0 ||
      aclrtSynchronizeStream(stream) != ACL_SUCCESS ||
      aclrtMemcpy(host, sizeof(host), dev, sizeof(host), ACL_MEMCPY_DEVICE_TO_HOST) !=
          ACL_SUCCESS) {
    std::printf("an ACL call failed\n");
    return 1;
  }
  for (uint32_t i = 0; i < kBlocks; ++i) {
    if (host[i] != (static_cast<int32_t>(i) - 2) * 5 + 1) {
      std::printf("element %u is %d\n", i, host[i]);
      return 1;
    }
  }
  aclrtFree(dev);
  aclrtDestroyStream(stream);
  aclrtResetDevice(0);
  aclFinalize();
  std::printf("rdc: PASS\n");
  return 0;
}

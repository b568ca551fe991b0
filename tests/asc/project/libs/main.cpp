// A C++ program linking an ASC static and an ASC shared library (the CMake ASC
// language links it, as the libraries propagate their linker language).
#include <cstdint>
#include <cstdio>
#include <vector>

#include "acl/acl.h"

uint32_t RunNegate(int32_t* data, uint32_t blocks, uint32_t per_block, aclrtStream stream);
uint32_t RunScale(int32_t* data, uint32_t blocks, uint32_t per_block, aclrtStream stream);

int main() {
  constexpr uint32_t kBlocks = 4, kPerBlock = 64, kCount = kBlocks * kPerBlock;
  if (aclInit(nullptr) != ACL_SUCCESS || aclrtSetDevice(0) != ACL_SUCCESS) return 1;
  aclrtStream stream = nullptr;
  if (aclrtCreateStream(&stream) != ACL_SUCCESS) return 1;
  std::vector<int32_t> host(kCount);
  for (uint32_t i = 0; i < kCount; ++i) host[i] = static_cast<int32_t>(i);
  void* dev = nullptr;
  const size_t bytes = kCount * sizeof(int32_t);
  if (aclrtMalloc(&dev, bytes, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS ||
      aclrtMemcpy(dev, bytes, host.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE) != ACL_SUCCESS) {
    return 1;
  }
  int32_t* data = static_cast<int32_t*>(dev);
  if (RunNegate(data, kBlocks, kPerBlock, stream) != 0 ||
      RunScale(data, kBlocks, kPerBlock, stream) != 0 ||
      aclrtSynchronizeStream(stream) != ACL_SUCCESS ||
      aclrtMemcpy(host.data(), bytes, dev, bytes, ACL_MEMCPY_DEVICE_TO_HOST) != ACL_SUCCESS) {
    std::printf("a launch or copy failed\n");
    return 1;
  }
  for (uint32_t i = 0; i < kCount; ++i) {
    if (host[i] != -3 * static_cast<int32_t>(i)) {
      std::printf("element %u is %d, expected %d\n", i, host[i], -3 * static_cast<int32_t>(i));
      return 1;
    }
  }
  aclrtFree(dev);
  aclrtDestroyStream(stream);
  aclrtResetDevice(0);
  aclFinalize();
  std::printf("libs: PASS\n");
  return 0;
}

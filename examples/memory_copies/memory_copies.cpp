// memory_copies: the flows of CANN's memory samples (host-to-host,
// host-to-device, device-to-host, device-to-device; synchronous and on a
// stream), each checked byte for byte. Exit status 0 means every flow
// passed.
//
// Build against an install tree (after sourcing its set_env.sh):
//   g++ -std=c++17 -Wall -Werror memory_copies.cpp -I$ASCEND_HOME_PATH/include
//       -L$ASCEND_HOME_PATH/lib64 -lacl_rt -o memory_copies

#include <cstdio>
#include <cstdlib>
#include <algorithm>
#include <cstring>
#include <vector>

#include "acl/acl.h"

namespace {

int failures = 0;

#define CHECK_ACL(call)                                                          \
  do {                                                                           \
    aclError err_ = (call);                                                      \
    if (err_ != ACL_SUCCESS) {                                                   \
      std::fprintf(stderr, "%s:%d: %s failed: %d\n", __FILE__, __LINE__, #call,  \
                   err_);                                                        \
      std::exit(1);                                                              \
    }                                                                            \
  } while (0)

void Report(const char* flow, bool ok) {
  std::printf("[%s] %s\n", ok ? "PASS" : "FAIL", flow);
  if (!ok) ++failures;
}

void Fill(std::vector<unsigned char>& bytes, unsigned seed) {
  for (size_t i = 0; i < bytes.size(); ++i) bytes[i] = static_cast<unsigned char>(seed + i * 31);
}

}  // namespace

int main() {
  CHECK_ACL(aclInit(nullptr));
  uint32_t devices = 0;
  CHECK_ACL(aclrtGetDeviceCount(&devices));
  std::printf("devices: %u, SoC: %s\n", devices, aclrtGetSocName());
  CHECK_ACL(aclrtSetDevice(0));
  aclrtStream stream = nullptr;
  CHECK_ACL(aclrtCreateStream(&stream));

  // 3 MiB + a few bytes: crosses the 1 MiB chunking of remote copies.
  const size_t size = 3 * 1024 * 1024 + 123;
  std::vector<unsigned char> source(size), result(size);
  Fill(source, 7);

  // Host to host, through pinned host memory.
  int* pinned = nullptr;
  CHECK_ACL(aclrtMallocHost(reinterpret_cast<void**>(&pinned), sizeof(int)));
  int value = 42;
  CHECK_ACL(aclrtMemcpy(pinned, sizeof(int), &value, sizeof(int), ACL_MEMCPY_HOST_TO_HOST));
  Report("h2h sync", *pinned == 42);
  CHECK_ACL(aclrtFreeHost(pinned));

  void* devA = nullptr;
  void* devB = nullptr;
  CHECK_ACL(aclrtMalloc(&devA, size, ACL_MEM_MALLOC_HUGE_FIRST));
  CHECK_ACL(aclrtMalloc(&devB, size, ACL_MEM_MALLOC_HUGE_FIRST));

  // Host to device and back, synchronous.
  CHECK_ACL(aclrtMemcpy(devA, size, source.data(), size, ACL_MEMCPY_HOST_TO_DEVICE));
  CHECK_ACL(aclrtMemcpy(result.data(), size, devA, size, ACL_MEMCPY_DEVICE_TO_HOST));
  Report("h2d + d2h sync", result == source);

  // Device to device, synchronous.
  std::fill(result.begin(), result.end(), 0);
  CHECK_ACL(aclrtMemcpy(devB, size, devA, size, ACL_MEMCPY_DEVICE_TO_DEVICE));
  CHECK_ACL(aclrtMemcpy(result.data(), size, devB, size, ACL_MEMCPY_DEVICE_TO_HOST));
  Report("d2d sync", result == source);

  // The same on a stream.
  Fill(source, 99);
  std::fill(result.begin(), result.end(), 0);
  CHECK_ACL(aclrtMemcpyAsync(devA, size, source.data(), size, ACL_MEMCPY_HOST_TO_DEVICE, stream));
  CHECK_ACL(aclrtMemcpyAsync(devB, size, devA, size, ACL_MEMCPY_DEVICE_TO_DEVICE, stream));
  CHECK_ACL(aclrtMemcpyAsync(result.data(), size, devB, size, ACL_MEMCPY_DEVICE_TO_HOST, stream));
  CHECK_ACL(aclrtSynchronizeStream(stream));
  Report("h2d + d2d + d2h async", result == source);

  // Memset, synchronous and on a stream.
  CHECK_ACL(aclrtMemset(devA, size, 0x5A, size));
  CHECK_ACL(aclrtMemcpy(result.data(), size, devA, size, ACL_MEMCPY_DEVICE_TO_HOST));
  Report("memset sync", std::all_of(result.begin(), result.end(), [](unsigned char c) { return c == 0x5A; }));
  CHECK_ACL(aclrtMemsetAsync(devA, size, 0x21, size / 2, stream));
  CHECK_ACL(aclrtMemcpyAsync(result.data(), size, devA, size, ACL_MEMCPY_DEVICE_TO_HOST, stream));
  CHECK_ACL(aclrtSynchronizeStream(stream));
  bool halves = true;
  for (size_t i = 0; i < size; ++i) halves &= result[i] == (i < size / 2 ? 0x21 : 0x5A);
  Report("memset async", halves);

  // Device to device across devices, when there are two.
  if (devices >= 2) {
    CHECK_ACL(aclrtSetDevice(1));
    void* other = nullptr;
    CHECK_ACL(aclrtMalloc(&other, size, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ACL(aclrtMemcpy(devA, size, source.data(), size, ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK_ACL(aclrtMemcpy(other, size, devA, size, ACL_MEMCPY_DEVICE_TO_DEVICE));
    std::fill(result.begin(), result.end(), 0);
    CHECK_ACL(aclrtMemcpy(result.data(), size, other, size, ACL_MEMCPY_DEVICE_TO_HOST));
    Report("d2d across devices", result == source);
    CHECK_ACL(aclrtFree(other));
    CHECK_ACL(aclrtResetDeviceForce(1));
    CHECK_ACL(aclrtSetDevice(0));
  }

  CHECK_ACL(aclrtFree(devA));
  CHECK_ACL(aclrtFree(devB));
  CHECK_ACL(aclrtDestroyStreamForce(stream));
  CHECK_ACL(aclrtResetDeviceForce(0));
  CHECK_ACL(aclFinalize());
  std::printf("%s\n", failures == 0 ? "[SUCCESS] all memory flows passed" : "[FAILURE]");
  return failures == 0 ? 0 : 1;
}

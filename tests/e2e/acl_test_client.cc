// acl_test_client: a separate client process for multi-process tests. The
// daemon comes from NPUD_ADDRESS. Scenarios (argv[1]):
//   flows             copy round trips on device 0; exit 0 if all bytes match
//   hold BYTES        allocate BYTES on device 0, fill them, print
//                     "ADDR <hex>"; then, for each "check" line on stdin,
//                     print "INTACT 1" if the bytes are unchanged (else
//                     "INTACT 0"); runs until stdin closes or it is killed
//   meminfo           print "FREE <bytes>" of device 0
//   poke ADDR         try to free and write another process's address;
//                     print the two error codes "CODES <free> <memcpy>"
//   before-init       use the runtime before aclInit, then the finalize
//                     sequence; print "CODES ..." of each step
//   trap KERNELS N    launch the trapping kernel of the kernel object
//                     KERNELS N times; print "CODES <sync>..." per launch

#include <unistd.h>

#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "acl/acl.h"

namespace {

void Fill(std::vector<unsigned char>& bytes, unsigned seed) {
  for (size_t i = 0; i < bytes.size(); ++i) bytes[i] = static_cast<unsigned char>(seed + i * 13);
}

int Flows() {
  if (aclrtSetDevice(0) != ACL_SUCCESS) return 2;
  aclrtStream stream = nullptr;
  if (aclrtCreateStream(&stream) != ACL_SUCCESS) return 3;
  const size_t size = (2 << 20) + 77;
  std::vector<unsigned char> in(size), out(size);
  void* dev = nullptr;
  if (aclrtMalloc(&dev, size, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS) return 4;
  for (unsigned round = 0; round < 20; ++round) {
    Fill(in, round + static_cast<unsigned>(getpid()));
    if (aclrtMemcpyAsync(dev, size, in.data(), size, ACL_MEMCPY_HOST_TO_DEVICE, stream) != 0 ||
        aclrtMemcpyAsync(out.data(), size, dev, size, ACL_MEMCPY_DEVICE_TO_HOST, stream) != 0 ||
        aclrtSynchronizeStream(stream) != ACL_SUCCESS) {
      return 5;
    }
    if (out != in) return 6;
  }
  aclrtFree(dev);
  aclrtDestroyStream(stream);
  return 0;
}

int Hold(size_t bytes) {
  if (aclrtSetDevice(0) != ACL_SUCCESS) return 2;
  void* dev = nullptr;
  if (aclrtMalloc(&dev, bytes, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS) return 3;
  if (aclrtMemset(dev, bytes, 0x3C, bytes) != ACL_SUCCESS) return 4;
  std::printf("ADDR %" PRIxPTR "\n", reinterpret_cast<uintptr_t>(dev));
  std::fflush(stdout);
  char line[64];
  std::vector<unsigned char> back(bytes);
  while (std::fgets(line, sizeof(line), stdin) != nullptr) {
    if (std::strncmp(line, "check", 5) != 0) continue;
    bool intact = aclrtMemcpy(back.data(), bytes, dev, bytes, ACL_MEMCPY_DEVICE_TO_HOST) == 0;
    for (size_t i = 0; intact && i < bytes; ++i) intact = back[i] == 0x3C;
    std::printf("INTACT %d\n", intact ? 1 : 0);
    std::fflush(stdout);
  }
  return 0;
}

int MemInfo() {
  if (aclrtSetDevice(0) != ACL_SUCCESS) return 2;
  size_t free_bytes = 0, total = 0;
  if (aclrtGetMemInfo(ACL_HBM_MEM, &free_bytes, &total) != ACL_SUCCESS) return 3;
  std::printf("FREE %zu\n", free_bytes);
  return 0;
}

int Poke(uintptr_t address) {
  if (aclrtSetDevice(0) != ACL_SUCCESS) return 2;
  void* pointer = reinterpret_cast<void*>(address);
  const aclError free_code = aclrtFree(pointer);
  int value = 7;
  const aclError copy_code =
      aclrtMemcpy(pointer, sizeof(value), &value, sizeof(value), ACL_MEMCPY_HOST_TO_DEVICE);
  std::printf("CODES %d %d\n", free_code, copy_code);
  return 0;
}

int BeforeInit() {
  // CANN's runtime calls work without aclInit.
  const aclError set = aclrtSetDevice(0);
  void* dev = nullptr;
  const aclError malloc_code = aclrtMalloc(&dev, 4096, ACL_MEM_MALLOC_HUGE_FIRST);
  int value = 5, back = 0;
  aclError copy = aclrtMemcpy(dev, sizeof(value), &value, sizeof(value), ACL_MEMCPY_HOST_TO_DEVICE);
  if (copy == ACL_SUCCESS) {
    copy = aclrtMemcpy(&back, sizeof(back), dev, sizeof(back), ACL_MEMCPY_DEVICE_TO_HOST);
  }
  const aclError free_code = aclrtFree(dev);
  // Finalize without init succeeds once, then reports a repeat.
  const aclError finalize1 = aclFinalize();
  const aclError finalize2 = aclFinalize();
  const aclError init1 = aclInit(nullptr);
  const aclError init2 = aclInit(nullptr);
  const aclError finalize3 = aclFinalize();
  std::printf("CODES %d %d %d %d %d %d %d %d %d value=%d\n", set, malloc_code, copy, free_code,
              finalize1, finalize2, init1, init2, finalize3, back);
  return 0;
}

int Trap(const char* kernels, int rounds) {
  if (aclrtSetDevice(0) != ACL_SUCCESS) return 2;
  aclrtStream stream = nullptr;
  aclrtBinHandle binary = nullptr;
  aclrtFuncHandle function = nullptr;
  if (aclrtCreateStream(&stream) != ACL_SUCCESS ||
      aclrtBinaryLoadFromFile(kernels, nullptr, &binary) != ACL_SUCCESS ||
      aclrtBinaryGetFunction(binary, "trapping", &function) != ACL_SUCCESS) {
    return 3;
  }
  std::printf("CODES");
  for (int i = 0; i < rounds; ++i) {
    if (aclrtLaunchKernelWithHostArgs(function, 4, stream, nullptr, nullptr, 0, nullptr, 0) != 0) {
      return 4;
    }
    std::printf(" %d", aclrtSynchronizeStream(stream));
  }
  std::printf("\n");
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) return 64;
  const std::string scenario = argv[1];
  if (scenario == "before-init") return BeforeInit();
  if (aclInit(nullptr) != ACL_SUCCESS) return 65;
  int rc = 64;
  if (scenario == "flows") rc = Flows();
  if (scenario == "hold" && argc > 2) rc = Hold(std::strtoull(argv[2], nullptr, 0));
  if (scenario == "meminfo") rc = MemInfo();
  if (scenario == "poke" && argc > 2) rc = Poke(std::strtoull(argv[2], nullptr, 16));
  if (scenario == "trap" && argc > 3) rc = Trap(argv[2], std::atoi(argv[3]));
  aclFinalize();
  return rc;
}

// half_fatbin: one device binary holding three half-precision kernels.
// The program loads it, enumerates its functions, finds each by name with
// aclrtGetFunctionName, and launches it with aclrtLaunchKernelWithHostArgs
// on x = 1, y = 2. Expected: add 3, sub -1, mul 2.
//
// Usage: half_fatbin <path to half_kernels.o>

#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "acl/acl.h"

#define CHECK(call)                                                            \
  do {                                                                         \
    const aclError err_ = (call);                                              \
    if (err_ != ACL_SUCCESS) {                                                 \
      std::fprintf(stderr, "%s failed: %d (%s)\n", #call, err_,                \
                   aclGetRecentErrMsg() ? aclGetRecentErrMsg() : "");          \
      return 1;                                                                \
    }                                                                          \
  } while (0)

namespace {

// Kernel parameters, laid out as the kernels declare them.
struct ElementwiseArgs {
  void* x;
  void* y;
  void* z;
  uint32_t total;
  uint32_t tile;
};

}  // namespace

int main(int argc, char** argv) {
  const char* binary_path =
      argc > 1 ? argv[1] : "./build/out/fatbin/half_kernels/half_kernels.o";
  constexpr uint32_t kBlocks = 8;
  constexpr uint32_t kTile = 256;
  constexpr uint32_t kTotal = kBlocks * kTile * 4;
  const size_t bytes = kTotal * sizeof(aclFloat16);

  CHECK(aclInit(nullptr));
  CHECK(aclrtSetDevice(0));
  aclrtStream stream = nullptr;
  CHECK(aclrtCreateStream(&stream));

  std::vector<aclFloat16> x(kTotal, aclFloatToFloat16(1.0f));
  std::vector<aclFloat16> y(kTotal, aclFloatToFloat16(2.0f));
  std::vector<aclFloat16> z(kTotal);
  void *dx = nullptr, *dy = nullptr, *dz = nullptr;
  CHECK(aclrtMalloc(&dx, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
  CHECK(aclrtMalloc(&dy, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
  CHECK(aclrtMalloc(&dz, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
  CHECK(aclrtMemcpy(dx, bytes, x.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE));
  CHECK(aclrtMemcpy(dy, bytes, y.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE));

  aclrtBinHandle binary = nullptr;
  CHECK(aclrtBinaryLoadFromFile(binary_path, nullptr, &binary));
  uint32_t count = 0;
  CHECK(aclrtBinaryGetFunctionCount(binary, &count));
  std::vector<aclrtFuncHandle> functions(count);
  CHECK(aclrtBinaryEnumerateFunctions(binary, functions.data(), count));

  const struct {
    const char* name;
    float expected;
  } kCases[] = {{"add_half", 3.0f}, {"sub_half", -1.0f}, {"mul_half", 2.0f}};
  int failures = 0;
  for (const auto& expected : kCases) {
    aclrtFuncHandle function = nullptr;
    for (aclrtFuncHandle candidate : functions) {
      char name[64] = {};
      CHECK(aclrtGetFunctionName(candidate, sizeof(name), name));
      if (std::strcmp(name, expected.name) == 0) function = candidate;
    }
    if (function == nullptr) {
      std::printf("[FAIL] %s: not in the binary\n", expected.name);
      ++failures;
      continue;
    }
    ElementwiseArgs args{dx, dy, dz, kTotal, kTile};
    CHECK(aclrtLaunchKernelWithHostArgs(function, kBlocks, stream, nullptr, &args, sizeof(args),
                                        nullptr, 0));
    CHECK(aclrtSynchronizeStream(stream));
    CHECK(aclrtMemcpy(z.data(), bytes, dz, bytes, ACL_MEMCPY_DEVICE_TO_HOST));
    bool ok = true;
    for (aclFloat16 value : z) ok &= aclFloat16ToFloat(value) == expected.expected;
    std::printf("[%s] %s(1, 2) = %g\n", ok ? "PASS" : "FAIL", expected.name,
                aclFloat16ToFloat(z[0]));
    failures += ok ? 0 : 1;
  }

  CHECK(aclrtBinaryUnLoad(binary));
  CHECK(aclrtFree(dx));
  CHECK(aclrtFree(dy));
  CHECK(aclrtFree(dz));
  CHECK(aclrtDestroyStream(stream));
  CHECK(aclrtResetDevice(0));
  CHECK(aclFinalize());
  std::printf("%s\n", failures == 0 ? "[SUCCESS] add, sub and mul in half precision"
                                    : "[FAILURE]");
  return failures == 0 ? 0 : 1;
}

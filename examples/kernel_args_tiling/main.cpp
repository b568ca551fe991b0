// kernel_args_tiling: builds a launch with the aclrtKernelArgs API — three
// device pointers appended as parameters and the tiling structure as a
// placeholder whose buffer the runtime carries to the device — then checks
// z = x * scale + y.
//
// Usage: kernel_args_tiling <path to scaled_add.o>

#include <cmath>
#include <cstdio>
#include <vector>

#include "acl/acl.h"
#include "scaled_add_tiling.h"

#define CHECK(call)                                                            \
  do {                                                                         \
    const aclError err_ = (call);                                              \
    if (err_ != ACL_SUCCESS) {                                                 \
      std::fprintf(stderr, "%s failed: %d (%s)\n", #call, err_,                \
                   aclGetRecentErrMsg() ? aclGetRecentErrMsg() : "");          \
      return 1;                                                                \
    }                                                                          \
  } while (0)

int main(int argc, char** argv) {
  const char* binary_path = argc > 1 ? argv[1] : "./build/out/fatbin/scaled_add/scaled_add.o";
  constexpr uint32_t kBlocks = 4;
  constexpr uint32_t kTotal = kBlocks * 4096;
  const size_t bytes = kTotal * sizeof(float);

  CHECK(aclInit(nullptr));
  CHECK(aclrtSetDevice(0));
  aclrtStream stream = nullptr;
  CHECK(aclrtCreateStream(&stream));

  std::vector<float> x(kTotal), y(kTotal), z(kTotal);
  for (uint32_t i = 0; i < kTotal; ++i) {
    x[i] = static_cast<float>(i % 97);
    y[i] = static_cast<float>(i % 13) * 0.5f;
  }
  void *dx = nullptr, *dy = nullptr, *dz = nullptr;
  CHECK(aclrtMalloc(&dx, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
  CHECK(aclrtMalloc(&dy, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
  CHECK(aclrtMalloc(&dz, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
  CHECK(aclrtMemcpy(dx, bytes, x.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE));
  CHECK(aclrtMemcpy(dy, bytes, y.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE));

  aclrtBinHandle binary = nullptr;
  aclrtFuncHandle function = nullptr;
  CHECK(aclrtBinaryLoadFromFile(binary_path, nullptr, &binary));
  CHECK(aclrtBinaryGetFunction(binary, "scaled_add", &function));

  aclrtArgsHandle args = nullptr;
  aclrtParamHandle param = nullptr;
  CHECK(aclrtKernelArgsInit(function, &args));
  CHECK(aclrtKernelArgsAppend(args, &dx, sizeof(dx), &param));
  CHECK(aclrtKernelArgsAppend(args, &dy, sizeof(dy), &param));
  CHECK(aclrtKernelArgsAppend(args, &dz, sizeof(dz), &param));
  aclrtParamHandle tiling_param = nullptr;
  CHECK(aclrtKernelArgsAppendPlaceHolder(args, &tiling_param));
  ScaledAddTiling* tiling = nullptr;
  CHECK(aclrtKernelArgsGetPlaceHolderBuffer(args, tiling_param, sizeof(ScaledAddTiling),
                                            reinterpret_cast<void**>(&tiling)));
  tiling->total = kTotal;
  tiling->tile = 512;
  tiling->scale = 3.0f;
  CHECK(aclrtKernelArgsFinalize(args));
  CHECK(aclrtLaunchKernelWithConfig(function, kBlocks, stream, nullptr, args, nullptr));
  CHECK(aclrtSynchronizeStream(stream));
  CHECK(aclrtMemcpy(z.data(), bytes, dz, bytes, ACL_MEMCPY_DEVICE_TO_HOST));

  uint32_t wrong = 0;
  for (uint32_t i = 0; i < kTotal; ++i) {
    if (std::fabs(z[i] - (x[i] * 3.0f + y[i])) > 1e-5f) ++wrong;
  }
  CHECK(aclrtBinaryUnLoad(binary));
  CHECK(aclrtFree(dx));
  CHECK(aclrtFree(dy));
  CHECK(aclrtFree(dz));
  CHECK(aclrtDestroyStream(stream));
  CHECK(aclrtResetDevice(0));
  CHECK(aclFinalize());
  if (wrong != 0) {
    std::printf("[FAILURE] %u of %u elements differ\n", wrong, kTotal);
    return 1;
  }
  std::printf("[SUCCESS] z = x * 3 + y for %u elements, tiling passed by placeholder\n", kTotal);
  return 0;
}

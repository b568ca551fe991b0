// mixed_mode_printf: kernels launched with <<<>>> from a kernel library the
// program links (and nothing else: the library brings the ACL runtime).
// The blocks' printf lines appear on this program's stdout before each
// synchronize returns; the program also checks the slots from the host.

#include <cstdio>
#include <vector>

#include "acl/acl.h"
#include "write_read_kernels.h"

#define CHECK(call)                                                      \
  do {                                                                   \
    if ((call) != 0) {                                                   \
      std::fprintf(stderr, "%s failed (%s)\n", #call,                    \
                   aclGetRecentErrMsg() ? aclGetRecentErrMsg() : "");    \
      return 1;                                                          \
    }                                                                    \
  } while (0)

int main() {
  constexpr uint32_t kBlocks = 4;
  CHECK(aclInit(nullptr));
  CHECK(aclrtSetDevice(0));
  aclrtStream stream = nullptr;
  CHECK(aclrtCreateStream(&stream));
  int32_t* slots = nullptr;
  CHECK(aclrtMalloc(reinterpret_cast<void**>(&slots), kBlocks * sizeof(int32_t),
                    ACL_MEM_MALLOC_HUGE_FIRST));

  CHECK(LaunchWrite(kBlocks, stream, slots, 100));
  CHECK(aclrtSynchronizeStream(stream));
  CHECK(LaunchRead(kBlocks, stream, slots));
  CHECK(aclrtSynchronizeStream(stream));

  std::vector<int32_t> host(kBlocks);
  CHECK(aclrtMemcpy(host.data(), kBlocks * sizeof(int32_t), slots, kBlocks * sizeof(int32_t),
                    ACL_MEMCPY_DEVICE_TO_HOST));
  bool ok = true;
  for (uint32_t i = 0; i < kBlocks; ++i) ok &= host[i] == 100 + static_cast<int32_t>(i);
  CHECK(aclrtFree(slots));
  CHECK(aclrtDestroyStream(stream));
  CHECK(aclrtResetDevice(0));
  CHECK(aclFinalize());
  std::printf("%s\n", ok ? "[SUCCESS] every block wrote and read its slot" : "[FAILURE]");
  return ok ? 0 : 1;
}

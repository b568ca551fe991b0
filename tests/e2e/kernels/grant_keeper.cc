// A kernel binary whose constructor makes its kernel host keep the memory
// file of every grant npud maps into it, for kernel_isolation_test: it
// installs a seccomp filter of its own (the loading stage allows seccomp)
// under which close() does nothing, so the host's control thread closes no
// descriptor it receives and kernels (hostile_kernels' scan_descriptors) can
// map whole whatever files npud handed over. Loaded only by the test that
// needs it: the host it runs in keeps its descriptors until it ends.

#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstddef>
#include <cstdint>

#include "kernel_operator.h"

namespace {

#if defined(__x86_64__)
constexpr uint32_t kArch = AUDIT_ARCH_X86_64;
#elif defined(__aarch64__)
constexpr uint32_t kArch = AUDIT_ARCH_AARCH64;
#endif

// {seccomp's return value, errno}: {0, 0} once close() is a no-op.
int64_t installed = -1, install_errno = 0;

__attribute__((constructor)) void KeepDescriptors() {
  sock_filter code[] = {
      BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(seccomp_data, arch)),
      BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, kArch, 1, 0),
      BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
      BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(seccomp_data, nr)),
      BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_close, 0, 1),
      // "Succeeds" without closing anything.
      BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | 0),
      BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
  };
  sock_fprog program{static_cast<unsigned short>(sizeof(code) / sizeof(code[0])), code};
  errno = 0;
  installed = syscall(__NR_seccomp, SECCOMP_SET_MODE_FILTER, 0, &program);
  install_errno = errno;
}

}  // namespace

// Reports {seccomp's return value, errno} of the constructor to *out.
extern "C" __global__ __aicore__ void descriptors_kept(GM_ADDR out) {
  auto* words = reinterpret_cast<__gm__ int64_t*>(out);
  words[0] = installed;
  words[1] = install_errno;
}

NPUD_KERNEL_REGISTER(descriptors_kept);

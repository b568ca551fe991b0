#include "simdevice/executor/sandbox.h"

#include <fcntl.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstddef>
#include <cstring>

#include "absl/strings/str_cat.h"

namespace npud::sim::host {
namespace {

#if defined(__x86_64__)
constexpr uint32_t kNativeArch = AUDIT_ARCH_X86_64;
#elif defined(__aarch64__)
constexpr uint32_t kNativeArch = AUDIT_ARCH_AARCH64;
#else
#error "kernel host sandbox: unknown architecture"
#endif

struct NamedCall {
  int nr;
  const char* name;
};

#define NPUD_CALL(name) \
  { __NR_##name, #name }

// What running kernels need: memory, threads already started waiting on
// each other, time, the control socket, signals to themselves (abort), exit.
constexpr NamedCall kRunningCalls[] = {
    NPUD_CALL(read),
    NPUD_CALL(write),
    NPUD_CALL(readv),
    NPUD_CALL(writev),
    NPUD_CALL(recvmsg),
    NPUD_CALL(sendmsg),
    NPUD_CALL(close),
    NPUD_CALL(fstat),
    NPUD_CALL(lseek),
    NPUD_CALL(munmap),
    NPUD_CALL(mprotect),
    NPUD_CALL(madvise),
    NPUD_CALL(brk),
    NPUD_CALL(futex),
    NPUD_CALL(clock_gettime),
    NPUD_CALL(clock_getres),
    NPUD_CALL(clock_nanosleep),
    NPUD_CALL(nanosleep),
    NPUD_CALL(gettimeofday),
    NPUD_CALL(getpid),
    NPUD_CALL(gettid),
    NPUD_CALL(sched_yield),
    NPUD_CALL(sched_getaffinity),
    NPUD_CALL(sched_getparam),
    NPUD_CALL(sched_getscheduler),
    NPUD_CALL(rt_sigreturn),
    NPUD_CALL(rt_sigprocmask),
    NPUD_CALL(rt_sigaction),
    NPUD_CALL(sigaltstack),
    NPUD_CALL(getrandom),
    NPUD_CALL(restart_syscall),
    NPUD_CALL(exit),
    NPUD_CALL(exit_group),
    NPUD_CALL(set_robust_list),
    NPUD_CALL(rseq),
#ifdef __NR_newfstatat
    NPUD_CALL(newfstatat),
#endif
#ifdef __NR_time
    NPUD_CALL(time),
#endif
};

// Sanitizer builds only: the runtimes probe whether memory is readable
// through a pipe and look at the terminal before printing a report.
constexpr NamedCall kSanitizerCalls[] = {NPUD_CALL(pipe2), NPUD_CALL(ioctl)};

// What the loader needs on top while binaries are opened.
constexpr NamedCall kLoadingCalls[] = {
    NPUD_CALL(pread64),
    NPUD_CALL(seccomp),  // to install the second stage
#ifdef __NR_statx
    NPUD_CALL(statx),
#endif
#ifdef __NR_readlink
    NPUD_CALL(readlink),
#endif
};

#undef NPUD_CALL

constexpr uint32_t kDeny = SECCOMP_RET_ERRNO | (EPERM & SECCOMP_RET_DATA);

// Offsets into struct seccomp_data.
constexpr uint32_t kNrOffset = offsetof(struct seccomp_data, nr);
constexpr uint32_t kArchOffset = offsetof(struct seccomp_data, arch);
constexpr uint32_t ArgLow(int i) {
  return offsetof(struct seccomp_data, args) + 8 * i;  // little endian
}
constexpr uint32_t ArgHigh(int i) { return ArgLow(i) + 4; }

class Program {
 public:
  void Load(uint32_t offset) { Add(BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offset)); }
  void Return(uint32_t action) { Add(BPF_STMT(BPF_RET | BPF_K, action)); }
  // if (A == value) skip `if_true` instructions, else skip `if_false`.
  void JumpIfEqual(uint32_t value, uint8_t if_true, uint8_t if_false) {
    Add(BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, value, if_true, if_false));
  }
  void And(uint32_t mask) { Add(BPF_STMT(BPF_ALU | BPF_AND | BPF_K, mask)); }
  // if (A >= value) run the next instruction, else skip it.
  void IfAtLeast(uint32_t value) { Add(BPF_JUMP(BPF_JMP | BPF_JGE | BPF_K, value, 0, 1)); }

  // Allows `nr` outright.
  void Allow(int nr) {
    Load(kNrOffset);
    JumpIfEqual(static_cast<uint32_t>(nr), 0, 1);
    Return(SECCOMP_RET_ALLOW);
  }
  // Allows `nr` when its argument `arg` equals `value` (a pid), else denies.
  void AllowIfArgEquals(int nr, int arg, uint32_t value) {
    Load(kNrOffset);
    JumpIfEqual(static_cast<uint32_t>(nr), 0, 6);  // past this rule
    Load(ArgHigh(arg));
    JumpIfEqual(0, 0, 2);
    Load(ArgLow(arg));
    JumpIfEqual(value, 1, 0);
    Return(kDeny);
    Return(SECCOMP_RET_ALLOW);
  }
  // Allows `nr` when no bit of `mask` is set in argument `arg`.
  void AllowIfArgClear(int nr, int arg, uint32_t mask) {
    Load(kNrOffset);
    JumpIfEqual(static_cast<uint32_t>(nr), 0, 5);  // past this rule
    Load(ArgLow(arg));
    And(mask);
    JumpIfEqual(0, 0, 1);
    Return(SECCOMP_RET_ALLOW);
    Return(kDeny);
  }

  // Allows `nr` unless every bit of `mask` is set in argument `arg`.
  void AllowUnlessArgHasAll(int nr, int arg, uint32_t mask) {
    Load(kNrOffset);
    JumpIfEqual(static_cast<uint32_t>(nr), 0, 5);  // past this rule
    Load(ArgLow(arg));
    And(mask);
    JumpIfEqual(mask, 1, 0);
    Return(SECCOMP_RET_ALLOW);
    Return(kDeny);
  }

  absl::Status Install() {
    sock_fprog program{static_cast<unsigned short>(code_.size()), code_.data()};
    // TSYNC: the AI-core threads already run; every thread gets the filter.
    if (syscall(__NR_seccomp, SECCOMP_SET_MODE_FILTER, SECCOMP_FILTER_FLAG_TSYNC, &program) != 0) {
      return absl::InternalError(absl::StrCat("seccomp: ", std::strerror(errno)));
    }
    return absl::OkStatus();
  }

 private:
  void Add(sock_filter instruction) { code_.push_back(instruction); }
  std::vector<sock_filter> code_;
};

}  // namespace

absl::Status EnterSandbox(SandboxStage stage) {
  // Set before the first filter (the second one may not call prctl).
  if (stage == SandboxStage::kLoading && prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) {
    return absl::InternalError(absl::StrCat("PR_SET_NO_NEW_PRIVS: ", std::strerror(errno)));
  }
  Program p;
  p.Load(kArchOffset);
  p.JumpIfEqual(kNativeArch, 1, 0);
  p.Return(SECCOMP_RET_KILL_PROCESS);
#if defined(__x86_64__)
  // The x32 ABI shares the architecture value: refuse its numbering.
  p.Load(kNrOffset);
  p.IfAtLeast(__X32_SYSCALL_BIT);
  p.Return(SECCOMP_RET_KILL_PROCESS);
#endif
  for (const NamedCall& call : kRunningCalls) p.Allow(call.nr);
  if (NPUD_SANITIZED) {
    for (const NamedCall& call : kSanitizerCalls) p.Allow(call.nr);
  }
  // Memory a host maps is private (RLIMIT_DATA counts it) or a grant's
  // memory file: shared anonymous memory, which no limit counts, is refused.
  // mremap is not allowed at all: it could grow a grant over memory behind
  // it or keep a second mapping of one that outlives its withdrawal.
  p.AllowUnlessArgHasAll(__NR_mmap, 3, MAP_SHARED | MAP_ANONYMOUS);
  const uint32_t self = static_cast<uint32_t>(getpid());
  // abort() and raise() signal this process; nothing else may be signalled.
  p.AllowIfArgEquals(__NR_kill, 0, self);
  p.AllowIfArgEquals(__NR_tgkill, 0, self);
  if (stage == SandboxStage::kLoading) {
    for (const NamedCall& call : kLoadingCalls) p.Allow(call.nr);
    p.AllowIfArgClear(
        __NR_openat, 2,
        O_WRONLY | O_RDWR | O_CREAT | O_TRUNC | O_APPEND | (O_TMPFILE & ~O_DIRECTORY));
  }
  p.Return(kDeny);
  return p.Install();
}

absl::Status ApplyResourceLimits(uint64_t data_bytes, uint64_t max_fds) {
  const struct {
    int resource;
    rlim_t value;
    const char* name;
  } limits[] = {{RLIMIT_CORE, 0, "RLIMIT_CORE"},
                {RLIMIT_NOFILE, max_fds, "RLIMIT_NOFILE"},
                {RLIMIT_DATA, data_bytes, "RLIMIT_DATA"}};
  for (const auto& limit : limits) {
    rlimit value{limit.value, limit.value};
    if (setrlimit(limit.resource, &value) != 0) {
      return absl::InternalError(absl::StrCat(limit.name, ": ", std::strerror(errno)));
    }
  }
  return absl::OkStatus();
}

std::vector<std::string> AllowedSystemCalls() {
  std::vector<std::string> names;
  for (const NamedCall& call : kRunningCalls) names.emplace_back(call.name);
  names.emplace_back("mmap (not shared anonymous)");
  names.emplace_back("kill (own pid only)");
  names.emplace_back("tgkill (own pid only)");
  return names;
}

}  // namespace npud::sim::host

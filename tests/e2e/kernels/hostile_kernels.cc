// Kernels that attack the daemon they run under, for kernel_isolation_test:
// each tries one thing a client's kernel must never be able to do to npud
// or to other clients. Results the kernel can report go to *out as
// {return value, errno}.
//
// Written as a user writes kernels: no registrations here. The kernel
// scanner adds them, in the test build (tests/e2e/CMakeLists.txt) as in the
// installed ascendc.cmake (toolchain_test builds this file with it and
// runs kernel_isolation_test against that object).

#include <fcntl.h>
#include <signal.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstdlib>

#include "kernel_operator.h"

namespace {

void Report(GM_ADDR out, int64_t value) {
  auto* words = reinterpret_cast<__gm__ int64_t*>(out);
  words[0] = value;
  words[1] = errno;
}

}  // namespace

extern "C" __global__ __aicore__ void call_exit() { _exit(3); }

extern "C" __global__ __aicore__ void call_abort() { abort(); }

extern "C" __global__ __aicore__ void kill_self() { kill(getpid(), SIGKILL); }

extern "C" __global__ __aicore__ void spin_forever() {
  volatile uint64_t n = 0;
  while (true) n = n + 1;
}

// Writes through `pointer` (the test passes 0x10).
extern "C" __global__ __aicore__ void wild_write(GM_ADDR pointer) {
  *reinterpret_cast<volatile int*>(pointer) = 1;
}

// Reads one word at `address` (another session's memory) into *out.
extern "C" __global__ __aicore__ void peek(GM_ADDR address, GM_ADDR out) {
  *reinterpret_cast<__gm__ int64_t*>(out) = *reinterpret_cast<__gm__ int64_t*>(address);
}

// Creates the file whose NUL-terminated name is at `path`.
extern "C" __global__ __aicore__ void create_file(GM_ADDR path, GM_ADDR out) {
  errno = 0;
  Report(out, open(reinterpret_cast<const char*>(path), O_CREAT | O_WRONLY, 0600));
}

extern "C" __global__ __aicore__ void run_shell(GM_ADDR out) {
  char sh[] = "/bin/sh";
  char* argv[] = {sh, nullptr};
  errno = 0;
  Report(out, execve(sh, argv, nullptr));
}

extern "C" __global__ __aicore__ void open_socket(GM_ADDR out) {
  errno = 0;
  Report(out, socket(AF_INET, SOCK_STREAM, 0));
}

extern "C" __global__ __aicore__ void call_fork(GM_ADDR out) {
  errno = 0;
  const pid_t pid = fork();
  if (pid == 0) _exit(0);
  Report(out, pid);
}

extern "C" __global__ __aicore__ void get_pid(GM_ADDR out) { Report(out, getpid()); }


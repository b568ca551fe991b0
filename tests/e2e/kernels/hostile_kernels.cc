// Kernels that attack the daemon they run under, for kernel_isolation_test:
// each tries one thing a client's kernel must never be able to do to npud
// or to other clients. Results the kernel can report go to *out as
// {return value, errno}. A module constructor (run when a kernel host loads
// the binary, before any kernel) goes after npud's secrets.
//
// Written as a user writes kernels: no registrations here. The kernel
// scanner adds them, in the test build (tests/e2e/CMakeLists.txt) as in the
// installed ascendc.cmake (toolchain_test builds this file with it and
// runs kernel_isolation_test against that object).

#include <fcntl.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

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


// --- Attacks on other tenants' memory and on npud's secrets (issue 40). ---

namespace {

// What the constructor below managed at load time, for constructor_report.
struct LoadTimeLoot {
  int64_t secret_bytes = -1, secret_errno = 0;
  int64_t shadow_bytes = -1, shadow_errno = 0;
  int64_t npud_mem_fd = -1, npud_mem_errno = 0;
  int64_t shared_map = -1, shared_map_errno = 0;
  char secret[64] = {};
};
LoadTimeLoot loot;

int64_t ReadUpTo(const char* path, char* into, size_t size, int64_t* error) {
  errno = 0;
  const int fd = open(path, O_RDONLY);
  if (fd < 0) {
    *error = errno;
    return -1;
  }
  const ssize_t n = read(fd, into, size);
  *error = errno;
  close(fd);
  return n;
}

// Runs when a kernel host loads this binary, before any kernel: reads the
// secrets a daemon may hold and keeps what it found.
__attribute__((constructor)) void Plunder() {
  char scratch[64];
  loot.secret_bytes = ReadUpTo("/tmp/npud-isolation-secret", loot.secret, sizeof(loot.secret),
                               &loot.secret_errno);
  loot.shadow_bytes = ReadUpTo("/etc/shadow", scratch, sizeof(scratch), &loot.shadow_errno);
  char path[64];
  std::snprintf(path, sizeof(path), "/proc/%d/mem", static_cast<int>(getppid()));
  errno = 0;
  loot.npud_mem_fd = open(path, O_RDONLY);  // kept open for later kernels
  loot.npud_mem_errno = errno;
  errno = 0;
  void* shared = mmap(nullptr, 1ull << 30, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS,
                      -1, 0);
  loot.shared_map = shared == MAP_FAILED ? -1 : 0;
  loot.shared_map_errno = errno;
}

}  // namespace

// Copies what the constructor found to *out (LoadTimeLoot's layout).
extern "C" __global__ __aicore__ void constructor_report(GM_ADDR out) {
  std::memcpy(reinterpret_cast<void*>(out), &loot, sizeof(loot));
}

// Looks at every descriptor of the process; maps each memory file's
// populated extents and overwrites any page filled with `victim_byte`.
// Reports {memory files it could map, pages it overwrote}.
extern "C" __global__ __aicore__ void scan_descriptors(GM_ADDR victim_byte, GM_ADDR out) {
  const unsigned char victim = *reinterpret_cast<__gm__ unsigned char*>(victim_byte);
  int64_t mapped_files = 0, overwritten = 0;
  for (int fd = 0; fd < 1024; ++fd) {
    struct stat info;
    if (fstat(fd, &info) != 0 || !S_ISREG(info.st_mode) || info.st_size <= 0) continue;
    off_t at = 0;
    bool counted = false;
    while (true) {
      const off_t data = lseek(fd, at, SEEK_DATA);
      if (data < 0) break;
      off_t hole = lseek(fd, data, SEEK_HOLE);
      if (hole < 0) hole = info.st_size;
      void* p = mmap(nullptr, hole - data, PROT_READ | PROT_WRITE, MAP_SHARED, fd, data);
      if (p != MAP_FAILED) {
        if (!counted) ++mapped_files;
        counted = true;
        auto* bytes = static_cast<unsigned char*>(p);
        for (off_t page = 0; page + 4096 <= hole - data; page += 4096) {
          if (bytes[page] == victim && bytes[page + 4095] == victim) {
            std::memset(bytes + page, 0, 4096);
            ++overwritten;
          }
        }
        munmap(p, hole - data);
      }
      at = hole;
    }
  }
  auto* words = reinterpret_cast<__gm__ int64_t*>(out);
  words[0] = mapped_files;
  words[1] = overwritten;
}

// Grows the kernel's own one-page grant to 256 MiB in place (over whatever
// lies behind it) or anywhere.
extern "C" __global__ __aicore__ void grow_grant(GM_ADDR grant, GM_ADDR out) {
  errno = 0;
  void* p = mremap(reinterpret_cast<void*>(grant), 4096, 256 << 20, MREMAP_MAYMOVE);
  Report(out, p == MAP_FAILED ? -1 : 0);
}

// Makes a second mapping of its own grant (old size 0), one that would
// outlive the grant's withdrawal.
extern "C" __global__ __aicore__ void duplicate_grant(GM_ADDR grant, GM_ADDR out) {
  errno = 0;
  void* p = mremap(reinterpret_cast<void*>(grant), 0, 4096, MREMAP_MAYMOVE);
  Report(out, p == MAP_FAILED ? -1 : 0);
}

// Shared anonymous memory, which RLIMIT_DATA does not count.
extern "C" __global__ __aicore__ void shared_memory(GM_ADDR out) {
  errno = 0;
  void* p = mmap(nullptr, 1ull << 30, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  if (p != MAP_FAILED) std::memset(p, 1, 1ull << 30);
  Report(out, p == MAP_FAILED ? -1 : 0);
}

// A memory file of its own, which no limit counts either.
extern "C" __global__ __aicore__ void memory_file(GM_ADDR out) {
  errno = 0;
  Report(out, syscall(SYS_memfd_create, "loot", 0));
}

// Writes `count` forged npud log lines to stderr and stdout.
extern "C" __global__ __aicore__ void forge_log(GM_ADDR count) {
  const uint64_t lines = *reinterpret_cast<__gm__ uint64_t*>(count);
  const char line[] =
      "[2026-01-01 00:00:00.000] [npud] [critical] FORGED-BY-KERNEL session 1 lost its memory\n";
  for (uint64_t i = 0; i < lines; ++i) {
    (void)!write(2, line, sizeof(line) - 1);
    if (i % 64 == 0) (void)!write(1, line, sizeof(line) - 1);
  }
}

// Writes control messages of its own on the host's channel to npud (fd 3):
// an acknowledgement of every unmap npud will ever ask for, then
// completions with success for the launches in flight.
extern "C" __global__ __aicore__ void forge_control() {
  auto frame = [](const std::string& payload) {
    std::string bytes(8, '\0');
    const uint32_t length = static_cast<uint32_t>(payload.size());
    std::memcpy(&bytes[0], &length, 4);
    bytes += payload;
    (void)!write(3, bytes.data(), bytes.size());
  };
  auto put = [](std::string* s, auto value) {
    s->append(reinterpret_cast<const char*>(&value), sizeof(value));
  };
  std::string ack;
  put(&ack, uint32_t{102});
  put(&ack, uint64_t{1} << 40);
  frame(ack);
  for (uint64_t id = 1; id <= 64; ++id) {
    std::string done;
    put(&done, uint32_t{103});
    put(&done, id);
    put(&done, int32_t{0});
    put(&done, uint64_t{0});  // message
    put(&done, uint64_t{0});  // output
    put(&done, uint32_t{0});  // launch times
    put(&done, uint32_t{0});  // block times
    put(&done, uint8_t{0});
    put(&done, uint32_t{0});
    frame(done);
  }
  // Give npud time to act on the forgeries before this launch ends.
  const timespec pause{0, 200 * 1000 * 1000};
  nanosleep(&pause, nullptr);
}

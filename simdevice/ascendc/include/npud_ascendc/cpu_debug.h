// cpu_debug.h: CANN's CPU-debug launch ("CPU孪生调试", tikicpulib.h) for a host program
// that is compiled together with its kernels:
//
//   uint8_t* x = (uint8_t*)AscendC::GmAlloc(bytes);   // shared memory, from a /tmp file
//   AscendC::SetKernelMode(KernelMode::AIV_MODE);      // MIX_MODE (default), AIC_MODE
//   ICPU_SET_TILING_KEY(2);                           // the key TILING_KEY_IS sees
//   ICPU_RUN_KF(add_custom, numBlocks, x, y, z);       // runs every block, returns after
//   AscendC::GmFree(x);
//
// CANN forks a process per core; here every block runs on a thread of its own, all at
// once (so SyncAll and the other waits across blocks work), with its own unified
// buffer and the core type of the mode: AIV_MODE one vector core, AIC_MODE one cube
// core, MIX_MODE a group of one cube and two vector cores per block (mix_group.h), as
// CANN's split-architecture modes. Kernel printf goes to stdout, one call at a time.
// A block that fails a check or traps reports "[ERROR] ICPU_RUN_KF(kernel) block N:
// message" on stderr and ends; the others go on (CANN's child process aborts).
// LastRunFailedBlocks() counts the blocks that failed in the last ICPU_RUN_KF.
// A wait that cannot end (no block moves for kWaitLimitSeconds) fails its block.
#ifndef NPUD_ASCENDC_CPU_DEBUG_H_
#define NPUD_ASCENDC_CPU_DEBUG_H_

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <type_traits>
#include <vector>

#include "npud_ascendc/block_context.h"
#include "npud_ascendc/kernel_tiling_macros.h"
#include "npud_ascendc/mix_group.h"
#include "npud_kernel_abi.h"

enum class KernelMode { MIX_MODE = 0, AIC_MODE, AIV_MODE };

namespace npud::ascendc::cpu_debug {

inline constexpr int kWaitLimitSeconds = 30;
inline constexpr uint64_t kUbBytes = 196608;  // Ascend910B1
inline constexpr uint64_t kLaunchScratchBytes = 4096;

struct Settings {
  std::mutex mutex;
  KernelMode mode = KernelMode::MIX_MODE;
  bool key_set = false;
  uint64_t key = 0;
  uint32_t last_failed = 0;
  std::map<void*, size_t> allocations;  // GmAlloc's mappings
  std::mutex print_mutex;
};
inline Settings& GetSettings() {
  static Settings settings;
  return settings;
}

struct BlockTrap {
  uint32_t kind;
  std::string message;
};

struct BlockRun {
  NpudBlockContext ctx{};
  std::chrono::steady_clock::time_point wait_start;
  bool failed = false;
};

inline void Print(void* /*host*/, const char* text, size_t len) {
  std::lock_guard<std::mutex> lock(GetSettings().print_mutex);
  std::fwrite(text, 1, len, stdout);
  std::fflush(stdout);
}

inline void Trap(void* /*host*/, uint32_t kind, const char* message) {
  throw BlockTrap{kind, message != nullptr ? message : ""};
}

inline int Wait(void* host, const char* /*what*/, uint32_t spins) {
  BlockRun* run = static_cast<BlockRun*>(host);
  const auto now = std::chrono::steady_clock::now();
  if (spins == 0) run->wait_start = now;
  if (now - run->wait_start > std::chrono::seconds(kWaitLimitSeconds)) return 1;
  if (spins < 64) {
    std::this_thread::yield();
  } else {
    std::this_thread::sleep_for(std::chrono::microseconds(200));
  }
  return 0;
}

// A GM_ADDR argument passed to a `__gm__ float*` parameter and the like.
template <class P, class A>
P Convert(A&& arg) {
  using D = std::decay_t<A>;
  if constexpr (std::is_pointer_v<P> && std::is_pointer_v<D>) {
    return reinterpret_cast<P>(const_cast<std::remove_const_t<std::remove_pointer_t<D>>*>(arg));
  } else {
    return static_cast<P>(arg);
  }
}

template <class... P, class... A>
void Run(const char* name, void (*kernel)(P...), uint32_t block_num, A&&... args) {
  static_assert(sizeof...(P) == sizeof...(A),
                "ICPU_RUN_KF: pass every kernel argument, in order (as CANN requires)");
  Settings& settings = GetSettings();
  KernelMode mode;
  bool key_set;
  uint64_t key;
  {
    std::lock_guard<std::mutex> lock(settings.mutex);
    mode = settings.mode;
    key_set = settings.key_set;
    key = settings.key;
  }
  const uint32_t core_type = mode == KernelMode::AIV_MODE   ? NPUD_CORE_TYPE_VECTOR
                             : mode == KernelMode::AIC_MODE ? NPUD_CORE_TYPE_CUBE
                                                            : NPUD_CORE_TYPE_MIX;
  void* scratch = std::calloc(1, kLaunchScratchBytes);
  std::vector<BlockRun> runs(block_num);
  std::vector<std::thread> threads;
  auto call = [&] { kernel(Convert<P>(args)...); };
  for (uint32_t i = 0; i < block_num; ++i) {
    threads.emplace_back([&, i] {
      BlockRun& run = runs[i];
      uint8_t* ub = static_cast<uint8_t*>(std::aligned_alloc(64, kUbBytes));
      std::memset(ub, 0xCD, kUbBytes);
      run.ctx = NpudBlockContext{NPUD_KERNEL_ABI_VERSION,
                                 i,
                                 block_num,
                                 core_type,
                                 ub,
                                 kUbBytes,
                                 &run,
                                 &Print,
                                 &Trap,
                                 &Wait,
                                 scratch,
                                 kLaunchScratchBytes};
      tls_tiling_key = TilingKeyState{key_set, key};
      try {
        if (core_type == NPUD_CORE_TYPE_MIX) {
          RunMixGroup(&run.ctx, call);
        } else {
          const BlockScope scope(&run.ctx);
          call();
        }
      } catch (const BlockTrap& trap) {
        run.failed = true;
        std::lock_guard<std::mutex> lock(settings.print_mutex);
        std::fprintf(stderr, "[ERROR] ICPU_RUN_KF(%s) block %u: %s%s\n", name, i,
                     trap.kind == NPUD_TRAP_KIND_TRAP ? "trap: " : "", trap.message.c_str());
      }
      tls_tiling_key = TilingKeyState{};
      std::free(ub);
    });
  }
  for (std::thread& t : threads) t.join();
  std::free(scratch);
  uint32_t failed = 0;
  for (const BlockRun& run : runs) failed += run.failed ? 1 : 0;
  std::lock_guard<std::mutex> lock(settings.mutex);
  settings.last_failed = failed;
}

inline uint32_t LastRunFailedBlocks() {
  std::lock_guard<std::mutex> lock(GetSettings().mutex);
  return GetSettings().last_failed;
}

inline void SetTilingKey(uint64_t key) {
  if (static_cast<int64_t>(key) <= 0) {
    std::fprintf(stderr, "[WARNING] ICPU_SET_TILING_KEY(%lld): tiling keys should be positive\n",
                 static_cast<long long>(key));
  }
  std::lock_guard<std::mutex> lock(GetSettings().mutex);
  GetSettings().key_set = true;
  GetSettings().key = key;
}

}  // namespace npud::ascendc::cpu_debug

namespace AscendC {

using ::KernelMode;

// Shared memory as CANN's: a file under /tmp (removed at once, so nothing is left
// behind), mapped shared. nullptr if the file cannot be made.
inline void* GmAlloc(size_t size) {
  char path[] = "/tmp/npud_gm_XXXXXX";
  const int fd = mkstemp(path);
  if (fd < 0) {
    std::fprintf(stderr, "[ERROR] GmAlloc(%zu): cannot create %s: %s\n", size, path,
                 std::strerror(errno));
    return nullptr;
  }
  unlink(path);
  const size_t bytes = size == 0 ? 1 : size;
  void* p = MAP_FAILED;
  if (ftruncate(fd, static_cast<off_t>(bytes)) == 0) {
    p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  }
  const int saved = errno;
  close(fd);
  if (p == MAP_FAILED) {
    std::fprintf(stderr, "[ERROR] GmAlloc(%zu): %s\n", size, std::strerror(saved));
    return nullptr;
  }
  auto& settings = ::npud::ascendc::cpu_debug::GetSettings();
  std::lock_guard<std::mutex> lock(settings.mutex);
  settings.allocations[p] = bytes;
  return p;
}

inline void GmFree(void* ptr) {
  auto& settings = ::npud::ascendc::cpu_debug::GetSettings();
  size_t bytes = 0;
  {
    std::lock_guard<std::mutex> lock(settings.mutex);
    auto it = settings.allocations.find(ptr);
    if (it == settings.allocations.end()) {
      std::fprintf(stderr, "[ERROR] GmFree(%p): not memory of GmAlloc\n", ptr);
      return;
    }
    bytes = it->second;
    settings.allocations.erase(it);
  }
  munmap(ptr, bytes);
}

inline void SetKernelMode(KernelMode mode) {
  auto& settings = ::npud::ascendc::cpu_debug::GetSettings();
  std::lock_guard<std::mutex> lock(settings.mutex);
  settings.mode = mode;
}

}  // namespace AscendC

#define ICPU_SET_TILING_KEY(tilingKey) \
  ::npud::ascendc::cpu_debug::SetTilingKey(static_cast<uint64_t>(tilingKey))
#define ICPU_RUN_KF(func, numBlocks, ...) \
  ::npud::ascendc::cpu_debug::Run(#func, &func, static_cast<uint32_t>(numBlocks), ##__VA_ARGS__)

#endif  // NPUD_ASCENDC_CPU_DEBUG_H_

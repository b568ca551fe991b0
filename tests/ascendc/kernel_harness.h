// kernel_harness.h: a minimal stand-in for the daemon's kernel executor, for tests of
// the AscendC CPU library.
//
// KernelLibrary dlopen()s a kernel shared object and reads its npud_kernel_table.
// RunBlocks runs one kernel for N blocks, each on its own std::thread with its own
// NpudBlockContext and unified buffer (filled with 0xCD so kernels cannot rely on
// zeroed memory). The context's trap() throws TrapSignal, which unwinds through the
// kernel's frames and is caught on the block's thread: the unwinding contract of
// npud_kernel_abi.h. Everything a block printed and how it ended is returned per
// block. Not thread-safe itself; the blocks run concurrently.
#ifndef TESTS_ASCENDC_KERNEL_HARNESS_H_
#define TESTS_ASCENDC_KERNEL_HARNESS_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "npud_kernel_abi.h"
#include "npud_kernel_args.h"

namespace npud::ascendc_test {

// Thrown by the fake executor's trap callback.
struct TrapSignal {
  uint32_t kind;
  std::string message;
};

// How one block ended.
struct BlockOutcome {
  int entry_result = -1;  // NpudKernelEntry's return value; -1 if it trapped
  bool trapped = false;
  uint32_t trap_kind = 0;
  std::string trap_message;
  std::vector<std::string> prints;  // one element per print() call
};

struct LaunchOptions {
  uint64_t ub_size = 196608;  // Ascend910B1
  uint32_t core_type = NPUD_CORE_TYPE_VECTOR;
  // Blocks may wait for each other (NpudBlockContext::wait): every block has its own
  // thread here, so a wait yields the CPU; one that lasts 3 s fails as a deadlock.
  bool waits = false;
};

class KernelLibrary {
 public:
  // dlopen(path, flags) (RTLD_NOW | RTLD_LOCAL if flags is 0). Returns nullptr and sets
  // *error if the object cannot be loaded or has no npud_kernel_table.
  static std::unique_ptr<KernelLibrary> Open(const std::string& path, int flags,
                                             std::string* error);
  ~KernelLibrary();
  KernelLibrary(const KernelLibrary&) = delete;
  KernelLibrary& operator=(const KernelLibrary&) = delete;

  // The kernel registered as `name`, or nullptr. Valid while this object lives.
  const NpudKernelInfo* Find(const std::string& name) const;
  const NpudKernelInfo* table() const { return table_; }
  size_t size() const { return count_; }
  void* handle() const { return handle_; }

 private:
  KernelLibrary() = default;

  void* handle_ = nullptr;
  const NpudKernelInfo* table_ = nullptr;
  size_t count_ = 0;
};

// Runs `kernel` for block_num blocks concurrently and waits for all of them.
std::vector<BlockOutcome> RunBlocks(const NpudKernelInfo& kernel, uint32_t block_num,
                                    const void* args, size_t args_size,
                                    const LaunchOptions& options = {});

// Packs `args` (pass values of the kernel's exact parameter types) and runs the kernel
// `name` of `lib`; a missing kernel is a test failure and yields no outcomes.
template <class... A>
std::vector<BlockOutcome> Launch(const KernelLibrary& lib, const std::string& name,
                                 uint32_t block_num, A... args);

// The concatenated print() output of a block.
std::string Printed(const BlockOutcome& outcome);

// Names of the symbols a shared object's dynamic symbol table defines, with "unique:"
// prefixed for STB_GNU_UNIQUE ones. Empty with *error set if the ELF cannot be read.
std::vector<std::string> DefinedDynamicSymbols(const std::string& path, std::string* error);

// Helpers for tests: load a library (a failure is a test failure), find a kernel.
std::unique_ptr<KernelLibrary> LoadOrFail(const std::string& path, int flags = 0);
std::vector<uint8_t> PackBytes(size_t size);
const NpudKernelInfo* FindOrFail(const KernelLibrary& lib, const std::string& name);

template <class... A>
std::vector<BlockOutcome> Launch(const KernelLibrary& lib, const std::string& name,
                                 uint32_t block_num, A... args) {
  const NpudKernelInfo* kernel = FindOrFail(lib, name);
  if (kernel == nullptr) return {};
  std::vector<uint8_t> packed = PackBytes(npud::kernel::ArgLayout<A...>::Size());
  npud::kernel::Pack(packed.data(), args...);
  return RunBlocks(*kernel, block_num, packed.data(), npud::kernel::ArgLayout<A...>::Size());
}

}  // namespace npud::ascendc_test

#endif  // TESTS_ASCENDC_KERNEL_HARNESS_H_

#include "tests/ascendc/kernel_harness.h"

#include <dlfcn.h>
#include <elf.h>

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <functional>
#include <iterator>
#include <thread>

#include <gtest/gtest.h>

namespace npud::ascendc_test {
namespace {

struct BlockRun {
  NpudBlockContext ctx{};
  BlockOutcome outcome;
};

void RecordPrint(void* host, const char* text, size_t len) {
  static_cast<BlockRun*>(host)->outcome.prints.emplace_back(text, len);
}

void ThrowTrap(void* /*host*/, uint32_t kind, const char* message) {
  throw TrapSignal{kind, message != nullptr ? message : ""};
}

// NpudBlockContext::wait for blocks on threads of their own: give the CPU away, and
// call a wait that lasts 3 s a deadlock (`spins` is 0 at the first call of a wait).
int YieldWait(void* /*host*/, const char* /*what*/, uint32_t spins) {
  thread_local std::chrono::steady_clock::time_point started;
  const auto now = std::chrono::steady_clock::now();
  if (spins == 0 || started == std::chrono::steady_clock::time_point{}) started = now;
  if (spins < 1000) {
    std::this_thread::yield();
  } else {
    std::this_thread::sleep_for(std::chrono::microseconds(50));
  }
  return now - started < std::chrono::seconds(3) ? 0 : 1;
}

void RunOneBlock(const NpudKernelInfo& kernel, const void* args, size_t args_size, BlockRun* run) {
  const size_t ub_bytes = (run->ctx.ub_size + 63) / 64 * 64;
  uint8_t* ub = static_cast<uint8_t*>(std::aligned_alloc(64, ub_bytes == 0 ? 64 : ub_bytes));
  std::memset(ub, 0xCD, ub_bytes);
  run->ctx.ub_base = ub;
  try {
    run->outcome.entry_result = kernel.entry(&run->ctx, args, args_size);
  } catch (const TrapSignal& trap) {
    run->outcome.trapped = true;
    run->outcome.trap_kind = trap.kind;
    run->outcome.trap_message = trap.message;
  }
  std::free(ub);
}

}  // namespace

std::unique_ptr<KernelLibrary> KernelLibrary::Open(const std::string& path, int flags,
                                                   std::string* error) {
  void* handle = dlopen(path.c_str(), flags != 0 ? flags : RTLD_NOW | RTLD_LOCAL);
  if (handle == nullptr) {
    *error = dlerror();
    return nullptr;
  }
  auto table_fn = reinterpret_cast<NpudKernelTableFn>(dlsym(handle, NPUD_KERNEL_TABLE_SYMBOL));
  if (table_fn == nullptr) {
    *error = path + " has no " NPUD_KERNEL_TABLE_SYMBOL;
    dlclose(handle);
    return nullptr;
  }
  std::unique_ptr<KernelLibrary> lib(new KernelLibrary());
  lib->handle_ = handle;
  lib->table_ = table_fn(&lib->count_);
  return lib;
}

KernelLibrary::~KernelLibrary() {
  if (handle_ != nullptr) dlclose(handle_);
}

const NpudKernelInfo* KernelLibrary::Find(const std::string& name) const {
  for (size_t i = 0; i < count_; ++i) {
    if (name == table_[i].name) return &table_[i];
  }
  return nullptr;
}

std::vector<BlockOutcome> RunBlocks(const NpudKernelInfo& kernel, uint32_t block_num,
                                    const void* args, size_t args_size,
                                    const LaunchOptions& options) {
  std::vector<BlockRun> runs(block_num);
  std::vector<std::thread> threads;
  for (uint32_t i = 0; i < block_num; ++i) {
    BlockRun& run = runs[i];
    run.ctx.abi_version = NPUD_KERNEL_ABI_VERSION;
    run.ctx.block_idx = i;
    run.ctx.block_num = block_num;
    run.ctx.core_type = options.core_type;
    run.ctx.ub_size = options.ub_size;
    run.ctx.host = &run;
    run.ctx.print = RecordPrint;
    run.ctx.trap = ThrowTrap;
    if (options.waits) run.ctx.wait = YieldWait;
    threads.emplace_back(RunOneBlock, std::cref(kernel), args, args_size, &run);
  }
  for (std::thread& t : threads) t.join();
  std::vector<BlockOutcome> outcomes;
  for (BlockRun& run : runs) outcomes.push_back(std::move(run.outcome));
  return outcomes;
}

std::string Printed(const BlockOutcome& outcome) {
  std::string all;
  for (const std::string& p : outcome.prints) all += p;
  return all;
}

std::vector<std::string> DefinedDynamicSymbols(const std::string& path, std::string* error) {
  std::ifstream in(path, std::ios::binary);
  const std::string image((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (image.size() < sizeof(Elf64_Ehdr) || std::memcmp(image.data(), ELFMAG, SELFMAG) != 0 ||
      image[EI_CLASS] != ELFCLASS64) {
    *error = path + " is not a 64-bit ELF file";
    return {};
  }
  Elf64_Ehdr eh;
  std::memcpy(&eh, image.data(), sizeof(eh));
  auto section = [&](size_t i) {
    Elf64_Shdr sh;
    std::memcpy(&sh, image.data() + eh.e_shoff + i * eh.e_shentsize, sizeof(sh));
    return sh;
  };
  std::vector<std::string> names;
  for (size_t i = 0; i < eh.e_shnum; ++i) {
    const Elf64_Shdr symtab = section(i);
    if (symtab.sh_type != SHT_DYNSYM) continue;
    const Elf64_Shdr strtab = section(symtab.sh_link);
    for (size_t k = 1; k < symtab.sh_size / sizeof(Elf64_Sym); ++k) {
      Elf64_Sym sym;
      std::memcpy(&sym, image.data() + symtab.sh_offset + k * sizeof(Elf64_Sym), sizeof(sym));
      if (sym.st_shndx == SHN_UNDEF) continue;
      std::string name = image.data() + strtab.sh_offset + sym.st_name;
      if (ELF64_ST_BIND(sym.st_info) == STB_GNU_UNIQUE) name = "unique:" + name;
      names.push_back(name);
    }
  }
  return names;
}

std::unique_ptr<KernelLibrary> LoadOrFail(const std::string& path, int flags) {
  std::string error;
  std::unique_ptr<KernelLibrary> lib = KernelLibrary::Open(path, flags, &error);
  if (lib == nullptr) ADD_FAILURE() << "cannot load " << path << ": " << error;
  return lib;
}

std::vector<uint8_t> PackBytes(size_t size) {
  return std::vector<uint8_t>(size == 0 ? 1 : size, 0);
}

const NpudKernelInfo* FindOrFail(const KernelLibrary& lib, const std::string& name) {
  const NpudKernelInfo* kernel = lib.Find(name);
  if (kernel == nullptr) ADD_FAILURE() << "kernel " << name << " is not registered";
  return kernel;
}

}  // namespace npud::ascendc_test

// kernel_module.h
//
// KernelModule: a kernel shared object loaded into this process — the
// device binary of a client (aclrtBinaryLoadFromData / FromFile, or the code
// a mixed-mode kernel library embeds).
//
// The bytes are written to an anonymous memory file and dlopen()ed from
// there (RTLD_LOCAL: two modules never see each other's symbols); the
// kernels are what its npud_kernel_table lists (see npud_kernel_abi.h).
// Launches hold a reference, so unloading a module whose kernels still run
// only closes it once they are done.
//
// Modules are loaded only where client code may run: in a kernel host
// (executor/) or, with the in-process transport, in the client itself.
//
// Thread-safe (immutable after Load).

#ifndef NPUD_SIMDEVICE_KERNEL_MODULE_H_
#define NPUD_SIMDEVICE_KERNEL_MODULE_H_

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "npud_kernel_abi.h"

namespace npud::sim {

struct KernelInfo {
  std::string name;
  NpudKernelEntry entry = nullptr;
  uint32_t args_size = 0;
  uint32_t kernel_type = NPUD_CORE_TYPE_VECTOR;
  // (offset, size) of each parameter in the packed arguments; empty when
  // the object does not describe its parameters.
  std::vector<std::pair<uint32_t, uint32_t>> params;
  // Where the entry's code lies in the object's file, and its size (0, 0
  // when the symbol table does not say).
  uint64_t code_offset = 0;
  uint64_t code_size = 0;
};

// A device variable of the module (NpudVariableInfo): it lives alone in the
// pages at `address` (the size rounded up to pages), which the loader may
// replace with device memory.
struct VariableInfo {
  std::string name;
  uint64_t address = 0;
  uint64_t size = 0;

  uint64_t mapped_size() const;
};

class KernelModule {
 public:
  // Loads an ELF kernel object. kRtParamInvalid (with the loader's message)
  // for bytes that are not one.
  static absl::StatusOr<std::shared_ptr<const KernelModule>> Load(absl::string_view bytes,
                                                                  absl::string_view label);
  // Checks that `bytes` look like an ELF object (kRtParamInvalid if not)
  // and writes them into a new memory file; returns its descriptor (the
  // caller's). Nothing is loaded.
  static absl::StatusOr<int> StoreFile(absl::string_view bytes, absl::string_view label);
  // Loads the ELF kernel object held by the file `fd` (a memory file), which
  // the module then owns (closed with it, or at once on failure); from
  // `path` when given (a copy of the same bytes), else through /proc.
  static absl::StatusOr<std::shared_ptr<const KernelModule>> LoadFile(int fd,
                                                                      absl::string_view label,
                                                                      const std::string& path = "");
  ~KernelModule();
  KernelModule(const KernelModule&) = delete;
  KernelModule& operator=(const KernelModule&) = delete;

  const std::vector<KernelInfo>& kernels() const { return kernels_; }
  const std::vector<VariableInfo>& variables() const { return variables_; }
  // The memory file the object was loaded from (owned by the module); -1
  // when it was loaded from a path.
  int fd() const { return fd_; }
  const std::string& label() const { return label_; }
  // The index of the kernel called `name`, or -1.
  int Find(absl::string_view name) const;

 private:
  KernelModule(void* handle, int fd, std::string label)
      : handle_(handle), fd_(fd), label_(std::move(label)) {}

  void* const handle_;
  const int fd_;  // The memory file the object was loaded from.
  const std::string label_;
  std::vector<KernelInfo> kernels_;
  std::vector<VariableInfo> variables_;
};

}  // namespace npud::sim

#endif  // NPUD_SIMDEVICE_KERNEL_MODULE_H_

// kernel_registry.h
//
// KernelRegistry: the kernel binaries this process loaded, their functions
// and device variables, and the argument lists (aclrtArgsHandle) built for them.
//
// A function handle names one kernel of one binary. An argument list
// belongs to the binary of its function and goes away when the binary is
// unloaded (CANN has no call to free one).
//
// Thread-safe.

#ifndef NPUD_CLIENT_CORE_KERNEL_REGISTRY_H_
#define NPUD_CLIENT_CORE_KERNEL_REGISTRY_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_map.h"
#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"

namespace npud::client {

struct KernelEntry {
  std::string name;
  uint32_t args_size = 0;
  uint32_t kernel_type = 0;
  uint64_t function_id = 0;
  // (offset, size) of each parameter; empty if the binary does not say.
  std::vector<std::pair<uint32_t, uint32_t>> params;
  // Where the kernel's entry lies in the binary's bytes, and its size.
  uint64_t code_offset = 0;
  uint64_t code_size = 0;
};

// A `__gm__` variable of a binary, in device memory (aclrtBinaryGetGlobal).
struct DeviceVariable {
  std::string name;
  uint64_t address = 0;
  uint64_t size = 0;
};

struct FunctionRef {
  uint64_t binary_id = 0;
  uint32_t index = 0;
  KernelEntry kernel;
};

// An argument list under construction (aclrtKernelArgs*).
struct KernelArgs {
  struct Placeholder {
    uint32_t slot = 0;                // offset of the pointer in `params`
    std::unique_ptr<uint8_t[]> data;  // the host buffer the user fills
    size_t data_size = 0;
  };
  FunctionRef function;
  std::vector<uint8_t> params;
  // Start offset and size of each appended parameter, by param handle - 1.
  std::vector<std::pair<uint32_t, uint32_t>> param_spans;
  std::vector<Placeholder> placeholders;
  // Parameter index of each placeholder.
  std::vector<size_t> placeholder_params;
  bool finalized = false;
};

class KernelRegistry {
 public:
  // Records a loaded binary and the functions of its kernels (whose
  // function_id the caller has minted).
  void AddBinary(uint64_t binary_id, std::vector<KernelEntry> kernels,
                 std::vector<DeviceVariable> variables = {}) ABSL_LOCKS_EXCLUDED(mu_);
  // Forgets a binary, its functions and their argument lists.
  bool RemoveBinary(uint64_t binary_id) ABSL_LOCKS_EXCLUDED(mu_);
  std::optional<std::vector<KernelEntry>> Kernels(uint64_t binary_id) const
      ABSL_LOCKS_EXCLUDED(mu_);
  std::optional<FunctionRef> Function(uint64_t function_id) const ABSL_LOCKS_EXCLUDED(mu_);
  // The device variable `name` of the binary, or nullopt.
  std::optional<DeviceVariable> Variable(uint64_t binary_id, const std::string& name) const
      ABSL_LOCKS_EXCLUDED(mu_);

  // Registers an argument list under `key` (our own object, or the memory a
  // user provided for aclrtKernelArgsInitByUserMem).
  void AddArgs(void* key, std::unique_ptr<KernelArgs> args) ABSL_LOCKS_EXCLUDED(mu_);
  // The argument list under `key`, or nullptr. It stays valid until its
  // binary is unloaded; one argument list is built by one thread at a time,
  // as CANN requires.
  KernelArgs* FindArgs(void* key) const ABSL_LOCKS_EXCLUDED(mu_);

 private:
  struct Binary {
    std::vector<KernelEntry> kernels;
    std::vector<DeviceVariable> variables;
    std::vector<void*> args;
  };

  mutable absl::Mutex mu_;
  absl::flat_hash_map<uint64_t, Binary> binaries_ ABSL_GUARDED_BY(mu_);
  absl::flat_hash_map<uint64_t, FunctionRef> functions_ ABSL_GUARDED_BY(mu_);
  absl::flat_hash_map<void*, std::unique_ptr<KernelArgs>> args_ ABSL_GUARDED_BY(mu_);
};

}  // namespace npud::client

#endif  // NPUD_CLIENT_CORE_KERNEL_REGISTRY_H_

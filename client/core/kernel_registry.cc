#include "client/core/kernel_registry.h"

#include <utility>

namespace npud::client {

void KernelRegistry::AddBinary(uint64_t binary_id, std::vector<KernelEntry> kernels,
                               std::vector<DeviceVariable> variables) {
  absl::MutexLock lock(&mu_);
  for (uint32_t i = 0; i < kernels.size(); ++i) {
    functions_[kernels[i].function_id] = FunctionRef{binary_id, i, kernels[i]};
  }
  binaries_[binary_id].kernels = std::move(kernels);
  binaries_[binary_id].variables = std::move(variables);
}

std::optional<DeviceVariable> KernelRegistry::Variable(uint64_t binary_id,
                                                       const std::string& name) const {
  absl::MutexLock lock(&mu_);
  auto it = binaries_.find(binary_id);
  if (it == binaries_.end()) return std::nullopt;
  for (const DeviceVariable& variable : it->second.variables) {
    if (variable.name == name) return variable;
  }
  return std::nullopt;
}

bool KernelRegistry::RemoveBinary(uint64_t binary_id) {
  absl::MutexLock lock(&mu_);
  auto it = binaries_.find(binary_id);
  if (it == binaries_.end()) return false;
  for (const KernelEntry& kernel : it->second.kernels) functions_.erase(kernel.function_id);
  for (void* key : it->second.args) args_.erase(key);
  binaries_.erase(it);
  return true;
}

std::optional<std::vector<KernelEntry>> KernelRegistry::Kernels(uint64_t binary_id) const {
  absl::MutexLock lock(&mu_);
  auto it = binaries_.find(binary_id);
  if (it == binaries_.end()) return std::nullopt;
  return it->second.kernels;
}

std::optional<FunctionRef> KernelRegistry::Function(uint64_t function_id) const {
  absl::MutexLock lock(&mu_);
  auto it = functions_.find(function_id);
  if (it == functions_.end()) return std::nullopt;
  return it->second;
}

void KernelRegistry::AddArgs(void* key, std::unique_ptr<KernelArgs> args) {
  absl::MutexLock lock(&mu_);
  auto binary = binaries_.find(args->function.binary_id);
  if (binary != binaries_.end()) binary->second.args.push_back(key);
  args_[key] = std::move(args);
}

KernelArgs* KernelRegistry::FindArgs(void* key) const {
  absl::MutexLock lock(&mu_);
  auto it = args_.find(key);
  return it == args_.end() ? nullptr : it->second.get();
}

}  // namespace npud::client

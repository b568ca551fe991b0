#include "client/core/device_symbols.h"

#include <optional>
#include <utility>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_format.h"
#include "absl/synchronization/mutex.h"
#include "client/core/kernel_ops.h"
#include "client/core/memory_ops.h"
#include "common/acl_status.h"
#include "common/status_macros.h"

namespace npud::client {
namespace {

// aclrtMemcpyKind values.
constexpr uint32_t kHostToDevice = 1;
constexpr uint32_t kDeviceToHost = 2;
constexpr uint32_t kDefault = 4;

// Copies to and from symbols take only their own direction, or DEFAULT.
absl::Status CheckKind(uint32_t kind, uint32_t expected) {
  if (kind == expected || kind == kDefault) return absl::OkStatus();
  return AclError(kAclInvalidParam,
                  absl::StrFormat("kind %d: only %d or %d (DEFAULT)", kind, expected, kDefault));
}

class SymbolTable {
 public:
  void Add(const void* symbol, DeviceSymbol entry) {
    absl::MutexLock lock(&mu_);
    symbols_[symbol] = std::move(entry);
  }
  void Remove(const void* symbol) {
    absl::MutexLock lock(&mu_);
    symbols_.erase(symbol);
  }
  std::optional<DeviceSymbol> Find(const void* symbol) const {
    absl::MutexLock lock(&mu_);
    auto it = symbols_.find(symbol);
    if (it == symbols_.end()) return std::nullopt;
    return it->second;
  }

 private:
  mutable absl::Mutex mu_;
  absl::flat_hash_map<const void*, DeviceSymbol> symbols_ ABSL_GUARDED_BY(mu_);
};

// Never destroyed: libraries unregister their symbols from static destructors,
// which may run after ours.
SymbolTable& Symbols() {
  static SymbolTable* const table = new SymbolTable;
  return *table;
}

absl::StatusOr<void*> BinaryOf(const DeviceSymbol& entry) {
  void* binary = nullptr;
  if (const int err = entry.load(&binary); err != 0) {
    return AclError(static_cast<AclCode>(err),
                    absl::StrFormat("cannot load the binary that defines '%s'", entry.name));
  }
  return binary;
}

// [address + offset, + count) of the variable `symbol` names.
absl::StatusOr<uint64_t> SymbolRange(const void* symbol, size_t count, size_t offset) {
  NPUD_ASSIGN_OR_RETURN(const DeviceVariable variable, SymbolVariable(symbol));
  if (offset > variable.size || count > variable.size - offset) {
    return AclError(kAclInvalidParam,
                    absl::StrFormat("offset %d + count %d pass the end of '%s' (%d bytes)", offset,
                                    count, variable.name, variable.size));
  }
  return variable.address + offset;
}

}  // namespace

void RegisterDeviceSymbol(const void* symbol, DeviceSymbol entry) {
  Symbols().Add(symbol, std::move(entry));
}

void UnregisterDeviceSymbol(const void* symbol) { Symbols().Remove(symbol); }

absl::StatusOr<DeviceVariable> SymbolVariable(const void* symbol) {
  const std::optional<DeviceSymbol> entry = Symbols().Find(symbol);
  if (!entry || !entry->is_variable) {
    return AclError(kRtInvalidSymbol,
                    absl::StrFormat("%p is not a device variable of a kernel library", symbol));
  }
  NPUD_ASSIGN_OR_RETURN(void* const binary, BinaryOf(*entry));
  return BinaryVariable(binary, entry->name.c_str());
}

absl::StatusOr<void*> FunctionBySymbol(const void* symbol) {
  const std::optional<DeviceSymbol> entry = Symbols().Find(symbol);
  if (!entry || entry->is_variable) {
    return AclError(kRtInvalidDeviceFunction,
                    absl::StrFormat("%p is not a kernel of a kernel library", symbol));
  }
  NPUD_ASSIGN_OR_RETURN(void* const binary, BinaryOf(*entry));
  absl::StatusOr<void*> function = GetFunction(binary, entry->name.c_str());
  if (!function.ok()) {
    return AclError(kRtInvalidDeviceFunction, std::string(function.status().message()));
  }
  return function;
}

absl::Status CopyToSymbol(const void* symbol, const void* src, size_t count, size_t offset,
                          uint32_t kind, bool async, void* stream) {
  NPUD_RETURN_IF_ERROR(CheckKind(kind, kHostToDevice));
  NPUD_ASSIGN_OR_RETURN(const uint64_t address, SymbolRange(symbol, count, offset));
  return Memcpy(reinterpret_cast<void*>(address), count, src, count, kHostToDevice, async, stream);
}

absl::Status CopyFromSymbol(void* dst, size_t dst_max, const void* symbol, size_t count,
                            size_t offset, uint32_t kind, bool async, void* stream) {
  if (count > dst_max) {
    return AclError(kAclInvalidParam,
                    absl::StrFormat("count %d is more than dstMax %d", count, dst_max));
  }
  NPUD_RETURN_IF_ERROR(CheckKind(kind, kDeviceToHost));
  NPUD_ASSIGN_OR_RETURN(const uint64_t address, SymbolRange(symbol, count, offset));
  return Memcpy(dst, dst_max, reinterpret_cast<const void*>(address), count, kDeviceToHost, async,
                stream);
}

}  // namespace npud::client

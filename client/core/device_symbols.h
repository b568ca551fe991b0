// device_symbols.h
//
// Device symbols: the host addresses by which a program names the kernels and
// `__gm__` variables of the kernel sources built into it (aclrtGetFuncBySymbol,
// aclrtGetSymbolAddress, aclrtMemcpyTo/FromSymbol). The host code that npud's
// AscendC toolchain generates registers each one at load time with its name and
// the function that loads the binary defining it
// (npud_ascendc/host_launch.h, npudRegisterDeviceSymbol); the device side is
// the binary's own (kernel_ops.h: GetFunction, BinaryVariable).
//
// Thread-safe; registration may happen before aclInit.

#ifndef NPUD_CLIENT_CORE_DEVICE_SYMBOLS_H_
#define NPUD_CLIENT_CORE_DEVICE_SYMBOLS_H_

#include <cstddef>
#include <cstdint>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "client/core/kernel_registry.h"

namespace npud::client {

struct DeviceSymbol {
  std::string name;
  size_t size = 0;  // a variable's sizeof; 0 for a kernel
  bool is_variable = false;
  // Loads the binary that defines the symbol (or returns it); an aclError.
  int (*load)(void** binary) = nullptr;
};

void RegisterDeviceSymbol(const void* symbol, DeviceSymbol entry);
void UnregisterDeviceSymbol(const void* symbol);

// The device variable `symbol` names: kRtInvalidSymbol if it names none.
absl::StatusOr<DeviceVariable> SymbolVariable(const void* symbol);
// The function handle of the kernel `symbol` names: kRtInvalidDeviceFunction
// if it names none.
absl::StatusOr<void*> FunctionBySymbol(const void* symbol);

// aclrtMemcpyToSymbol(Async) and aclrtMemcpyFromSymbol(Async): `count` bytes at
// `offset` into the variable. As in CANN, kAclInvalidParam (before the symbol is
// looked up) for a `kind` (aclrtMemcpyKind) other than the copy's direction or
// DEFAULT, or `count` past `dst_max`; and when offset + count pass its end.
absl::Status CopyToSymbol(const void* symbol, const void* src, size_t count, size_t offset,
                          uint32_t kind, bool async, void* stream);
absl::Status CopyFromSymbol(void* dst, size_t dst_max, const void* symbol, size_t count,
                            size_t offset, uint32_t kind, bool async, void* stream);

}  // namespace npud::client

#endif  // NPUD_CLIENT_CORE_DEVICE_SYMBOLS_H_

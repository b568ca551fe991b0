// kernel_ops.h
//
// Kernel binaries, functions, argument lists and launches. A binary's bytes
// go to the daemon once, at load; a launch carries only the function, the
// block count and the packed arguments, and is asynchronous like a copy.

#ifndef NPUD_CLIENT_CORE_KERNEL_OPS_H_
#define NPUD_CLIENT_CORE_KERNEL_OPS_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "client/core/kernel_registry.h"

namespace npud::client {

// A pointer slot in host arguments and the offset of the data it must point
// at (aclrtPlaceHolderInfo).
struct PlaceholderSpan {
  uint32_t slot;
  uint32_t data;
};

// aclrtSetOpExecuteTimeOut*: a kernel running longer than the timeout fails
// with ACL_ERROR_RT_VECTOR_CORE_TIMEOUT / ACL_ERROR_RT_AICORE_TIMEOUT. The
// timeout is a whole number of intervals (aclrtGetOpTimeOutInterval), 1 to
// kMaxOpTimeoutIntervals of them; 0 asks for the default (one minute).
constexpr uint64_t kOpTimeoutIntervalUs = 1'000'000;
constexpr uint64_t kMaxOpTimeoutIntervals = 254;
constexpr uint64_t kDefaultOpTimeoutUs = 60'000'000;
// Sets the timeout of launches made from now on; returns what it became.
absl::StatusOr<uint64_t> SetExecuteTimeout(uint64_t requested_us);
uint64_t ExecuteTimeoutUs();

absl::StatusOr<void*> LoadBinary(absl::string_view bytes, const std::string& label);
// The id of loaded binary `binary` (a handle), else kRtInvalidHandle.
absl::StatusOr<uint64_t> ResolveBinary(void* binary);
// The function handle of kernel `index` of binary `binary_id`; null if the
// binary is not loaded (any more).
void* FunctionHandleOf(uint64_t binary_id, uint32_t index);
absl::StatusOr<void*> LoadBinaryFile(const char* path);
absl::Status UnloadBinary(void* binary);
absl::StatusOr<void*> GetFunction(void* binary, const char* name);
// aclrtBinaryGetGlobal: kRtInvalidSymbol if the binary has no such variable.
absl::StatusOr<DeviceVariable> BinaryVariable(void* binary, const char* name);
// aclrtBinaryGetDevAddress: (address, size) of the binary's bytes in memory
// of the current device, copied there the first time.
absl::StatusOr<std::pair<uint64_t, uint64_t>> BinaryImage(void* binary);
// aclrtGetFunctionAddr/Size: the kernel's entry in the binary's device copy
// (BinaryImage), its size, and its core type (npud_kernel_abi.h).
struct FunctionCodeRange {
  uint64_t address = 0;
  uint64_t size = 0;
  uint32_t kernel_type = 0;
};
absl::StatusOr<FunctionCodeRange> FunctionCode(void* function);
absl::StatusOr<uint32_t> FunctionCount(void* binary);
absl::Status EnumerateFunctions(void* binary, void** functions, uint32_t count);
absl::StatusOr<FunctionRef> ResolveFunction(void* function);

// One attribute of a launch's configuration (aclrtLaunchKernelAttr): its
// id and the value's bytes. A launch carries them to npud, which keeps them
// with a model's task (aclmdlRIKernelTaskGetAttribute) and applies none.
struct LaunchAttribute {
  uint32_t id = 0;
  std::string value;
};
using LaunchAttributes = std::vector<LaunchAttribute>;

// Launches with the packed arguments in host memory (copied at call time).
absl::Status LaunchHostArgs(void* function, uint32_t blocks, void* stream, const void* args,
                            size_t size, const PlaceholderSpan* placeholders, size_t count,
                            const LaunchAttributes& attributes = {});
// Launches with one pointer per parameter (aclrtLaunchKernelWithArgsArray),
// packed with the parameter layout the binary describes.
absl::Status LaunchArgsArray(void* function, uint32_t blocks, void* stream, void** params,
                             const LaunchAttributes& attributes = {});
// Launches with the packed arguments in device memory (read when the launch
// starts).
absl::Status LaunchDeviceArgs(void* function, uint32_t blocks, void* stream, const void* args,
                              size_t size, const LaunchAttributes& attributes = {});

// aclrtKernelArgs*: `key` identifies the list (the aclrtArgsHandle).
absl::StatusOr<void*> ArgsInit(void* function);
absl::Status ArgsInitAt(void* function, void* key);
absl::StatusOr<void*> ArgsAppend(void* key, const void* param, size_t size);
absl::StatusOr<void*> ArgsAppendPlaceholder(void* key);
absl::StatusOr<void*> ArgsPlaceholderBuffer(void* key, void* param, size_t size);
absl::Status ArgsUpdate(void* key, void* param, const void* value, size_t size);
absl::Status ArgsFinalize(void* key);
absl::Status LaunchArgs(void* function, uint32_t blocks, void* stream, void* key,
                        const LaunchAttributes& attributes = {});

}  // namespace npud::client

#endif  // NPUD_CLIENT_CORE_KERNEL_OPS_H_

// exception_callbacks.h
//
// aclrtSetExceptionInfoCallback / aclrtExceptionInfoCallbackRegister: the
// application's functions told of every task of its streams that failed
// on the device (npud's TaskFailed notification). They run in the
// session's receiving thread as the failure arrives, so before the
// synchronize that reports it returns; like CANN's, they must not make
// synchronous ACL calls.
//
// Thread-safe.

#ifndef NPUD_CLIENT_CORE_EXCEPTION_CALLBACKS_H_
#define NPUD_CLIENT_CORE_EXCEPTION_CALLBACKS_H_

#include <cstdint>
#include <functional>

#include "absl/status/status.h"
#include "npud/v1/npud.pb.h"

namespace npud::client {

// What aclrtExceptionInfo tells of a failed task. The task id is its
// number in the stream (as aclrtGetThreadLastTaskId counts); npud does not
// know which thread launched it, so that reads 0.
struct TaskFailure {
  uint32_t task_id = 0;
  uint32_t stream_id = 0;
  uint32_t thread_id = 0;
  uint32_t device_id = 0;
  // The failure's ACL code.
  uint32_t error_code = 0;
  // A failed kernel launch: its binary (0 for other tasks) and kernel, and
  // device memory holding a copy of its arguments (0 if npud made none).
  uint64_t binary_id = 0;
  uint32_t kernel_index = 0;
  uint64_t args_address = 0;
  uint32_t args_size = 0;
};

using ExceptionFn = std::function<void(const TaskFailure&)>;

// Registers `fn` under `key` (one key per registration: CANN keeps
// aclrtSetExceptionInfoCallback's function apart from the registered
// ones, and aclrtBinarySetExceptionCallback's of each binary under the
// binary's handle); an empty `fn` removes the key's function.
void SetExceptionCallback(uint64_t key, ExceptionFn fn);

// Calls every registered function for `failed`.
void ReportTaskFailure(const v1::TaskFailed& failed);

}  // namespace npud::client

#endif  // NPUD_CLIENT_CORE_EXCEPTION_CALLBACKS_H_

// task_abort.h
//
// Aborting queued work: aclrtStreamAbort drops what a stream has not
// started; aclrtDeviceTaskAbort does it for every stream of this process on
// a device, between the PRE and POST calls of the callbacks registered with
// aclrtSetDeviceTaskAbortCallback. A task that is running (a kernel on the
// AI cores) finishes: the CPU model cannot stop it halfway.
//
// Thread-safe.

#ifndef NPUD_CLIENT_CORE_TASK_ABORT_H_
#define NPUD_CLIENT_CORE_TASK_ABORT_H_

#include <cstdint>
#include <functional>
#include <string>

#include "absl/status/status.h"

namespace npud::client {

absl::Status AbortStream(void* stream);
// `timeout_ms` 0: waits for the running tasks however long they take.
absl::Status AbortDeviceTasks(int32_t device, uint32_t timeout_ms);

// Called with (device, stage: 0 PRE / 1 POST, timeout_ms); its result is
// logged when not 0.
using TaskAbortCallback = std::function<int32_t(int32_t, int, uint32_t)>;
// Registers `fn` under `name`, or removes that name with a null `fn`.
// kAclInvalidParam for an empty name or a name registered already.
absl::Status SetTaskAbortCallback(const std::string& name, TaskAbortCallback fn);

}  // namespace npud::client

#endif  // NPUD_CLIENT_CORE_TASK_ABORT_H_

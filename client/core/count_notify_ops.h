// count_notify_ops.h
//
// Count notifies (aclrtCntNotify*): 32-bit device counters that streams
// record into (set, add, or, and) and wait on until a condition holds.

#ifndef NPUD_CLIENT_CORE_COUNT_NOTIFY_OPS_H_
#define NPUD_CLIENT_CORE_COUNT_NOTIFY_OPS_H_

#include <cstdint>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace npud::client {

absl::StatusOr<void*> CreateCountNotify(uint64_t flags);
absl::Status DestroyCountNotify(void* notify);
absl::Status RecordCountNotify(void* notify, void* stream, uint32_t mode, uint32_t value);
absl::Status WaitCountNotify(void* notify, void* stream, uint32_t mode, uint32_t value,
                             uint32_t timeout_ms, bool clear);
absl::Status ResetCountNotify(void* notify, void* stream);
absl::StatusOr<uint32_t> CountNotifyId(void* notify);

}  // namespace npud::client

#endif  // NPUD_CLIENT_CORE_COUNT_NOTIFY_OPS_H_

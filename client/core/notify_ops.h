// notify_ops.h
//
// Notifies (a flag one stream records and another waits for and clears,
// also across processes by key) and stream-ordered values in device memory
// (aclrtValueWrite / aclrtValueWait).

#ifndef NPUD_CLIENT_CORE_NOTIFY_OPS_H_
#define NPUD_CLIENT_CORE_NOTIFY_OPS_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace npud::client {

absl::StatusOr<void*> CreateNotify(uint64_t flags);
absl::Status DestroyNotify(void* notify);
absl::Status RecordNotify(void* notify, void* stream);
absl::Status WaitAndResetNotify(void* notify, void* stream, uint32_t timeout);
absl::StatusOr<uint32_t> NotifyId(void* notify);
// aclrtNotifyBatchReset: clears the notifies now (from the host).
absl::Status ResetNotifies(void* const* notifies, size_t count);
absl::StatusOr<std::string> ExportNotify(void* notify, uint64_t flags);
absl::Status SetNotifyImportPids(void* notify, const std::vector<int64_t>& pids);
absl::StatusOr<void*> ImportNotify(const char* key, uint64_t flags);

absl::Status ValueWrite(void* address, uint64_t value, uint32_t flag, void* stream);
absl::Status ValueWait(void* address, uint64_t value, uint32_t flag, void* stream);

}  // namespace npud::client

#endif  // NPUD_CLIENT_CORE_NOTIFY_OPS_H_

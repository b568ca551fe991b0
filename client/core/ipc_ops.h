// ipc_ops.h
//
// Sharing between processes through the daemon: device memory exported
// under a key and imported at the same device address by other processes,
// events shared by handle, and peer access between devices.

#ifndef NPUD_CLIENT_CORE_IPC_OPS_H_
#define NPUD_CLIENT_CORE_IPC_OPS_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace npud::client {

absl::StatusOr<std::string> IpcExportMemory(void* pointer, size_t size, uint64_t flags);
absl::Status IpcSetImportPids(const char* key, const std::vector<int64_t>& pids);
absl::StatusOr<void*> IpcImportMemory(const char* key, uint64_t flags);
absl::Status IpcClose(const char* key);
// The pid IPC allow-lists name this process by: the one npud knows it by
// (the host's when the process runs in a pid namespace of its own), or
// getpid() when no npud answers.
int64_t BareTgid();
absl::StatusOr<std::string> IpcExportEvent(void* event);
absl::StatusOr<void*> IpcOpenEvent(const std::string& key);

absl::StatusOr<bool> CanAccessPeer(int32_t device, int32_t peer);
// Peer access of the current device to `peer`.
absl::Status SetPeerAccess(int32_t peer, uint32_t flags, bool enable);

}  // namespace npud::client

#endif  // NPUD_CLIENT_CORE_IPC_OPS_H_

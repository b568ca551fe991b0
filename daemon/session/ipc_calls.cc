// Sharing between processes: device memory exported under keys (with pid
// allow-lists) and imported into the session's ledger, and IPC events.

#include <sys/stat.h>

#include <cerrno>
#include <cstring>
#include <memory>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "common/acl_status.h"
#include "common/status_macros.h"
#include "daemon/session/calls.h"
#include "simdevice/device_memory.h"
#include "spdlog/spdlog.h"

namespace npud::daemon {
namespace {

// ACL_RT_IPC_MEM_EXPORT_FLAG_DISABLE_PID_VALIDATION.
constexpr uint64_t kIpcDisablePidCheck = 1;
// ACL_EVENT_IPC.
constexpr uint32_t kEventIpcFlag = 0x40;

constexpr uint64_t kPage = sim::DeviceMemory::kPageSize;

// An importer's kernel host is handed the memory file behind what it
// imported, and kernels run hostile code that can map all of a file the
// host is handed, not just the pages npud maps (a module constructor can
// make the host keep its descriptors). So a range is shared only if the
// pages it covers are its whole file: the importer's kernels then reach
// those pages and nothing more. A file cannot be split while others use it.
absl::Status SharesWholeFile(const sim::DeviceRange& range) {
  if (range.fd < 0) return absl::OkStatus();  // no host is handed anything
  struct stat file;
  if (fstat(range.fd, &file) != 0) {
    return AclError(kRtInternalError,
                    absl::StrCat("cannot size the shared memory: ", std::strerror(errno)));
  }
  const uint64_t first = range.address / kPage * kPage;
  const uint64_t end = (range.address + range.size + kPage - 1) / kPage * kPage;
  const uint64_t whole = static_cast<uint64_t>(file.st_size);
  if (range.FileOffsetOf(first) == 0 && end - first == whole) return absl::OkStatus();
  return AclError(kRtFeatureNotSupport,
                  absl::StrFormat("npud shares only ranges that cover every page of their "
                                  "allocation: %#x+%u covers %u of its %u bytes, and the "
                                  "importer's kernels could reach all of them",
                                  range.address, range.size, end - first, whole));
}

}  // namespace

Outcome IpcExportMemory(SessionState& s, const v1::IpcExportMemory& op) {
  if (op.size() == 0) return AclError(kRtParamInvalid, "cannot share 0 bytes");
  NPUD_ASSIGN_OR_RETURN(sim::DeviceRange range, s.memory.Owned(op.address(), op.size()));
  NPUD_RETURN_IF_ERROR(SharesWholeFile(range));
  const bool check_pid = (op.flags() & kIpcDisablePidCheck) == 0;
  v1::Reply reply;
  reply.mutable_ipc()->set_key(s.services.ipc->ExportMemory(s.id, std::move(range), check_pid));
  spdlog::info("session {} (pid {}) shares {:#x}+{} as {}{}", s.id, s.peer.pid, op.address(),
               op.size(), reply.ipc().key(), check_pid ? "" : " (any process)");
  return reply;
}

Outcome IpcSetImportPids(SessionState& s, const v1::IpcSetImportPids& op) {
  std::vector<int64_t> pids(op.pids().begin(), op.pids().end());
  return Done(s.services.ipc->SetImportPids(s.id, op.key(), pids, s.peer.PidSpace()));
}

Outcome IpcImportMemory(SessionState& s, const v1::IpcImportMemory& op) {
  NPUD_ASSIGN_OR_RETURN(std::shared_ptr<SharedMemory> memory,
                        s.services.ipc->ImportMemory(op.key(), s.peer.ipc_pid()));
  v1::Reply reply;
  reply.mutable_ipc()->set_address(memory->address());
  reply.mutable_ipc()->set_size(memory->size());
  reply.mutable_ipc()->set_device_id(memory->device_id());
  spdlog::info("session {} (pid {}) imported {} ({:#x}+{}) of session {}", s.id, s.peer.pid,
               op.key(), memory->address(), memory->size(), memory->owner());
  NPUD_RETURN_IF_ERROR(s.memory.AddImport(op.key(), std::move(memory)));
  return reply;
}

Outcome IpcClose(SessionState& s, const v1::IpcClose& op) {
  if (s.memory.CloseImport(op.key())) return v1::Reply();
  if (s.services.ipc->Unexport(s.id, op.key()).ok()) return v1::Reply();
  return AclError(kRtParamInvalid,
                  absl::StrFormat("'%s' is not a key this process imported or exports", op.key()));
}

Outcome IpcExportEvent(SessionState& s, const v1::IpcExportEvent& op) {
  NPUD_ASSIGN_OR_RETURN(std::shared_ptr<sim::Event> event, s.events.Find(op.event_id()));
  if ((event->flags() & kEventIpcFlag) == 0) {
    return AclError(kRtParamInvalid, "only events created with ACL_EVENT_IPC can be shared");
  }
  v1::Reply reply;
  reply.mutable_ipc()->set_key(s.services.ipc->ExportEvent(s.id, std::move(event)));
  return reply;
}

Outcome IpcOpenEvent(SessionState& s, const v1::IpcOpenEvent& op) {
  if (op.event_id() == 0) return AclError(kRtParamInvalid, "event id 0 is reserved");
  NPUD_ASSIGN_OR_RETURN(std::shared_ptr<sim::Event> event, s.services.ipc->OpenEvent(op.key()));
  v1::Reply reply;
  reply.mutable_ipc()->set_event_flags(event->flags());
  reply.mutable_ipc()->set_device_id(event->device_id());
  s.events.Put(op.event_id(), std::move(event));
  return reply;
}

}  // namespace npud::daemon

// Process snapshots (aclrtSnapShotProcessBackup/Restore/Unlock): the
// session's device allocations saved in npud and written back.

#include <memory>
#include <utility>
#include <vector>

#include "daemon/session/calls.h"
#include "daemon/session/sync_waiter.h"
#include "spdlog/spdlog.h"

namespace npud::daemon {

void Snapshot(SessionState& s, uint64_t call_id, const v1::Snapshot& op) {
  switch (op.action()) {
    case v1::Snapshot::ACTION_BACKUP: {
      // Pinned now, copied once the work queued before has run (CANN
      // synchronizes every context before it backs up).
      std::vector<sim::DeviceRange> allocations = MemorySnapshot::Allocations(s.memory);
      s.WhenStreamsDrained([snapshot = s.snapshot, allocations = std::move(allocations),
                            sink = s.sink(), call_id, session = s.id] {
        const uint64_t bytes = snapshot->Save(allocations);
        spdlog::info("session {}: snapshot backup of {} allocations, {} bytes", session,
                     allocations.size(), bytes);
        if (call_id != 0) SendStatusReply(*sink, call_id, absl::OkStatus());
      });
      return;
    }
    case v1::Snapshot::ACTION_RESTORE: {
      absl::StatusOr<uint64_t> bytes = s.snapshot->Restore(s.memory);
      if (bytes.ok()) spdlog::info("session {}: snapshot restore of {} bytes", s.id, *bytes);
      return s.Finish(call_id, 0, Done(bytes.status()));
    }
    case v1::Snapshot::ACTION_DISCARD:
      s.snapshot->Discard();
      return s.Finish(call_id, 0, v1::Reply());
    default:
      return s.Finish(call_id, 0, AclError(kRtParamInvalid, "unknown snapshot action"));
  }
}

}  // namespace npud::daemon

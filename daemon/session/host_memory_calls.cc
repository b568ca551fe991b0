// Host memory the client shares with the daemon over the local protocol:
// copies between it and device memory are one memcpy here instead of bytes
// on the wire, and aclrtHostRegister maps it among the device virtual
// addresses so kernels reach it too.

#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cstring>
#include <memory>
#include <utility>

#include "absl/strings/str_format.h"
#include "absl/synchronization/notification.h"
#include "common/acl_status.h"
#include "common/status_macros.h"
#include "daemon/session/calls.h"
#include "spdlog/spdlog.h"

namespace npud::daemon {
namespace {

// Large copies are split over two threads: one core's memcpy is well below
// what the memory system gives two.
constexpr size_t kSplitCopyBytes = 16 << 20;

// Copies with help from an idle copy helper when the copy is large. The
// first half goes to whoever gets to it first — the helper, or this thread
// once done with the second half — so a helper that never starts (busy, or
// its job dropped at shutdown) costs nothing but the split.
void CopyBytes(BoundedExecutor* helpers, uint64_t session, uint8_t* dst, const uint8_t* src,
               size_t size) {
  if (size < kSplitCopyBytes) {
    std::memcpy(dst, src, size);
    return;
  }
  const size_t half = size / 2 / 4096 * 4096;
  struct FirstHalf {
    std::atomic<bool> claimed{false};
    absl::Notification done;
  };
  auto first = std::make_shared<FirstHalf>();
  helpers
      ->Schedule(session,
                 [first, dst, src, half] {
                   if (first->claimed.exchange(true)) return;
                   std::memcpy(dst, src, half);
                   first->done.Notify();
                 })
      .IgnoreError();  // busy: this thread copies both halves
  std::memcpy(dst + half, src + half, size - half);
  if (!first->claimed.exchange(true)) {
    std::memcpy(dst, src, half);
    return;
  }
  first->done.WaitForNotification();
}

absl::Status NotRegistered(uint64_t window_id) {
  return AclError(kRtParamInvalid, absl::StrFormat("host window %d is not registered", window_id));
}

}  // namespace

Outcome RegisterHostMemory(SessionState& s, const v1::RegisterHostMemory& op, int fd) {
  if (fd < 0) {
    return AclError(kRtParamInvalid,
                    "no shared memory came with RegisterHostMemory (local protocol only)");
  }
  NPUD_ASSIGN_OR_RETURN(std::shared_ptr<HostWindow> window, HostWindow::Map(fd, op.size()));
  if (op.window_id() == 0 || s.windows.Contains(op.window_id())) {
    return AclError(kRtParamInvalid,
                    absl::StrFormat("host window %d is already registered", op.window_id()));
  }
  NPUD_RETURN_IF_ERROR(s.windows.Add(
      op.window_id(), std::make_shared<SharedWindow>(SharedWindow{std::move(window), op.use()})));
  spdlog::debug("session {}: host window {} of {} bytes", s.id, op.window_id(), op.size());
  return v1::Reply();
}

Outcome ReleaseHostMemory(SessionState& s, const v1::ReleaseHostMemory& op) {
  // Copies in flight hold the window: it is unmapped after the last one.
  if (!s.windows.Take(op.window_id()).ok()) return NotRegistered(op.window_id());
  return v1::Reply();
}

Outcome MapHostWindow(SessionState& s, const v1::MapHostWindow& op) {
  NPUD_RETURN_IF_ERROR(s.devices().Get(op.device_id()).status());
  auto shared = s.windows.Find(op.window_id());
  if (s.mapped_windows.Contains(op.window_id())) {
    return AclError(kRtParamInvalid,
                    absl::StrFormat("host window %d is already registered", op.window_id()));
  }
  if (!shared.ok()) return NotRegistered(op.window_id());
  const std::shared_ptr<HostWindow>* window = &(*shared)->window;
  // Device mappings come in whole granules: the file grows to match (the
  // client's own mapping is unaffected).
  constexpr uint64_t kGranule = sim::PhysicalMemory::kGranularity;
  const uint64_t size = ((*window)->size() + kGranule - 1) / kGranule * kGranule;
  struct stat st;
  if (fstat((*window)->fd(), &st) != 0 ||
      (static_cast<uint64_t>(st.st_size) < size && ftruncate((*window)->fd(), size) != 0)) {
    return AclError(kRtMemoryAllocation, "cannot extend shared host memory to a whole granule");
  }
  const int fd = dup((*window)->fd());
  if (fd < 0) return AclError(kRtMemoryAllocation, "out of file descriptors");
  auto memory = sim::PhysicalMemory::AdoptHostMemory(fd, op.device_id(), size);
  sim::VirtualAddressSpace& vmm = s.devices().vmm();
  NPUD_ASSIGN_OR_RETURN(const uint64_t address, vmm.Reserve(s.id, size, 0, 0));
  if (absl::Status mapped = vmm.Map(s.id, address, size, 0, std::move(memory)); !mapped.ok()) {
    vmm.Release(s.id, address).IgnoreError();
    return mapped;
  }
  s.mapped_windows.Put(op.window_id(), std::make_shared<uint64_t>(address));
  spdlog::debug("session {}: host window {} registered at device address {:#x}", s.id,
                op.window_id(), address);
  v1::Reply reply;
  reply.mutable_malloc()->set_address(address);
  return reply;
}

Outcome UnmapHostWindow(SessionState& s, const v1::UnmapHostWindow& op) {
  auto address = s.mapped_windows.Take(op.window_id());
  if (!address.ok()) return NotRegistered(op.window_id());
  sim::VirtualAddressSpace& vmm = s.devices().vmm();
  NPUD_RETURN_IF_ERROR(vmm.Unmap(s.id, **address));
  return Done(vmm.Release(s.id, **address));
}

TaskOrError HostCopyTask(SessionState& s, const v1::HostCopy& op) {
  auto shared = s.windows.Find(op.window_id());
  if (!shared.ok()) return NotRegistered(op.window_id());
  std::shared_ptr<HostWindow> window = (*shared)->window;
  if (op.window_offset() > window->size() || op.size() > window->size() - op.window_offset()) {
    return AclError(kRtParamInvalid,
                    absl::StrFormat("host range %u+%u runs past its window of %u bytes",
                                    op.window_offset(), op.size(), window->size()));
  }
  NPUD_ASSIGN_OR_RETURN(sim::DeviceRange device, s.memory.Access(op.device_address(), op.size()));
  s.CountCopy((*shared)->use == v1::HOST_WINDOW_STAGING ? &CopyCounters::staging_bytes
                                                        : &CopyCounters::window_bytes,
              op.size());
  uint8_t* host = window->data() + op.window_offset();
  const bool to_device = op.to_device();
  return std::make_unique<sim::FunctionTask>(
      to_device ? "host-window-to-device" : "device-to-host-window",
      [window = std::move(window), device = std::move(device), host, to_device,
       helpers = s.services.copy_helpers, session = s.id] {
        if (to_device) {
          CopyBytes(helpers, session, device.data(), host, device.size);
        } else {
          CopyBytes(helpers, session, host, device.data(), device.size);
        }
        return absl::OkStatus();
      },
      sim::TaskKind::kCopy, op.size());
}

}  // namespace npud::daemon

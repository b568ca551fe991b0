// Session handlers for host memory the client shares with the daemon over
// the local protocol: copies between it and device memory are one memcpy
// here instead of bytes on the wire.

#include <sys/stat.h>
#include <unistd.h>

#include <cstring>
#include <thread>
#include <utility>

#include "absl/strings/str_format.h"
#include "common/acl_status.h"
#include "daemon/session.h"
#include "simdevice/task.h"
#include "spdlog/spdlog.h"

namespace npud::daemon {
namespace {

// Large copies are split over two threads: one core's memcpy is well below
// what the memory system gives two.
constexpr size_t kSplitCopyBytes = 16 << 20;

void CopyBytes(uint8_t* dst, const uint8_t* src, size_t size) {
  if (size < kSplitCopyBytes) {
    std::memcpy(dst, src, size);
    return;
  }
  const size_t half = size / 2 / 4096 * 4096;
  std::thread helper([=] { std::memcpy(dst, src, half); });
  std::memcpy(dst + half, src + half, size - half);
  helper.join();
}

}  // namespace

Session::Outcome Session::RegisterHostMemory(const v1::RegisterHostMemory& op, int fd) {
  if (fd < 0) {
    return AclError(kRtParamInvalid,
                    "no shared memory came with RegisterHostMemory (local protocol only)");
  }
  auto window = HostWindow::Map(fd, op.size());
  if (!window.ok()) return window.status();
  absl::MutexLock lock(&mu_);
  if (!windows_.emplace(op.window_id(), *std::move(window)).second) {
    return AclError(kRtParamInvalid,
                    absl::StrFormat("host window %d is already registered", op.window_id()));
  }
  spdlog::debug("session {}: host window {} of {} bytes", id_, op.window_id(), op.size());
  return v1::Reply();
}

Session::Outcome Session::ReleaseHostMemory(const v1::ReleaseHostMemory& op) {
  std::shared_ptr<HostWindow> window;  // Unmapped after the lock, if last.
  absl::MutexLock lock(&mu_);
  auto it = windows_.find(op.window_id());
  if (it == windows_.end()) {
    return AclError(kRtParamInvalid,
                    absl::StrFormat("host window %d is not registered", op.window_id()));
  }
  window = std::move(it->second);
  windows_.erase(it);
  return v1::Reply();
}

Session::Outcome Session::MapHostWindow(const v1::MapHostWindow& op) {
  if (auto device = devices_->Get(op.device_id()); !device.ok()) return device.status();
  std::shared_ptr<HostWindow> window;
  {
    absl::MutexLock lock(&mu_);
    auto it = windows_.find(op.window_id());
    if (it != windows_.end()) window = it->second;
    if (mapped_windows_.contains(op.window_id())) {
      return AclError(kRtParamInvalid,
                      absl::StrFormat("host window %d is already registered", op.window_id()));
    }
  }
  if (window == nullptr) {
    return AclError(kRtParamInvalid,
                    absl::StrFormat("host window %d is not registered", op.window_id()));
  }
  // Device mappings come in whole granules: the file grows to match (the
  // client's own mapping is unaffected).
  constexpr uint64_t kGranule = sim::PhysicalMemory::kGranularity;
  const uint64_t size = (window->size() + kGranule - 1) / kGranule * kGranule;
  struct stat st;
  if (fstat(window->fd(), &st) != 0 ||
      (static_cast<uint64_t>(st.st_size) < size && ftruncate(window->fd(), size) != 0)) {
    return AclError(kRtMemoryAllocation, "cannot extend shared host memory to a whole granule");
  }
  const int fd = dup(window->fd());
  if (fd < 0) return AclError(kRtMemoryAllocation, "out of file descriptors");
  auto memory = sim::PhysicalMemory::AdoptHostMemory(fd, op.device_id(), size);
  sim::VirtualAddressSpace& vmm = devices_->vmm();
  auto address = vmm.Reserve(id_, size, 0, 0);
  if (!address.ok()) return address.status();
  if (absl::Status mapped = vmm.Map(id_, *address, size, 0, std::move(memory)); !mapped.ok()) {
    vmm.Release(id_, *address).IgnoreError();
    return mapped;
  }
  {
    absl::MutexLock lock(&mu_);
    mapped_windows_[op.window_id()] = *address;
  }
  spdlog::debug("session {}: host window {} registered at device address {:#x}", id_,
                op.window_id(), *address);
  v1::Reply reply;
  reply.mutable_malloc()->set_address(*address);
  return reply;
}

Session::Outcome Session::UnmapHostWindow(const v1::UnmapHostWindow& op) {
  uint64_t address = 0;
  {
    absl::MutexLock lock(&mu_);
    auto it = mapped_windows_.find(op.window_id());
    if (it == mapped_windows_.end()) {
      return AclError(kRtParamInvalid,
                      absl::StrFormat("host window %d is not registered", op.window_id()));
    }
    address = it->second;
    mapped_windows_.erase(it);
  }
  sim::VirtualAddressSpace& vmm = devices_->vmm();
  if (absl::Status s = vmm.Unmap(id_, address); !s.ok()) return s;
  return Done(vmm.Release(id_, address));
}

Session::TaskOrError Session::HostCopyTask(const v1::HostCopy& op) {
  std::shared_ptr<HostWindow> window;
  {
    absl::MutexLock lock(&mu_);
    auto it = windows_.find(op.window_id());
    if (it != windows_.end()) window = it->second;
  }
  if (window == nullptr) {
    return AclError(kRtParamInvalid,
                    absl::StrFormat("host window %d is not registered", op.window_id()));
  }
  if (op.window_offset() > window->size() || op.size() > window->size() - op.window_offset()) {
    return AclError(kRtParamInvalid,
                    absl::StrFormat("host range %u+%u runs past its window of %u bytes",
                                    op.window_offset(), op.size(), window->size()));
  }
  auto device = Access(op.device_address(), op.size());
  if (!device.ok()) return device.status();
  uint8_t* host = window->data() + op.window_offset();
  const bool to_device = op.to_device();
  return std::make_unique<sim::FunctionTask>(
      to_device ? "host-window-to-device" : "device-to-host-window",
      [window = std::move(window), device = *std::move(device), host, to_device] {
        if (to_device) {
          CopyBytes(device.data(), host, device.size);
        } else {
          CopyBytes(host, device.data(), device.size);
        }
        return absl::OkStatus();
      });
}

}  // namespace npud::daemon

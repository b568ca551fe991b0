// Session handlers for host memory the client shares with the daemon over
// the local protocol: copies between it and device memory are one memcpy
// here instead of bytes on the wire.

#include <unistd.h>

#include <cstring>
#include <thread>
#include <utility>

#include "absl/strings/str_format.h"
#include "daemon/session.h"
#include "proto/npud/acl_status.h"
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

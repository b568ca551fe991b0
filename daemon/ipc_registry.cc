#include "daemon/ipc_registry.h"

#include <utility>

#include "absl/strings/str_format.h"
#include "common/acl_status.h"

namespace npud::daemon {

absl::StatusOr<sim::DeviceRange> SharedMemory::Range(uint64_t address, uint64_t size) const {
  absl::MutexLock lock(&mu_);
  if (pin_ == nullptr) {
    return AclError(
        kRtIpcError,
        absl::StrFormat("shared memory %#x is gone: the exporting process ended", address_));
  }
  return sim::DeviceRange{pin_, device_id_, address, size, address_, size_, fd_, fd_offset_};
}

void SharedMemory::Revoke() {
  std::shared_ptr<const void> pin;
  {
    absl::MutexLock lock(&mu_);
    pin = std::move(pin_);
  }
  // Released here, outside mu_, if this was the last reference.
}

std::string IpcRegistry::NewKey(const char* kind) {
  // The daemon instance is part of the key: a key taken to another daemon
  // is refused there.
  return absl::StrFormat("npud-%s-%016x-%d", kind, instance_id_, next_++);
}

std::string IpcRegistry::ExportMemory(uint64_t owner, sim::DeviceRange range, bool check_pid) {
  auto memory = std::make_shared<SharedMemory>(owner, std::move(range));
  absl::MutexLock lock(&mu_);
  std::string key = NewKey("mem");
  memory_[key] = MemoryExport{std::move(memory), check_pid, {}};
  return key;
}

void IpcRegistry::Allow(AllowList& list, const std::vector<int64_t>& pids,
                        const std::string& space) {
  for (int64_t pid : pids) list.insert({space, pid});
}

bool IpcRegistry::Allowed(const AllowList& list, const IpcPid& importer) {
  return list.contains({importer.space, importer.pid});
}

absl::Status IpcRegistry::SetImportPids(uint64_t owner, const std::string& key,
                                        const std::vector<int64_t>& pids,
                                        const std::string& space) {
  absl::MutexLock lock(&mu_);
  auto it = memory_.find(key);
  if (it == memory_.end() || it->second.memory->owner() != owner) {
    return AclError(kRtParamInvalid,
                    absl::StrFormat("'%s' is not a key this process exports", key));
  }
  Allow(it->second.pids, pids, space);
  return absl::OkStatus();
}

absl::StatusOr<std::shared_ptr<SharedMemory>> IpcRegistry::ImportMemory(const std::string& key,
                                                                        const IpcPid& importer) {
  absl::MutexLock lock(&mu_);
  auto it = memory_.find(key);
  if (it == memory_.end()) {
    return AclError(kRtParamInvalid,
                    absl::StrFormat("no memory is shared under key '%s' on this npud", key));
  }
  if (it->second.check_pid && !Allowed(it->second.pids, importer)) {
    return AclError(
        kRtNoPermission,
        absl::StrFormat("process %d is not on the allow-list of key '%s'", importer.pid, key));
  }
  return it->second.memory;
}

std::string IpcRegistry::ExportEvent(uint64_t owner, std::shared_ptr<sim::Event> event) {
  absl::MutexLock lock(&mu_);
  for (const auto& [key, exported] : events_) {
    if (exported.event == event) return key;  // One handle per event.
  }
  std::string key = NewKey("ev");
  events_[key] = EventExport{owner, std::move(event)};
  return key;
}

absl::StatusOr<std::shared_ptr<sim::Event>> IpcRegistry::OpenEvent(const std::string& key) {
  absl::MutexLock lock(&mu_);
  auto it = events_.find(key);
  if (it == events_.end()) {
    return AclError(kRtParamInvalid,
                    absl::StrFormat("no event is shared under handle '%s' on this npud", key));
  }
  return it->second.event;
}

std::string IpcRegistry::ExportNotify(uint64_t owner, std::shared_ptr<sim::Notify> notify,
                                      bool check_pid) {
  absl::MutexLock lock(&mu_);
  for (auto& [key, exported] : notifies_) {
    if (exported.notify == notify) {
      exported.check_pid = check_pid;
      return key;
    }
  }
  std::string key = NewKey("notify");
  notifies_[key] = NotifyExport{owner, std::move(notify), check_pid, {}};
  return key;
}

absl::Status IpcRegistry::SetNotifyPids(uint64_t owner, const std::shared_ptr<sim::Notify>& notify,
                                        const std::vector<int64_t>& pids,
                                        const std::string& space) {
  absl::MutexLock lock(&mu_);
  for (auto& [key, exported] : notifies_) {
    if (exported.notify == notify && exported.owner == owner) {
      Allow(exported.pids, pids, space);
      return absl::OkStatus();
    }
  }
  return AclError(kRtParamInvalid, "the notify has not been exported (aclrtNotifyGetExportKey)");
}

absl::StatusOr<std::shared_ptr<sim::Notify>> IpcRegistry::ImportNotify(const std::string& key,
                                                                       const IpcPid& importer) {
  absl::MutexLock lock(&mu_);
  auto it = notifies_.find(key);
  if (it == notifies_.end()) {
    return AclError(kRtParamInvalid,
                    absl::StrFormat("no notify is shared under key '%s' on this npud", key));
  }
  if (it->second.check_pid && !Allowed(it->second.pids, importer)) {
    return AclError(
        kRtNoPermission,
        absl::StrFormat("process %d is not on the allow-list of notify '%s'", importer.pid, key));
  }
  return it->second.notify;
}

uint64_t IpcRegistry::ExportPhysical(uint64_t owner, std::shared_ptr<sim::PhysicalMemory> memory,
                                     bool check_pid, std::shared_ptr<DrainFence> fence) {
  absl::MutexLock lock(&mu_);
  for (auto& [handle, exported] : physical_) {
    if (exported.memory == memory) {
      exported.check_pid = check_pid;
      exported.fence = std::move(fence);
      return handle;
    }
  }
  // The daemon instance sits in the high bits, so a handle taken to another
  // daemon is refused there.
  const uint64_t handle = ((instance_id_ & 0xffffff) << 40) | next_++;
  physical_[handle] = PhysicalExport{owner, std::move(memory), check_pid, {}, std::move(fence)};
  return handle;
}

absl::Status IpcRegistry::SetPhysicalPids(uint64_t owner, uint64_t handle,
                                          const std::vector<int64_t>& pids,
                                          const std::string& space) {
  absl::MutexLock lock(&mu_);
  auto it = physical_.find(handle);
  if (it == physical_.end() || it->second.owner != owner) {
    return AclError(kRtParamInvalid,
                    absl::StrFormat("%#x is not a shareable handle this process exported", handle));
  }
  Allow(it->second.pids, pids, space);
  return absl::OkStatus();
}

absl::StatusOr<std::shared_ptr<sim::PhysicalMemory>> IpcRegistry::ImportPhysical(
    uint64_t handle, const IpcPid& importer) {
  absl::MutexLock lock(&mu_);
  auto it = physical_.find(handle);
  if (it == physical_.end()) {
    return AclError(
        kRtParamInvalid,
        absl::StrFormat("no physical memory is shared under handle %#x on this npud", handle));
  }
  if (it->second.check_pid && !Allowed(it->second.pids, importer)) {
    return AclError(kRtNoPermission,
                    absl::StrFormat("process %d is not on the allow-list of shareable handle %#x",
                                    importer.pid, handle));
  }
  return it->second.memory;
}

std::shared_ptr<DrainFence> IpcRegistry::PhysicalFence(uint64_t handle) const {
  absl::MutexLock lock(&mu_);
  auto it = physical_.find(handle);
  return it != physical_.end() ? it->second.fence : nullptr;
}

void IpcRegistry::UnexportPhysical(uint64_t owner, const sim::PhysicalMemory* memory) {
  std::shared_ptr<sim::PhysicalMemory> doomed;
  absl::MutexLock lock(&mu_);
  for (auto it = physical_.begin(); it != physical_.end(); ++it) {
    if (it->second.owner == owner && it->second.memory.get() == memory) {
      doomed = std::move(it->second.memory);  // Released after the lock.
      physical_.erase(it);
      return;
    }
  }
}

absl::Status IpcRegistry::Unexport(uint64_t owner, const std::string& key) {
  absl::MutexLock lock(&mu_);
  auto it = memory_.find(key);
  if (it == memory_.end() || it->second.memory->owner() != owner) {
    return absl::NotFoundError(key);
  }
  // Importers keep it, but only while the exporter lives.
  withdrawn_[owner].push_back(it->second.memory);
  memory_.erase(it);
  return absl::OkStatus();
}

void IpcRegistry::RevokeAll(uint64_t owner) {
  std::vector<std::shared_ptr<SharedMemory>> revoked;
  std::vector<std::shared_ptr<sim::PhysicalMemory>> revoked_physical;
  {
    absl::MutexLock lock(&mu_);
    for (auto it = memory_.begin(); it != memory_.end();) {
      if (it->second.memory->owner() == owner) {
        revoked.push_back(std::move(it->second.memory));
        memory_.erase(it++);
      } else {
        ++it;
      }
    }
    for (auto it = physical_.begin(); it != physical_.end();) {
      if (it->second.owner == owner) {
        revoked_physical.push_back(std::move(it->second.memory));
        physical_.erase(it++);
      } else {
        ++it;
      }
    }
    absl::erase_if(events_, [owner](const auto& kv) { return kv.second.owner == owner; });
    absl::erase_if(notifies_, [owner](const auto& kv) { return kv.second.owner == owner; });
    if (auto it = withdrawn_.find(owner); it != withdrawn_.end()) {
      for (const auto& weak : it->second) {
        if (auto memory = weak.lock()) revoked.push_back(std::move(memory));
      }
      withdrawn_.erase(it);
    }
  }
  for (auto& memory : revoked) memory->Revoke();
  for (auto& memory : revoked_physical) memory->Revoke();
}

size_t IpcRegistry::exports_of(uint64_t owner) const {
  absl::MutexLock lock(&mu_);
  size_t count = 0;
  for (const auto& [key, exported] : memory_) count += exported.memory->owner() == owner;
  for (const auto& [key, exported] : events_) count += exported.owner == owner;
  for (const auto& [key, exported] : notifies_) count += exported.owner == owner;
  for (const auto& [handle, exported] : physical_) count += exported.owner == owner;
  return count;
}

}  // namespace npud::daemon

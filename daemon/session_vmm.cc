// Session handlers for physical memory and device virtual addresses
// (aclrtMallocPhysical, aclrtReserveMemAddress, aclrtMapMem and friends),
// including sharing physical memory between processes by handle.

#include <utility>
#include <vector>

#include "absl/strings/str_format.h"
#include "common/acl_status.h"
#include "daemon/session.h"
#include "spdlog/spdlog.h"

namespace npud::daemon {
namespace {

using Access = sim::VirtualAddressSpace::Access;

absl::StatusOr<Access> AccessFromFlags(uint32_t flags) {
  switch (flags) {
    case static_cast<uint32_t>(Access::kNone):
    case static_cast<uint32_t>(Access::kRead):
    case static_cast<uint32_t>(Access::kReadWrite):
      return static_cast<Access>(flags);
    default:
      return AclError(kRtParamInvalid,
                      absl::StrFormat("%u is not an aclrtMemAccessFlags value", flags));
  }
}

}  // namespace

absl::StatusOr<std::shared_ptr<sim::PhysicalMemory>> Session::FindPhysical(
    uint64_t handle_id) const {
  absl::MutexLock lock(&mu_);
  auto it = physical_.find(handle_id);
  if (it == physical_.end()) {
    return AclError(kRtInvalidHandle,
                    absl::StrFormat("physical memory handle %d does not exist", handle_id));
  }
  return it->second.memory;
}

Session::Outcome Session::MallocPhysical(const v1::MallocPhysical& op) {
  auto device = devices_->Get(op.device_id());
  if (!device.ok()) return device.status();
  auto memory = sim::PhysicalMemory::Create(&(*device)->memory(), op.device_id(), op.size());
  if (!memory.ok()) return memory.status();
  absl::MutexLock lock(&mu_);
  if (!physical_.emplace(op.handle_id(), PhysicalHandle{*std::move(memory), false}).second) {
    return AclError(kRtParamInvalid,
                    absl::StrFormat("physical memory handle %d is already in use", op.handle_id()));
  }
  spdlog::debug("session {}: {} bytes of physical memory on device {} as handle {}", id_, op.size(),
                op.device_id(), op.handle_id());
  return v1::Reply();
}

Session::Outcome Session::FreePhysical(const v1::FreePhysical& op) {
  std::shared_ptr<sim::PhysicalMemory> memory;
  {
    absl::MutexLock lock(&mu_);
    auto it = physical_.find(op.handle_id());
    if (it == physical_.end()) {
      return AclError(kRtInvalidHandle,
                      absl::StrFormat("physical memory handle %d does not exist", op.handle_id()));
    }
    memory = std::move(it->second.memory);
    physical_.erase(it);
  }
  ipc_->UnexportPhysical(id_, memory.get());
  // Mappings and importers may still hold the memory; it goes back to the
  // device when the last of them lets go.
  return v1::Reply();
}

Session::Outcome Session::ReserveAddress(const v1::ReserveAddress& op) {
  auto address = devices_->vmm().Reserve(id_, op.size(), op.alignment(), op.hint());
  if (!address.ok()) return address.status();
  v1::Reply reply;
  reply.mutable_malloc()->set_address(*address);
  return reply;
}

Session::Outcome Session::ReleaseAddress(const v1::ReleaseAddress& op) {
  return Done(devices_->vmm().Release(id_, op.address()));
}

Session::Outcome Session::MapMemory(const v1::MapMemory& op) {
  auto memory = FindPhysical(op.handle_id());
  if (!memory.ok()) return memory.status();
  return Done(devices_->vmm().Map(id_, op.address(), op.size(), op.offset(), *std::move(memory)));
}

Session::Outcome Session::UnmapMemory(const v1::UnmapMemory& op) {
  return Done(devices_->vmm().Unmap(id_, op.address()));
}

Session::Outcome Session::SetMemoryAccess(const v1::SetMemoryAccess& op) {
  auto access = AccessFromFlags(op.flags());
  if (!access.ok()) return access.status();
  if (op.size() == 0) return AclError(kRtParamInvalid, "access size is 0");
  return Done(devices_->vmm().SetAccess(id_, op.address(), op.size(), *access));
}

Session::Outcome Session::GetMemoryAccess(const v1::GetMemoryAccess& op) {
  auto info = devices_->vmm().GetAccess(id_, op.address());
  if (!info.ok()) return info.status();
  v1::Reply reply;
  reply.mutable_memory_access()->set_device_id(info->device_id);
  reply.mutable_memory_access()->set_flags(static_cast<uint32_t>(info->access));
  return reply;
}

Session::Outcome Session::ExportPhysical(const v1::ExportPhysical& op) {
  auto memory = FindPhysical(op.handle_id());
  if (!memory.ok()) return memory.status();
  const uint64_t shareable = ipc_->ExportPhysical(id_, *memory, !op.any_process());
  spdlog::info(
      "session {} (pid {}) shares {} bytes of physical memory on device {} as handle "
      "{:#x}{}",
      id_, peer_.pid, (*memory)->size(), (*memory)->device_id(), shareable,
      op.any_process() ? " (any process)" : "");
  v1::Reply reply;
  reply.mutable_ipc()->set_shareable_handle(shareable);
  return reply;
}

Session::Outcome Session::SetPhysicalPids(const v1::SetPhysicalPids& op) {
  std::vector<int64_t> pids(op.pids().begin(), op.pids().end());
  return Done(ipc_->SetPhysicalPids(id_, op.shareable_handle(), pids));
}

Session::Outcome Session::ImportPhysical(const v1::ImportPhysical& op) {
  if (auto device = devices_->Get(op.device_id()); !device.ok()) return device.status();
  auto memory = ipc_->ImportPhysical(op.shareable_handle(), peer_.pid);
  if (!memory.ok()) return memory.status();
  spdlog::info("session {} (pid {}) imports physical memory handle {:#x} ({} bytes)", id_,
               peer_.pid, op.shareable_handle(), (*memory)->size());
  return AddPhysicalHandle(op.handle_id(), *std::move(memory), /*imported=*/true);
}

Session::Outcome Session::RetainPhysical(const v1::RetainPhysical& op) {
  auto memory = devices_->vmm().MemoryAt(id_, op.address());
  if (!memory.ok()) return memory.status();
  bool imported = false;
  {
    absl::MutexLock lock(&mu_);
    for (const auto& [id, handle] : physical_) {
      if (handle.memory == *memory) imported = handle.imported;
    }
  }
  return AddPhysicalHandle(op.handle_id(), *std::move(memory), imported);
}

Session::Outcome Session::AddPhysicalHandle(uint64_t handle_id,
                                            std::shared_ptr<sim::PhysicalMemory> memory,
                                            bool imported) {
  v1::Reply reply;
  reply.mutable_ipc()->set_size(memory->size());
  reply.mutable_ipc()->set_device_id(memory->device_id());
  absl::MutexLock lock(&mu_);
  if (!physical_.emplace(handle_id, PhysicalHandle{std::move(memory), imported}).second) {
    return AclError(kRtParamInvalid,
                    absl::StrFormat("physical memory handle %d is already in use", handle_id));
  }
  return reply;
}

void Session::ReleaseVirtualMemory() {
  devices_->vmm().ReleaseAll(id_);
  absl::flat_hash_map<uint64_t, PhysicalHandle> physical;
  {
    absl::MutexLock lock(&mu_);
    physical.swap(physical_);
  }
  if (!physical.empty()) {
    spdlog::info("session {}: released {} physical memory handle(s)", id_, physical.size());
  }
}

}  // namespace npud::daemon

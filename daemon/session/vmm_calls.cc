// Physical memory and device virtual addresses (aclrtMallocPhysical,
// aclrtReserveMemAddress, aclrtMapMem and friends), including sharing
// physical memory between processes by handle.

#include <atomic>
#include <memory>
#include <utility>
#include <vector>

#include "absl/strings/str_format.h"
#include "common/acl_status.h"
#include "common/status_macros.h"
#include "daemon/drain_fence.h"
#include "daemon/session/calls.h"
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

// Counts `bytes` of physical memory against the session's limit for as long
// as the returned charge lives.
absl::StatusOr<std::shared_ptr<QuotaCharge>> ChargePhysical(SessionState& s, uint64_t bytes) {
  NPUD_RETURN_IF_ERROR(s.memory.quota()->Charge(bytes));
  return std::make_shared<QuotaCharge>(s.memory.quota(), bytes);
}

// Adds `memory` as `handle_id` and describes it in the reply.
Outcome AddPhysicalHandle(SessionState& s, uint64_t handle_id,
                          std::shared_ptr<sim::PhysicalMemory> memory, bool imported,
                          std::shared_ptr<QuotaCharge> charge) {
  v1::Reply reply;
  reply.mutable_ipc()->set_size(memory->size());
  reply.mutable_ipc()->set_device_id(memory->device_id());
  NPUD_RETURN_IF_ERROR(
      s.physical.Add(handle_id, std::make_shared<PhysicalHandle>(PhysicalHandle{
                                    std::move(memory), imported, std::move(charge)})));
  return reply;
}

absl::StatusOr<std::shared_ptr<sim::PhysicalMemory>> FindPhysical(SessionState& s,
                                                                  uint64_t handle_id) {
  NPUD_ASSIGN_OR_RETURN(std::shared_ptr<PhysicalHandle> handle, s.physical.Find(handle_id));
  return handle->memory;
}

}  // namespace

Outcome MallocPhysical(SessionState& s, const v1::MallocPhysical& op) {
  NPUD_ASSIGN_OR_RETURN(sim::Device * device, s.devices().Get(op.device_id()));
  NPUD_ASSIGN_OR_RETURN(std::shared_ptr<QuotaCharge> charge, ChargePhysical(s, op.size()));
  NPUD_ASSIGN_OR_RETURN(std::shared_ptr<sim::PhysicalMemory> memory,
                        sim::PhysicalMemory::Create(&device->memory(), op.device_id(), op.size()));
  NPUD_RETURN_IF_ERROR(s.physical.Add(
      op.handle_id(), std::make_shared<PhysicalHandle>(PhysicalHandle{
                          std::move(memory), /*imported=*/false, std::move(charge)})));
  spdlog::debug("session {}: {} bytes of physical memory on device {} as handle {}", s.id,
                op.size(), op.device_id(), op.handle_id());
  return v1::Reply();
}

Outcome FreePhysical(SessionState& s, const v1::FreePhysical& op) {
  NPUD_ASSIGN_OR_RETURN(std::shared_ptr<PhysicalHandle> handle, s.physical.Take(op.handle_id()));
  s.services.ipc->UnexportPhysical(s.id, handle->memory.get());
  // Mappings and importers may still hold the memory; it goes back to the
  // device when the last of them lets go.
  return v1::Reply();
}

Outcome ReserveAddress(SessionState& s, const v1::ReserveAddress& op) {
  NPUD_ASSIGN_OR_RETURN(const uint64_t address,
                        s.devices().vmm().Reserve(s.id, op.size(), op.alignment(), op.hint()));
  v1::Reply reply;
  reply.mutable_malloc()->set_address(address);
  return reply;
}

Outcome ReleaseAddress(SessionState& s, const v1::ReleaseAddress& op) {
  return Done(s.devices().vmm().Release(s.id, op.address()));
}

Outcome MapMemory(SessionState& s, const v1::MapMemory& op) {
  NPUD_ASSIGN_OR_RETURN(std::shared_ptr<sim::PhysicalMemory> memory,
                        FindPhysical(s, op.handle_id()));
  const auto access = op.no_access() ? sim::VirtualAddressSpace::Access::kNone
                                     : sim::VirtualAddressSpace::Access::kReadWrite;
  return Done(
      s.devices().vmm().Map(s.id, op.address(), op.size(), op.offset(), std::move(memory), access));
}

Outcome UnmapMemory(SessionState& s, const v1::UnmapMemory& op) {
  return Done(s.devices().vmm().Unmap(s.id, op.address()));
}

Outcome SetMemoryAccess(SessionState& s, const v1::SetMemoryAccess& op) {
  NPUD_ASSIGN_OR_RETURN(const Access access, AccessFromFlags(op.flags()));
  if (op.size() == 0) return AclError(kRtParamInvalid, "access size is 0");
  return Done(s.devices().vmm().SetAccess(s.id, op.address(), op.size(), access));
}

Outcome GetMemoryAccess(SessionState& s, const v1::GetMemoryAccess& op) {
  NPUD_ASSIGN_OR_RETURN(const auto info, s.devices().vmm().GetAccess(s.id, op.address()));
  v1::Reply reply;
  reply.mutable_memory_access()->set_device_id(info.device_id);
  reply.mutable_memory_access()->set_flags(static_cast<uint32_t>(info.access));
  return reply;
}

Outcome ExportPhysical(SessionState& s, const v1::ExportPhysical& op) {
  NPUD_ASSIGN_OR_RETURN(std::shared_ptr<sim::PhysicalMemory> memory,
                        FindPhysical(s, op.handle_id()));
  // Imports wait for the work queued so far (see drain_fence.h).
  auto fence = std::make_shared<DrainFence>();
  s.WhenStreamsDrained([fence] { fence->Pass(); });
  const uint64_t shareable =
      s.services.ipc->ExportPhysical(s.id, memory, !op.any_process(), std::move(fence));
  spdlog::info(
      "session {} (pid {}) shares {} bytes of physical memory on device {} as handle "
      "{:#x}{}",
      s.id, s.peer.pid, memory->size(), memory->device_id(), shareable,
      op.any_process() ? " (any process)" : "");
  v1::Reply reply;
  reply.mutable_ipc()->set_shareable_handle(shareable);
  return reply;
}

Outcome SetPhysicalPids(SessionState& s, const v1::SetPhysicalPids& op) {
  std::vector<int64_t> pids(op.pids().begin(), op.pids().end());
  return Done(
      s.services.ipc->SetPhysicalPids(s.id, op.shareable_handle(), pids, s.peer.PidSpace()));
}

namespace {

// How long an import waits for its exporter's earlier work at most: work
// that waits for the importer must not hold the import for good.
constexpr absl::Duration kMaxImportWait = absl::Seconds(5);

Outcome AddImportedPhysical(SessionState& s, const v1::ImportPhysical& op) {
  NPUD_RETURN_IF_ERROR(s.devices().Get(op.device_id()).status());
  NPUD_ASSIGN_OR_RETURN(std::shared_ptr<sim::PhysicalMemory> memory,
                        s.services.ipc->ImportPhysical(op.shareable_handle(), s.peer.ipc_pid()));
  spdlog::info("session {} (pid {}) imports physical memory handle {:#x} ({} bytes)", s.id,
               s.peer.pid, op.shareable_handle(), memory->size());
  NPUD_ASSIGN_OR_RETURN(std::shared_ptr<QuotaCharge> charge, ChargePhysical(s, memory->size()));
  return AddPhysicalHandle(s, op.handle_id(), std::move(memory), /*imported=*/true,
                           std::move(charge));
}

}  // namespace

void ImportPhysical(SessionState& s, uint64_t call_id, const v1::ImportPhysical& op) {
  Outcome outcome = AddImportedPhysical(s, op);
  std::shared_ptr<DrainFence> fence =
      outcome.ok() && call_id != 0 ? s.services.ipc->PhysicalFence(op.shareable_handle()) : nullptr;
  if (fence == nullptr) return s.Finish(call_id, 0, std::move(outcome));
  // Answered when the exporter's earlier work is done, or at the latest
  // after kMaxImportWait.
  struct Answer {
    std::atomic<bool> sent{false};
    std::shared_ptr<MessageSink> sink;
    v1::ServerMessage message;
  };
  auto answer = std::make_shared<Answer>();
  answer->sink = s.sink();
  *answer->message.mutable_reply() = *std::move(outcome);
  answer->message.mutable_reply()->set_call_id(call_id);
  const uint64_t handle = op.shareable_handle();
  fence->WhenPassed([answer] {
    if (!answer->sent.exchange(true)) answer->sink->Send(answer->message);
  });
  s.services.timers->RunAfter(kMaxImportWait, [answer, handle] {
    if (answer->sent.exchange(true)) return;
    spdlog::warn(
        "import of physical memory handle {:#x} answered before its exporter's earlier "
        "work finished (still running after {})",
        handle, absl::FormatDuration(kMaxImportWait));
    answer->sink->Send(answer->message);
  });
}

Outcome RetainPhysical(SessionState& s, const v1::RetainPhysical& op) {
  NPUD_ASSIGN_OR_RETURN(std::shared_ptr<sim::PhysicalMemory> memory,
                        s.devices().vmm().MemoryAt(s.id, op.address()));
  // A second handle to memory the session holds: counted once.
  bool imported = false;
  std::shared_ptr<QuotaCharge> charge;
  for (const auto& handle : s.physical.All()) {
    if (handle->memory != memory) continue;
    imported = handle->imported;
    charge = handle->charge;
  }
  if (charge == nullptr) {
    NPUD_ASSIGN_OR_RETURN(charge, ChargePhysical(s, memory->size()));
  }
  return AddPhysicalHandle(s, op.handle_id(), std::move(memory), imported, std::move(charge));
}

}  // namespace npud::daemon

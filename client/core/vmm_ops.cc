#include "client/core/vmm_ops.h"

#include <utility>

#include "absl/strings/str_format.h"
#include "client/core/daemon_calls.h"
#include "client/core/device_address.h"
#include "client/core/handles.h"
#include "client/core/runtime.h"
#include "common/acl_status.h"
#include "common/status_macros.h"
#include "npud/v1/calls.pb.h"

namespace npud::client {
namespace {

// aclrtMemLocationType / aclrtMemHandleType / aclrtMemAllocationType /
// aclrtMemGranularityOptions / aclrtMemAttr values this layer checks.
constexpr uint32_t kLocationDevice = 1;
constexpr uint32_t kHandleTypeNone = 0;
constexpr uint32_t kHandleTypePosix = 2;
constexpr uint32_t kAllocationPinned = 0;
constexpr uint32_t kGranularityMinimum = 0;
constexpr uint32_t kGranularityRecommended = 1;
constexpr uint32_t kHbmHuge1G = 10;
constexpr uint32_t kHbmP2pHuge1G = 11;
// ACL_RT_VMM_EXPORT_FLAG_DISABLE_PID_VALIDATION.
constexpr uint64_t kExportAnyProcess = 1;

// Matches sim::PhysicalMemory::kGranularity, which the daemon enforces.
constexpr size_t kGranularity = 2u << 20;
constexpr size_t kGranularity1G = 1u << 30;

absl::Status CheckLocation(uint32_t type, int32_t device) {
  if (type != kLocationDevice) {
    return AclError(kRtFeatureNotSupport,
                    absl::StrFormat("memory location type %u is not simulated; only device "
                                    "memory (ACL_MEM_LOCATION_TYPE_DEVICE)",
                                    type));
  }
  return Runtime::Get().CheckDevice(device);
}

absl::StatusOr<uint64_t> ResolvePhysical(void* handle) {
  if (handle == nullptr) return AclError(kAclInvalidParam, "physical memory handle is null");
  const uint64_t id = HandleId(handle, HandleKind::kPhysicalMemory);
  if (id == 0 || !Runtime::Get().objects().FindPhysical(id)) {
    return AclError(kRtInvalidHandle,
                    absl::StrFormat("%p is not a live physical memory handle", handle));
  }
  return id;
}

// Sends `call`, which makes physical memory known to the daemon as `id`,
// and records the handle from the reply.
absl::StatusOr<void*> AddHandle(uint64_t id, v1::Call call) {
  NPUD_ASSIGN_OR_RETURN(const v1::Reply reply, CallDaemon(std::move(call)));
  PhysicalRecord record;
  record.device = reply.ipc().device_id();
  record.size = reply.ipc().size();
  Runtime::Get().objects().AddPhysical(id, record);
  return MakeHandle(HandleKind::kPhysicalMemory, id);
}

}  // namespace

absl::StatusOr<size_t> AllocationGranularity(const PhysicalMemoryProperties& properties,
                                             uint32_t option) {
  if (option != kGranularityMinimum && option != kGranularityRecommended) {
    return AclError(kRtParamInvalid,
                    absl::StrFormat("%u is not an aclrtMemGranularityOptions value", option));
  }
  NPUD_RETURN_IF_ERROR(CheckLocation(properties.location_type, properties.device));
  const bool huge = properties.mem_attr == kHbmHuge1G || properties.mem_attr == kHbmP2pHuge1G;
  return huge ? kGranularity1G : kGranularity;
}

absl::StatusOr<void*> MallocPhysical(size_t size, const PhysicalMemoryProperties& properties,
                                     uint64_t flags) {
  if (flags != 0) return AclError(kRtParamInvalid, "aclrtMallocPhysical flags must be 0");
  if (properties.allocation_type != kAllocationPinned) {
    return AclError(kRtParamInvalid,
                    absl::StrFormat("allocation type %u is not ACL_MEM_ALLOCATION_TYPE_PINNED",
                                    properties.allocation_type));
  }
  if (properties.handle_type != kHandleTypeNone && properties.handle_type != kHandleTypePosix) {
    return AclError(kRtParamInvalid,
                    absl::StrFormat("%u is not an aclrtMemHandleType", properties.handle_type));
  }
  NPUD_RETURN_IF_ERROR(CheckLocation(properties.location_type, properties.device));
  ObjectRegistry& objects = Runtime::Get().objects();
  const uint64_t id = objects.MintId();
  v1::Call call;
  v1::MallocPhysical* op = call.mutable_malloc_physical();
  op->set_handle_id(id);
  op->set_device_id(properties.device);
  op->set_size(size);
  NPUD_RETURN_IF_ERROR(CallDaemon(std::move(call)).status());
  objects.AddPhysical(id, PhysicalRecord{properties.device, size, properties.handle_type,
                                         properties.allocation_type, properties.mem_attr});
  return MakeHandle(HandleKind::kPhysicalMemory, id);
}

absl::Status FreePhysical(void* handle) {
  NPUD_ASSIGN_OR_RETURN(const uint64_t id, ResolvePhysical(handle));
  Runtime::Get().objects().RemovePhysical(id);
  v1::Call call;
  call.mutable_free_physical()->set_handle_id(id);
  return CallDaemon(std::move(call)).status();
}

absl::StatusOr<PhysicalMemoryProperties> PhysicalProperties(void* handle) {
  NPUD_ASSIGN_OR_RETURN(const uint64_t id, ResolvePhysical(handle));
  std::optional<PhysicalRecord> record = Runtime::Get().objects().FindPhysical(id);
  if (!record) return AclError(kRtInvalidHandle, "physical memory handle was freed");
  return PhysicalMemoryProperties{record->handle_type, record->allocation_type, record->mem_attr,
                                  kLocationDevice, record->device};
}

absl::StatusOr<void*> ReserveAddress(size_t size, size_t alignment, void* hint) {
  v1::Call call;
  v1::ReserveAddress* op = call.mutable_reserve_address();
  op->set_size(size);
  op->set_alignment(alignment);
  op->set_hint(Address(hint));
  NPUD_ASSIGN_OR_RETURN(const v1::Reply reply, CallDaemon(std::move(call)));
  return reinterpret_cast<void*>(reply.malloc().address());
}

absl::Status ReleaseAddress(void* address) {
  v1::Call call;
  call.mutable_release_address()->set_address(Address(address));
  return CallDaemon(std::move(call)).status();
}

absl::Status MapMemory(void* address, size_t size, size_t offset, void* handle, uint64_t flags,
                       bool accessible) {
  if (flags != 0) return AclError(kRtParamInvalid, "aclrtMapMem flags must be 0");
  NPUD_ASSIGN_OR_RETURN(const uint64_t id, ResolvePhysical(handle));
  v1::Call call;
  v1::MapMemory* op = call.mutable_map_memory();
  op->set_address(Address(address));
  op->set_size(size);
  op->set_offset(offset);
  op->set_handle_id(id);
  op->set_no_access(!accessible);
  return CallDaemon(std::move(call)).status();
}

absl::Status UnmapMemory(void* address) {
  v1::Call call;
  call.mutable_unmap_memory()->set_address(Address(address));
  return CallDaemon(std::move(call)).status();
}

absl::Status SetMemoryAccess(void* address, size_t size, const std::vector<MemoryAccess>& access) {
  if (access.empty()) return AclError(kRtParamInvalid, "no access descriptor given");
  // The simulated devices all reach every mapping, so the descriptors are
  // checked and the last one's flags recorded.
  for (const MemoryAccess& entry : access) {
    NPUD_RETURN_IF_ERROR(CheckLocation(entry.location_type, entry.device));
  }
  v1::Call call;
  v1::SetMemoryAccess* op = call.mutable_set_memory_access();
  op->set_address(Address(address));
  op->set_size(size);
  op->set_flags(access.back().flags);
  return CallDaemon(std::move(call)).status();
}

absl::StatusOr<MemoryAccess> GetMemoryAccess(void* address) {
  v1::Call call;
  call.mutable_get_memory_access()->set_address(Address(address));
  NPUD_ASSIGN_OR_RETURN(const v1::Reply reply, CallDaemon(std::move(call)));
  return MemoryAccess{reply.memory_access().flags(), kLocationDevice,
                      reply.memory_access().device_id()};
}

absl::StatusOr<uint64_t> ExportPhysical(void* handle, uint32_t handle_type, uint64_t flags) {
  if (handle_type != kHandleTypeNone && handle_type != kHandleTypePosix) {
    return AclError(kRtParamInvalid,
                    absl::StrFormat("%u is not an aclrtMemHandleType", handle_type));
  }
  if ((flags & ~kExportAnyProcess) != 0) {
    return AclError(kRtParamInvalid,
                    absl::StrFormat("unknown export flags %#x (ACL_RT_VMM_EXPORT_FLAG_*)", flags));
  }
  NPUD_ASSIGN_OR_RETURN(const uint64_t id, ResolvePhysical(handle));
  v1::Call call;
  call.mutable_export_physical()->set_handle_id(id);
  call.mutable_export_physical()->set_any_process((flags & kExportAnyProcess) != 0);
  NPUD_ASSIGN_OR_RETURN(const v1::Reply reply, CallDaemon(std::move(call)));
  return reply.ipc().shareable_handle();
}

absl::Status SetPhysicalImportPids(uint64_t shareable, const std::vector<int64_t>& pids) {
  v1::Call call;
  call.mutable_set_physical_pids()->set_shareable_handle(shareable);
  for (int64_t pid : pids) call.mutable_set_physical_pids()->add_pids(pid);
  return CallDaemon(std::move(call)).status();
}

absl::StatusOr<void*> ImportPhysical(uint64_t shareable, int32_t device) {
  NPUD_RETURN_IF_ERROR(Runtime::Get().CheckDevice(device));
  const uint64_t id = Runtime::Get().objects().MintId();
  v1::Call call;
  call.mutable_import_physical()->set_shareable_handle(shareable);
  call.mutable_import_physical()->set_handle_id(id);
  call.mutable_import_physical()->set_device_id(device);
  return AddHandle(id, std::move(call));
}

absl::StatusOr<void*> RetainPhysical(void* address) {
  const uint64_t id = Runtime::Get().objects().MintId();
  v1::Call call;
  call.mutable_retain_physical()->set_address(Address(address));
  call.mutable_retain_physical()->set_handle_id(id);
  return AddHandle(id, std::move(call));
}

}  // namespace npud::client

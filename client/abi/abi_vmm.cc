// ACL entry points of physical memory and device virtual addresses.

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "client/abi/abi_status.h"
#include "client/core/context_ops.h"
#include "client/core/vmm_ops.h"
#include "client/generated/acl_impl.h"
#include "common/acl_status.h"
#include "common/status_macros.h"

using npud::client::Result;
using npud::client::ResultInto;

namespace {

npud::client::PhysicalMemoryProperties FromAcl(const aclrtPhysicalMemProp& prop) {
  return npud::client::PhysicalMemoryProperties{
      static_cast<uint32_t>(prop.handleType), static_cast<uint32_t>(prop.allocationType),
      static_cast<uint32_t>(prop.memAttr), static_cast<uint32_t>(prop.location.type),
      static_cast<int32_t>(prop.location.id)};
}

// A fabric handle carries the daemon's numeric handle after this tag, so a
// foreign or corrupted handle is recognised instead of misread.
constexpr char kFabricTag[8] = {'n', 'p', 'u', 'd', 'v', 'm', 'm', '1'};

absl::Status BadShareType(aclrtMemSharedHandleType type) {
  return npud::AclError(npud::kRtParamInvalid, "unknown aclrtMemSharedHandleType " +
                                                   std::to_string(static_cast<int>(type)));
}

// The numeric handle inside a V2 shareable handle, or an error status.
absl::StatusOr<uint64_t> ReadShareable(const void* shareable, aclrtMemSharedHandleType type) {
  uint64_t handle = 0;
  if (type == ACL_MEM_SHARE_HANDLE_TYPE_DEFAULT) {
    std::memcpy(&handle, shareable, sizeof(handle));
    return handle;
  }
  if (type == ACL_MEM_SHARE_HANDLE_TYPE_FABRIC) {
    const auto* fabric = static_cast<const aclrtMemFabricHandle*>(shareable);
    if (std::memcmp(fabric->data, kFabricTag, sizeof(kFabricTag)) != 0) {
      return npud::AclError(npud::kRtParamInvalid, "not a fabric handle made by npud");
    }
    std::memcpy(&handle, fabric->data + sizeof(kFabricTag), sizeof(handle));
    return handle;
  }
  return BadShareType(type);
}

// Stores the properties of the physical memory `handle` in *prop.
absl::Status StoreProperties(aclrtDrvMemHandle handle, aclrtPhysicalMemProp* prop) {
  NPUD_ASSIGN_OR_RETURN(const npud::client::PhysicalMemoryProperties properties,
                        npud::client::PhysicalProperties(handle));
  *prop = aclrtPhysicalMemProp{};
  prop->handleType = static_cast<aclrtMemHandleType>(properties.handle_type);
  prop->allocationType = static_cast<aclrtMemAllocationType>(properties.allocation_type);
  prop->memAttr = static_cast<aclrtMemAttr>(properties.mem_attr);
  prop->location.type = static_cast<aclrtMemLocationType>(properties.location_type);
  prop->location.id = static_cast<uint32_t>(properties.device);
  return absl::OkStatus();
}

// Stores where the mapping at `address` lives and its access flags.
absl::Status StoreAccess(void* address, aclrtMemLocation* location, uint64_t* flag) {
  NPUD_ASSIGN_OR_RETURN(const npud::client::MemoryAccess access,
                        npud::client::GetMemoryAccess(address));
  location->type = static_cast<aclrtMemLocationType>(access.location_type);
  location->id = static_cast<uint32_t>(access.device);
  *flag = access.flags;
  return absl::OkStatus();
}

// Exports `handle` and writes the V2 shareable handle of `type` (already
// checked) to `out`.
absl::Status ExportV2(aclrtDrvMemHandle handle, uint64_t flags, aclrtMemSharedHandleType type,
                      void* out) {
  NPUD_ASSIGN_OR_RETURN(const uint64_t exported,
                        npud::client::ExportPhysical(handle, ACL_MEM_HANDLE_TYPE_NONE, flags));
  if (type == ACL_MEM_SHARE_HANDLE_TYPE_DEFAULT) {
    std::memcpy(out, &exported, sizeof(exported));
  } else {
    aclrtMemFabricHandle fabric = {};
    std::memcpy(fabric.data, kFabricTag, sizeof(kFabricTag));
    std::memcpy(fabric.data + sizeof(kFabricTag), &exported, sizeof(exported));
    std::memcpy(out, &fabric, sizeof(fabric));
  }
  return absl::OkStatus();
}

// The V2 import names no device: the memory is imported for the current one.
absl::StatusOr<aclrtDrvMemHandle> ImportV2(const void* shareable, aclrtMemSharedHandleType type) {
  NPUD_ASSIGN_OR_RETURN(const uint64_t numeric, ReadShareable(shareable, type));
  NPUD_ASSIGN_OR_RETURN(const int32_t device, npud::client::CurrentDevice());
  return npud::client::ImportPhysical(numeric, device);
}

absl::Status SetPidsV2(const void* shareable, aclrtMemSharedHandleType type,
                       const std::vector<int64_t>& pids) {
  NPUD_ASSIGN_OR_RETURN(const uint64_t numeric, ReadShareable(shareable, type));
  return npud::client::SetPhysicalImportPids(numeric, pids);
}

}  // namespace

namespace npud::abi_impl {

aclError aclrtMemGetAllocationGranularity(aclrtPhysicalMemProp* prop,
                                          aclrtMemGranularityOptions option, size_t* granularity) {
  NPUD_REQUIRE_NOT_NULL(prop);
  NPUD_REQUIRE_NOT_NULL(granularity);
  return ResultInto(
      npud::client::AllocationGranularity(FromAcl(*prop), static_cast<uint32_t>(option)),
      granularity, __func__);
}

aclError aclrtMallocPhysical(aclrtDrvMemHandle* handle, size_t size,
                             const aclrtPhysicalMemProp* prop, uint64_t flags) {
  NPUD_REQUIRE_NOT_NULL(handle);
  NPUD_REQUIRE_NOT_NULL(prop);
  return ResultInto(npud::client::MallocPhysical(size, FromAcl(*prop), flags), handle, __func__);
}

aclError aclrtFreePhysical(aclrtDrvMemHandle handle) {
  NPUD_REQUIRE_NOT_NULL(handle);
  return Result(npud::client::FreePhysical(handle), __func__);
}

aclError aclrtMemGetAllocationPropertiesFromHandle(aclrtDrvMemHandle handle,
                                                   aclrtPhysicalMemProp* prop) {
  NPUD_REQUIRE_NOT_NULL(handle);
  NPUD_REQUIRE_NOT_NULL(prop);
  return Result(StoreProperties(handle, prop), __func__);
}

aclError aclrtReserveMemAddress(void** virPtr, size_t size, size_t alignment, void* expectPtr,
                                uint64_t flags) {
  NPUD_REQUIRE_NOT_NULL(virPtr);
  (void)flags;  // Page-size hints: every simulated page is the same.
  return ResultInto(npud::client::ReserveAddress(size, alignment, expectPtr), virPtr, __func__);
}

// The simulator has no uncorrectable-error memory to avoid.
aclError aclrtReserveMemAddressNoUCMemory(void** virPtr, size_t size, size_t alignment,
                                          void* expectPtr, uint64_t flags) {
  return aclrtReserveMemAddress(virPtr, size, alignment, expectPtr, flags);
}

aclError aclrtReleaseMemAddress(void* virPtr) {
  NPUD_REQUIRE_NOT_NULL(virPtr);
  return Result(npud::client::ReleaseAddress(virPtr), __func__);
}

aclError aclrtMapMem(void* virPtr, size_t size, size_t offset, aclrtDrvMemHandle handle,
                     uint64_t flags) {
  NPUD_REQUIRE_NOT_NULL(virPtr);
  NPUD_REQUIRE_NOT_NULL(handle);
  return Result(npud::client::MapMemory(virPtr, size, offset, handle, flags), __func__);
}

aclError aclrtMemMapNoAccess(void* virPtr, size_t size, size_t offset, aclrtDrvMemHandle handle,
                             uint64_t flags) {
  NPUD_REQUIRE_NOT_NULL(virPtr);
  NPUD_REQUIRE_NOT_NULL(handle);
  // CANN checks these two at the ACL layer.
  if (size == 0) {
    return Result(npud::AclError(npud::kAclInvalidParam, "size must be positive"), __func__);
  }
  if (flags != 0) {
    return Result(npud::AclError(npud::kAclInvalidParam, "flags must be 0"), __func__);
  }
  return Result(npud::client::MapMemory(virPtr, size, offset, handle, flags, /*accessible=*/false),
                __func__);
}

aclError aclrtUnmapMem(void* virPtr) {
  NPUD_REQUIRE_NOT_NULL(virPtr);
  return Result(npud::client::UnmapMemory(virPtr), __func__);
}

aclError aclrtMemSetAccess(void* virPtr, size_t size, aclrtMemAccessDesc* desc, size_t count) {
  NPUD_REQUIRE_NOT_NULL(virPtr);
  NPUD_REQUIRE_NOT_NULL(desc);
  std::vector<npud::client::MemoryAccess> access;
  for (size_t i = 0; i < count; ++i) {
    access.push_back(npud::client::MemoryAccess{static_cast<uint32_t>(desc[i].flags),
                                                static_cast<uint32_t>(desc[i].location.type),
                                                static_cast<int32_t>(desc[i].location.id)});
  }
  return Result(npud::client::SetMemoryAccess(virPtr, size, access), __func__);
}

aclError aclrtMemGetAccess(void* virPtr, aclrtMemLocation* location, uint64_t* flag) {
  NPUD_REQUIRE_NOT_NULL(virPtr);
  NPUD_REQUIRE_NOT_NULL(location);
  NPUD_REQUIRE_NOT_NULL(flag);
  return Result(StoreAccess(virPtr, location, flag), __func__);
}

aclError aclrtMemExportToShareableHandle(aclrtDrvMemHandle handle, aclrtMemHandleType handleType,
                                         uint64_t flags, uint64_t* shareableHandle) {
  NPUD_REQUIRE_NOT_NULL(handle);
  NPUD_REQUIRE_NOT_NULL(shareableHandle);
  return ResultInto(npud::client::ExportPhysical(handle, static_cast<uint32_t>(handleType), flags),
                    shareableHandle, __func__);
}

aclError aclrtMemExportToShareableHandleV2(aclrtDrvMemHandle handle, uint64_t flags,
                                           aclrtMemSharedHandleType shareType,
                                           void* shareableHandle) {
  NPUD_REQUIRE_NOT_NULL(handle);
  NPUD_REQUIRE_NOT_NULL(shareableHandle);
  if (shareType != ACL_MEM_SHARE_HANDLE_TYPE_DEFAULT &&
      shareType != ACL_MEM_SHARE_HANDLE_TYPE_FABRIC) {
    return Result(BadShareType(shareType), __func__);
  }
  return Result(ExportV2(handle, flags, shareType, shareableHandle), __func__);
}

aclError aclrtMemImportFromShareableHandle(uint64_t shareableHandle, int32_t deviceId,
                                           aclrtDrvMemHandle* handle) {
  NPUD_REQUIRE_NOT_NULL(handle);
  return ResultInto(npud::client::ImportPhysical(shareableHandle, deviceId), handle, __func__);
}

aclError aclrtMemImportFromShareableHandleV2(void* shareableHandle,
                                             aclrtMemSharedHandleType shareType, uint64_t flags,
                                             aclrtDrvMemHandle* handle) {
  NPUD_REQUIRE_NOT_NULL(shareableHandle);
  NPUD_REQUIRE_NOT_NULL(handle);
  (void)flags;  // Only ACL_RT_IPC_MEM_EXPORT_FLAG_DEFAULT is defined for imports.
  return ResultInto(ImportV2(shareableHandle, shareType), handle, __func__);
}

aclError aclrtMemSetPidToShareableHandle(uint64_t shareableHandle, int32_t* pid, size_t pidNum) {
  NPUD_REQUIRE_NOT_NULL(pid);
  if (pidNum == 0) return npud::client::NullArgument(__func__, "pidNum");
  std::vector<int64_t> pids(pid, pid + pidNum);
  return Result(npud::client::SetPhysicalImportPids(shareableHandle, pids), __func__);
}

aclError aclrtMemSetPidToShareableHandleV2(void* shareableHandle,
                                           aclrtMemSharedHandleType shareType, int32_t* pid,
                                           size_t pidNum) {
  NPUD_REQUIRE_NOT_NULL(shareableHandle);
  NPUD_REQUIRE_NOT_NULL(pid);
  if (pidNum == 0) return npud::client::NullArgument(__func__, "pidNum");
  return Result(SetPidsV2(shareableHandle, shareType, std::vector<int64_t>(pid, pid + pidNum)),
                __func__);
}

aclError aclrtMemRetainAllocationHandle(void* virPtr, aclrtDrvMemHandle* handle) {
  NPUD_REQUIRE_NOT_NULL(virPtr);
  NPUD_REQUIRE_NOT_NULL(handle);
  return ResultInto(npud::client::RetainPhysical(virPtr), handle, __func__);
}

}  // namespace npud::abi_impl

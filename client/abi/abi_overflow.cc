// ACL entry points of the float overflow status and the saturation mode
// (client/core/float_overflow.h), with the argument checks of CANN's ACL
// layer: the older calls check their pointers there (100000), the
// aclrt*FloatOverflow* ones leave it to the runtime (107000).

#include "acl/acl.h"
#include "client/abi/abi_status.h"
#include "client/core/float_overflow.h"
#include "client/generated/acl_impl.h"
#include "common/acl_status.h"

using npud::client::Result;
using npud::client::ResultInto;

namespace npud::abi_impl {

aclError aclrtSetStreamOverflowSwitch(aclrtStream stream, uint32_t flag) {
  if (flag > 1) {
    return npud::client::Unrecorded(
        npud::AclError(npud::kAclInvalidParam, "the overflow switch is 0 or 1"), __func__);
  }
  return Result(npud::client::SetStreamOverflowSwitch(stream, flag), __func__);
}

aclError aclrtGetStreamOverflowSwitch(aclrtStream stream, uint32_t* flag) {
  NPUD_REQUIRE_NOT_NULL(flag);
  return ResultInto(npud::client::StreamOverflowSwitch(stream), flag, __func__);
}

aclError aclrtSetDeviceSatMode(aclrtFloatOverflowMode mode) {
  return Result(npud::client::SetDeviceSatMode(static_cast<uint32_t>(mode)), __func__);
}

aclError aclrtGetDeviceSatMode(aclrtFloatOverflowMode* mode) {
  NPUD_REQUIRE_NOT_NULL(mode);
  *mode = static_cast<aclrtFloatOverflowMode>(npud::client::DeviceSatMode());
  return ACL_SUCCESS;
}

aclError aclrtGetOverflowStatus(void* outputAddr, size_t outputSize, aclrtStream stream) {
  NPUD_REQUIRE_NOT_NULL(outputAddr);
  return Result(npud::client::GetOverflowStatus(outputAddr, outputSize, stream), __func__);
}

aclError aclrtResetOverflowStatus(aclrtStream stream) {
  return Result(npud::client::ResetOverflowStatus(stream), __func__);
}

aclError aclrtCtxGetFloatOverflowAddr(void** overflowAddr) {
  if (overflowAddr == nullptr) {
    return Result(npud::AclError(npud::kRtParamInvalid, "overflowAddr is null"), __func__);
  }
  return ResultInto(npud::client::ContextOverflowBuffer(), overflowAddr, __func__);
}

aclError aclrtGetFloatOverflowStatus(void* outputAddr, uint64_t outputSize, aclrtStream stream) {
  return Result(npud::client::GetOverflowStatus(outputAddr, outputSize, stream), __func__);
}

aclError aclrtResetFloatOverflowStatus(aclrtStream stream) {
  return Result(npud::client::ResetOverflowStatus(stream), __func__);
}

// checkMode is passed to the device unchecked in CANN; one status serves all.
aclError aclrtNpuGetFloatOverFlowStatus(void* outputAddr, uint64_t outputSize, uint32_t checkMode,
                                        aclrtStream stream) {
  (void)checkMode;
  return Result(npud::client::GetOverflowStatus(outputAddr, outputSize, stream), __func__);
}

aclError aclrtNpuClearFloatOverFlowStatus(uint32_t checkMode, aclrtStream stream) {
  (void)checkMode;
  return Result(npud::client::ResetOverflowStatus(stream), __func__);
}

}  // namespace npud::abi_impl

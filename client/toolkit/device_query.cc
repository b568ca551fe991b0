#include "client/toolkit/device_query.h"

#include <cstring>

#include "client/toolkit/toolkit_log.h"

namespace npud::toolkit {

aclError DeviceInfo(const char* caller, uint32_t device, int32_t module_type, int32_t info_type,
                    int64_t* value) {
  if (value == nullptr) return ACL_ERROR_RT_PARAM_INVALID;
  aclrtDevAttr attr;
  if (info_type != kInfoCoreNum) {
    ReportUnsupported(caller);
    return ACL_ERROR_RT_FEATURE_NOT_SUPPORT;
  }
  switch (module_type) {
    case kModuleAicpu:
      attr = ACL_DEV_ATTR_AICPU_CORE_NUM;
      break;
    case kModuleAicore:
      attr = ACL_DEV_ATTR_AICORE_CORE_NUM;
      break;
    case kModuleVectorCore:
      attr = ACL_DEV_ATTR_VECTOR_CORE_NUM;
      break;
    default:
      ReportUnsupported(caller);
      return ACL_ERROR_RT_FEATURE_NOT_SUPPORT;
  }
  return aclrtGetDeviceInfo(device, attr, value);
}

aclError CopySocName(char* out, uint32_t length) {
  if (out == nullptr || length == 0) return ACL_ERROR_RT_PARAM_INVALID;
  const char* name = aclrtGetSocName();
  if (name == nullptr) return ACL_ERROR_RT_INTERNAL_ERROR;
  const size_t size = std::strlen(name) + 1;
  if (size > length) return ACL_ERROR_RT_PARAM_INVALID;
  std::memcpy(out, name, size);
  return ACL_SUCCESS;
}

}  // namespace npud::toolkit

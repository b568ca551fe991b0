// device_query.h
//
// What the runtime (rtGetDeviceInfo, rtGetSocVersion) and the driver
// (halGetDeviceInfo, halGetSocVersion) libraries answer about a device: the
// figures npud's device reports through ACL, so that every library of the
// tree tells a program the same thing (daemon flags --soc, --cube_cores,
// --vector_cores).

#ifndef NPUD_CLIENT_TOOLKIT_DEVICE_QUERY_H_
#define NPUD_CLIENT_TOOLKIT_DEVICE_QUERY_H_

#include <cstdint>

#include "acl/acl.h"

namespace npud::toolkit {

// CANN's DEV_MODULE_TYPE and info types (driver API); the pairs npud answers.
constexpr int32_t kModuleAicpu = 1;
constexpr int32_t kModuleAicore = 4;
constexpr int32_t kModuleVectorCore = 7;
constexpr int32_t kInfoCoreNum = 3;

// ACL_SUCCESS with the value, ACL_ERROR_RT_FEATURE_NOT_SUPPORT for a pair
// npud has no figure for (reported once as `caller`), or the ACL error.
aclError DeviceInfo(const char* caller, uint32_t device, int32_t module_type, int32_t info_type,
                    int64_t* value);

// The SoC name into `out` (terminated); ACL_ERROR_RT_PARAM_INVALID if it does
// not fit, ACL_ERROR_RT_INTERNAL_ERROR if npud could not be asked.
aclError CopySocName(char* out, uint32_t length);

}  // namespace npud::toolkit

#endif  // NPUD_CLIENT_TOOLKIT_DEVICE_QUERY_H_

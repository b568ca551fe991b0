// profapi_exports.h
//
// What libacl_rt.so exports under CANN's libprofapi.so name besides the
// acl_prof.h API (tools/gen_abi.py --extra-export): the model-id calls of
// CANN's profiling/aprof_pub.h, and the mstx tool entry
// (mstx/ms_tools_ext.h finds it with dlsym).

#ifndef NPUD_CLIENT_ABI_PROFAPI_EXPORTS_H_
#define NPUD_CLIENT_ABI_PROFAPI_EXPORTS_H_

#include <stdint.h>

#include "mstx/ms_tools_ext.h"

#ifdef __cplusplus
extern "C" {
#endif

__attribute__((visibility("default"))) int32_t MsprofSetDeviceIdByGeModelIdx(
    const uint32_t geModelIdx, const uint32_t deviceId);
__attribute__((visibility("default"))) int32_t MsprofUnsetDeviceIdByGeModelIdx(
    const uint32_t geModelIdx, const uint32_t deviceId);
__attribute__((visibility("default"))) int InitInjectionMstx(
    mstxGetModuleFuncTableFunc getFuncTable);

#ifdef __cplusplus
}
#endif

#endif  // NPUD_CLIENT_ABI_PROFAPI_EXPORTS_H_

// profapi_exports.h
//
// What libacl_rt.so exports under CANN's libprofapi.so name besides the
// acl_prof.h API (tools/gen_abi.py --extra-export, the list
// NPUD_ACL_RT_EXTRA_EXPORTS of client/CMakeLists.txt): the interface of CANN's
// profiling/aprof_pub.h (abi_prof.cc: the model-id calls; abi_profapi.cc: the
// rest), and the mstx tool entry (mstx/ms_tools_ext.h finds it with dlsym).

#ifndef NPUD_CLIENT_ABI_PROFAPI_EXPORTS_H_
#define NPUD_CLIENT_ABI_PROFAPI_EXPORTS_H_

#include <stdint.h>

#include "mstx/ms_tools_ext.h"
#include "profiling/aprof_pub.h"

#ifdef __cplusplus
extern "C" {
#endif

__attribute__((visibility("default"))) int InitInjectionMstx(
    mstxGetModuleFuncTableFunc getFuncTable);

#ifdef __cplusplus
}
#endif

#endif  // NPUD_CLIENT_ABI_PROFAPI_EXPORTS_H_

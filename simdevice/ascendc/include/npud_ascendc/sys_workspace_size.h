// sys_workspace_size.h: the system workspace at the start of a kernel's workspace.
//
// Host tiling reserves it (PlatformAscendC::GetLibApiWorkSpaceSize) and the kernel
// skips it to find the user's part (GetUserWorkspace); both read this one constant so
// that they cannot disagree. Plain C++ with no kernel state, so host code may include
// it. 16 MiB, as CANN reserves on the 910B (dav-2201).
#ifndef NPUD_ASCENDC_SYS_WORKSPACE_SIZE_H_
#define NPUD_ASCENDC_SYS_WORKSPACE_SIZE_H_

#include <cstdint>

namespace npud::ascendc {

inline constexpr uint32_t kSysWorkspaceSize = 16u << 20;

}  // namespace npud::ascendc

#endif  // NPUD_ASCENDC_SYS_WORKSPACE_SIZE_H_

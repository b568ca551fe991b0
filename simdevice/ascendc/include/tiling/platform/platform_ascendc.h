// tiling/platform/platform_ascendc.h: what host tiling code asks of the SoC it
// tiles for. npud simulates the 910B family: 24 cube and 48 vector cores, the
// memory sizes tiling may plan with (UB and L1 less the 256 bytes CANN keeps back),
// and the 16 MiB system workspace of the advanced APIs.
#ifndef NPUD_TILING_PLATFORM_PLATFORM_ASCENDC_H_
#define NPUD_TILING_PLATFORM_PLATFORM_ASCENDC_H_

#include <cstdint>

#include "npud_ascendc/sys_workspace_size.h"

namespace platform_ascendc {

enum class CoreMemType {
  L0_A = 0,
  L0_B = 1,
  L0_C = 2,
  L1 = 3,
  L2 = 4,
  UB = 5,
  HBM = 6,
  FB = 7,
  BT = 8
};

enum class SocVersion { ASCEND910 = 0, ASCEND910B = 1, ASCEND310P = 2, RESERVED_VERSION = 99999 };

class PlatformAscendC {
 public:
  uint32_t GetCoreNum() const { return 48; }
  uint32_t GetCoreNumAic() const { return 24; }
  uint32_t GetCoreNumAiv() const { return 48; }
  SocVersion GetSocVersion() const { return SocVersion::ASCEND910B; }
  uint32_t GetLibApiWorkSpaceSize() const { return npud::ascendc::kSysWorkspaceSize; }
  void GetCoreMemSize(CoreMemType type, uint64_t& size) const {
    switch (type) {
      case CoreMemType::UB:
        size = 196608 - 256;
        return;
      case CoreMemType::L1:
        size = 524288 - 256;
        return;
      case CoreMemType::L0_A:
      case CoreMemType::L0_B:
        size = 65536;
        return;
      case CoreMemType::L0_C:
        size = 131072;
        return;
      case CoreMemType::BT:
        size = 1024;
        return;
      case CoreMemType::FB:
        size = 7168;
        return;
      default:
        size = 0;
        return;
    }
  }
};

// One platform per process, as CANN's manager; the SoC name is accepted (every
// 910B-family name describes the same simulated chip).
class PlatformAscendCManager {
 public:
  static PlatformAscendC* GetInstance(const char* /*soc_version*/ = nullptr) {
    static PlatformAscendC platform;
    return &platform;
  }
};

}  // namespace platform_ascendc

#endif  // NPUD_TILING_PLATFORM_PLATFORM_ASCENDC_H_

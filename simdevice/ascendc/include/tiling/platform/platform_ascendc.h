// tiling/platform/platform_ascendc.h: what host tiling code asks of the SoC it
// tiles for (platform_ascendc::PlatformAscendC, CANN's interface). Header-only:
// CANN defines it in libplatform.so, which npud's tree provides as a name only.
// Also reached as <root>/include/tiling/platform/platform_ascendc.h (a
// forwarding header), where host programs find it.
//
// The figures are the device's the program runs on, as npud reports it
// (aclrtGetDeviceInfo: cube and vector cores, unified buffer, L2, HBM; the
// daemon's --cube_cores, --vector_cores and --memory_gib), when the process
// has npud's runtime loaded; without it (pure tiling code, unit tests) they
// are those of npud's default device, an Ascend910B1: 24 cube and 48 vector
// cores, 192 KiB of unified buffer, 192 MiB of L2, 64 GiB of HBM. Tiling sees
// the unified buffer and L1 less the 256 bytes CANN keeps back on the 910B, and
// reserves the 16 MiB system workspace of the advanced APIs.
#ifndef NPUD_TILING_PLATFORM_PLATFORM_ASCENDC_H_
#define NPUD_TILING_PLATFORM_PLATFORM_ASCENDC_H_

#include <dlfcn.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <type_traits>

// Relative, so that the forwarding header in <root>/include finds it too.
#include "../../npud_ascendc/sys_workspace_size.h"

namespace fe {
class PlatFormInfos;  // what a tiling context describes its platform with
}  // namespace fe

// The architecture numbers (__NPU_ARCH__) of the SoC families.
enum class NpuArch : uint32_t {
  DAV_RESV = 0,  // no architecture
  DAV_1001 = 1001,
  DAV_2002 = 2002,
  DAV_2201 = 2201,
  DAV_3002 = 3002,
  DAV_3510 = 3510,
};

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
  BT = 8,
  RESERVED
};

enum class SocVersion {
  ASCEND910 = 0,
  ASCEND910B,  // the 910B1..4 and 910_93 series: what npud simulates
  ASCEND310P,
  ASCEND310B,
  ASCEND950,
  ASCEND910_55,
  ASCEND910_95 = ASCEND950,
  AS31XM1,
  ASCEND031,
  ASCEND035,
  ASCEND310,
  ASCEND610,
  ASCEND610Lite,
  ASCEND910_93,
  BS9SX1A,
  BS9SX2A,
  HI3796CV300CS,
  HI3796CV300ES,
  MC61AM21A,
  MC62,
  SD3403,
  KIRINX90,
  KIRIN9030,
  MC32DM11A,
  ASCEND350,
  RESERVED_VERSION = 99999
};

enum class ReservedSize { RESERVED_SIZE_8K, RESERVED_SIZE_16K, RESERVED_SIZE_32K };

namespace detail {

// A device's figures.
struct Figures {
  uint32_t cube_cores = 24;
  uint32_t vector_cores = 48;
  uint64_t ub_bytes = 192u << 10;
  uint64_t l2_bytes = 192ull << 20;
  uint64_t hbm_bytes = 64ull << 30;
};

// The figures npud's runtime reports for device 0 (a daemon's devices are all
// alike), if this process has the runtime: found by name, so that code without
// it (unit tests, tiling tools) still links and gets the defaults.
inline Figures DeviceFigures() {
  Figures figures;
  using GetInfo = int (*)(uint32_t, int, int64_t*);
  const auto get_info = reinterpret_cast<GetInfo>(dlsym(RTLD_DEFAULT, "aclrtGetDeviceInfo"));
  if (get_info == nullptr) return figures;
  // aclrtDevAttr: cube cores 102, vector cores 201, unified buffer 204, HBM 301, L2 302.
  const auto ask = [&](int attr, auto* out) {
    int64_t value = 0;
    if (get_info(0, attr, &value) == 0 && value > 0) {
      *out = static_cast<std::remove_pointer_t<decltype(out)>>(value);
    }
  };
  ask(102, &figures.cube_cores);
  ask(201, &figures.vector_cores);
  ask(204, &figures.ub_bytes);
  ask(301, &figures.hbm_bytes);
  ask(302, &figures.l2_bytes);
  return figures;
}

// CANN keeps these bytes of the 910B's unified buffer and L1 for its own use.
inline constexpr uint64_t kLocalReserved = 256;
// Workspace sizes of CreateCubeResGroup and GroupBarrier on the 910B.
inline constexpr uint32_t kCubeGroupWorkspace = 1u << 20;
inline constexpr uint32_t kGroupBarrierWorkspace = 1u << 20;

}  // namespace detail

class PlatformAscendC {
 public:
  PlatformAscendC() = delete;
  ~PlatformAscendC() = default;
  // A tiling context's platform: on npud, the device the program runs on.
  explicit PlatformAscendC(fe::PlatFormInfos* /*platformInfo*/)
      : figures_(detail::DeviceFigures()) {}

  // Separate cube and vector cores (the 910B): the vector cores.
  uint32_t GetCoreNum() const { return figures_.vector_cores; }
  uint32_t GetCoreNumAic() const { return figures_.cube_cores; }
  uint32_t GetCoreNumAiv() const { return figures_.vector_cores; }
  // Stand-alone vector cores beside the AI cores exist on the 310P only.
  uint32_t GetCoreNumVector() const { return 0; }

  // Blocks of a mix launch (one cube and aiv/aic vector cores each) covering
  // sliceNum slices; sliceNum itself for pure cube or vector work. 0 when the
  // launch would need more groups than the device has cube cores.
  uint32_t CalcTschNumBlocks(uint32_t sliceNum, uint32_t aicCoreNum, uint32_t aivCoreNum) const {
    if (aicCoreNum == 0 || aivCoreNum == 0 || aicCoreNum > aivCoreNum) return sliceNum;
    const uint32_t ratio = aivCoreNum / aicCoreNum;
    const uint32_t blocks = (sliceNum + ratio - 1) / ratio;
    return ratio == 2 && blocks > aicCoreNum ? 0 : blocks;
  }
  uint32_t CalcTschBlockDim(uint32_t sliceNum, uint32_t aicCoreNum, uint32_t aivCoreNum) const {
    return CalcTschNumBlocks(sliceNum, aicCoreNum, aivCoreNum);
  }

  uint32_t GetLibApiWorkSpaceSize() const { return npud::ascendc::kSysWorkspaceSize; }
  uint32_t GetResCubeGroupWorkSpaceSize() const { return detail::kCubeGroupWorkspace; }
  uint32_t GetResGroupBarrierWorkSpaceSize() const { return detail::kGroupBarrierWorkspace; }

  void GetCoreMemSize(const CoreMemType& memType, uint64_t& size) const {
    switch (memType) {
      case CoreMemType::UB:
        size = figures_.ub_bytes - detail::kLocalReserved - reserved_;
        return;
      case CoreMemType::L1:
        size = (512u << 10) - detail::kLocalReserved;
        return;
      case CoreMemType::L0_A:
      case CoreMemType::L0_B:
        size = 64u << 10;
        return;
      case CoreMemType::L0_C:
        size = 128u << 10;
        return;
      case CoreMemType::L2:
        size = figures_.l2_bytes;
        return;
      case CoreMemType::HBM:
        size = figures_.hbm_bytes;
        return;
      case CoreMemType::FB:
        size = 7u << 10;
        return;
      case CoreMemType::BT:
        size = 1u << 10;
        return;
      default:
        size = 0;
        return;
    }
  }

  // npud models no bandwidths: 0, said once.
  void GetCoreMemBw(const CoreMemType& /*memType*/, uint64_t& bwSize) const {
    static std::once_flag said;
    std::call_once(said, [] {
      std::fprintf(stderr, "npud: PlatformAscendC::GetCoreMemBw is not simulated; it reports 0\n");
    });
    bwSize = 0;
  }

  // Keeps `size` of the unified buffer out of what GetCoreMemSize reports.
  void ReserveLocalMemory(ReservedSize size) {
    switch (size) {
      case ReservedSize::RESERVED_SIZE_8K:
        reserved_ = 8u << 10;
        break;
      case ReservedSize::RESERVED_SIZE_16K:
        reserved_ = 16u << 10;
        break;
      case ReservedSize::RESERVED_SIZE_32K:
        reserved_ = 32u << 10;
        break;
    }
  }

  SocVersion GetSocVersion() const { return SocVersion::ASCEND910B; }
  NpuArch GetCurNpuArch() const { return NpuArch::DAV_2201; }
  // The vector register width of the 950's register API; the 910B has none.
  uint32_t GetVecRegLen() const { return 0; }

 private:
  friend class PlatformAscendCManager;
  explicit PlatformAscendC(const detail::Figures& figures) : figures_(figures) {}

  detail::Figures figures_;
  uint32_t reserved_ = 0;
};

// One platform per process, made on first use, as CANN's manager.
class PlatformAscendCManager {
 public:
  // The device the program runs on.
  static PlatformAscendC* GetInstance() { return Instance(nullptr); }
  // For a named SoC: every name of the 910B family describes npud's device
  // (npud simulates that family only); another family's name gives nullptr, as
  // CANN answers a SoC it cannot describe.
  static PlatformAscendC* GetInstance(const char* customSocVersion) {
    return Instance(customSocVersion);
  }

 private:
  PlatformAscendCManager() = delete;

  // Ascend910B1..4, B2C, B4-1 and the 910_93 series; "Ascend910B" alone is an
  // older chip of the 910 family.
  static bool Simulated(const char* soc) {
    return (std::strncmp(soc, "Ascend910B", 10) == 0 && soc[10] != '\0') ||
           std::strncmp(soc, "Ascend910_93", 12) == 0;
  }

  static PlatformAscendC* Instance(const char* soc) {
    if (soc != nullptr && !Simulated(soc)) {
      std::fprintf(
          stderr,
          "npud: PlatformAscendCManager: %s is not a SoC npud simulates (the 910B family)\n", soc);
      return nullptr;
    }
    static PlatformAscendC platform(detail::DeviceFigures());
    return &platform;
  }
};

}  // namespace platform_ascendc

#endif  // NPUD_TILING_PLATFORM_PLATFORM_ASCENDC_H_

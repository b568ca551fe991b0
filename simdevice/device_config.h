// device_config.h
//
// The figures that describe one simulated NPU. Defaults model an Ascend
// 910B1; every field can be changed from npud's flags.

#ifndef NPUD_SIMDEVICE_DEVICE_CONFIG_H_
#define NPUD_SIMDEVICE_DEVICE_CONFIG_H_

#include <cstdint>
#include <string>

namespace npud::sim {

struct DeviceConfig {
  std::string soc_name = "Ascend910B1";
  // Device memory (HBM). Reserved lazily: costs nothing until touched.
  uint64_t hbm_bytes = 64ull << 30;
  uint32_t cube_cores = 24;
  uint32_t vector_cores = 48;
  // Unified buffer per AI core.
  uint64_t ub_bytes = 192ull << 10;
  uint64_t l2_bytes = 192ull << 20;
};

}  // namespace npud::sim

#endif  // NPUD_SIMDEVICE_DEVICE_CONFIG_H_

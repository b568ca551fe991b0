// mmad_config.h: the control-register bits that change what the following Mmads do
// on the 910B family (dav-2201): SetHF32Mode (CTRL[46]: float operands of L0A/L0B
// rounded to HF32 before the multiply, hf32.h), SetHF32TransMode (CTRL[47]: how they
// round) and SetMMRowMajor / SetMMColumnMajor (CTRL[51]: whether the cube produces
// C along N first or down M first; no value changes, only the order, which
// RunDenseMmad follows). The register belongs to the core, so the bits outlive a
// block on its thread, as on the NPU until a kernel sets them again.
#ifndef NPUD_ASCENDC_MMAD_CONFIG_H_
#define NPUD_ASCENDC_MMAD_CONFIG_H_

#include "npud_ascendc/cube_panels.h"
#include "npud_ascendc/visibility.h"

namespace AscendC {

enum class HF32Mode { ENABLE, DISABLE };
enum class HF32TransMode { NEAREST_ZERO, NEAREST_EVEN };

}  // namespace AscendC

namespace npud::ascendc {

NPUD_ASCENDC_HIDDEN inline DenseMmadMode& MmadControl() {
  static thread_local DenseMmadMode mode;
  return mode;
}

}  // namespace npud::ascendc

namespace AscendC {

inline void SetHF32Mode(HF32Mode mode) {
  ::npud::ascendc::MmadControl().hf32 = mode == HF32Mode::ENABLE;
}
// The older form: true enables.
inline void SetHF32Mode(bool hf32Mode) { ::npud::ascendc::MmadControl().hf32 = hf32Mode; }

inline void SetHF32TransMode(HF32TransMode mode) {
  ::npud::ascendc::MmadControl().hf32_ties_away = mode == HF32TransMode::NEAREST_ZERO;
}
// The older form: true is NEAREST_ZERO (the register bit set).
inline void SetHF32TransMode(bool hf32TransMode) {
  ::npud::ascendc::MmadControl().hf32_ties_away = hf32TransMode;
}

inline void SetMMRowMajor() { ::npud::ascendc::MmadControl().n_first = true; }
inline void SetMMColumnMajor() { ::npud::ascendc::MmadControl().n_first = false; }
// The older form: true is row major.
inline void SetMMLayoutTransform(bool mmLayoutMode) {
  ::npud::ascendc::MmadControl().n_first = mmLayoutMode;
}

}  // namespace AscendC

#endif  // NPUD_ASCENDC_MMAD_CONFIG_H_

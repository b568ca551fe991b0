// variable_markers.h
//
// The device-variable rewrite of ascendc.cmake's source pass. Each `__gm__` variable
// the scan found (kernel_scan.h, DeviceVariable)
//
//   __gm__ float w[16] = {...};
//
// becomes
//
//   NPUD_GM_BEGIN(w) __gm__ float w[16] = {...}; NPUD_GM_END(w);
//
// which device_variables.h (kernel object: `w` moves to memory the loader replaces
// with device memory) and host_launch.h (host library: `&w` is registered as a
// device symbol) define. Only text is inserted, on the lines the definition starts
// and ends on, so every line keeps its number.

#ifndef NPUD_SIMDEVICE_ASCENDC_SCANNER_VARIABLE_MARKERS_H_
#define NPUD_SIMDEVICE_ASCENDC_SCANNER_VARIABLE_MARKERS_H_

#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "simdevice/ascendc/scanner/kernel_scan.h"

namespace npud::ascendc {

// `variables` are in source order, their spans taken from `text`.
std::string MarkDeviceVariables(absl::string_view text,
                                const std::vector<DeviceVariable>& variables);

}  // namespace npud::ascendc

#endif  // NPUD_SIMDEVICE_ASCENDC_SCANNER_VARIABLE_MARKERS_H_

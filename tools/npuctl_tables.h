// npuctl_tables.h
//
// How npuctl shows the Admin service's replies to a person: the device
// table of `devices`, the npu-smi-like summary of `info`, the session table
// of `sessions`, and the screen `top` refreshes. `--json` bypasses these.

#ifndef NPUD_TOOLS_NPUCTL_TABLES_H_
#define NPUD_TOOLS_NPUCTL_TABLES_H_

#include <string>

#include "npud/v1/npud.pb.h"

namespace npud::npuctl {

std::string DeviceTable(const v1::ListDevicesReply& devices);
// Per device: SoC, health, AI cores, HBM use, sessions and streams, boxed
// as npu-smi info boxes them.
std::string InfoTable(const v1::ListDevicesReply& devices);
std::string SessionTable(const v1::ListSessionsReply& sessions);
// Devices, then sessions by device memory, for a terminal of `rows` lines.
std::string TopScreen(const v1::ListDevicesReply& devices, const v1::ListSessionsReply& sessions,
                      int rows);

}  // namespace npud::npuctl

#endif  // NPUD_TOOLS_NPUCTL_TABLES_H_

// platform_info.h
//
// Facts about the installed package and the SoC family, answered the way
// CANN answers them: package versions come from
// $ASCEND_HOME_PATH/share/info/<package>/version.info ("Version=8.5.0"),
// and SoC names map to NPU architectures (Ascend910B* -> 2201, ...).

#ifndef NPUD_CLIENT_CORE_PLATFORM_INFO_H_
#define NPUD_CLIENT_CORE_PLATFORM_INFO_H_

#include <cstdint>
#include <string>

#include "absl/status/statusor.h"

namespace npud::client {

// The Version= line of the package's version.info. Looks under
// $ASCEND_HOME_PATH, then under the install prefix of this library.
// ACL_ERROR_INVALID_FILE when there is none.
absl::StatusOr<std::string> PackageVersion(const std::string& package);

// "8.5.0" -> 80500000 (major*10^7 + minor*10^5 + patch*1000, alpha/beta/rc
// suffixes subtract 300/200/100 and add their number).
absl::StatusOr<int32_t> VersionNumber(const std::string& version);

// The NPU architecture of a SoC name (case-insensitive), 0 if unknown.
int NpuArchOf(const std::string& soc);

}  // namespace npud::client

#endif  // NPUD_CLIENT_CORE_PLATFORM_INFO_H_

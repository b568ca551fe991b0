// output_files.h
//
// The files the runtime writes for the program (dumps, profiling results):
// directories made as `mkdir -p` does, with mode 0700 for what it creates,
// and whole files written at once. Failures are ACL_ERROR_FAILURE with the
// path and errno's text.

#ifndef NPUD_CLIENT_CORE_OUTPUT_FILES_H_
#define NPUD_CLIENT_CORE_OUTPUT_FILES_H_

#include <sys/types.h>

#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace npud::client {

absl::Status MakeDirectories(const std::string& path);

// realpath(3): absolute, symbolic links resolved, no trailing '/'.
absl::StatusOr<std::string> RealPath(const std::string& path);

// Writes `bytes` to `path` (its directory made if missing; appended if the
// file exists), then sets `mode`; a file cut short is removed.
absl::Status WriteFile(const std::string& path, const std::string& bytes, mode_t mode = 0600);

// Local time as YYYYmmddHHMMSS.
std::string LocalTimestamp();

}  // namespace npud::client

#endif  // NPUD_CLIENT_CORE_OUTPUT_FILES_H_

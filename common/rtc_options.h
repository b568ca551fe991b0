// rtc_options.h
//
// What a run-time compilation (aclrtcCompileProg) may ask of npud's compiler: the
// user options it accepts and how header names must look. Both sides use these
// rules: the client library refuses a bad option or header name at once
// (ACL_ERROR_RTC_INVALID_OPTION / _INVALID_INPUT, no round trip), and the daemon's
// compiler checks again, because it never trusts a client, before it turns the
// options into compiler arguments.
//
// Accepted options: -D<macro>[=<value>], -U<macro>, -I<relative dir> (also as two
// arguments "-D" "<macro>", "-I" "<dir>"), -O0 -O1 -O2 -O3, -g, -std=c++17,
// -std=c++20, -w, -Wall, -Werror. bisheng's --npu-arch=<arch> (or "--npu-arch"
// "<arch>"), --npu-*=... and --cce-*[=...] are accepted and dropped. Nothing else
// is: no option can name a file outside the program's own directory, load code
// into the compiler or change what it writes.
//
// Header names are relative '/'-separated paths inside the program's directory.

#ifndef NPUD_COMMON_RTC_OPTIONS_H_
#define NPUD_COMMON_RTC_OPTIONS_H_

#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace npud {

// The name under which the daemon's compiler writes the program into the
// directory of its headers; no header may have it.
inline constexpr char kRtcUnitFileName[] = ".npud_rtc_unit.cpp";

// The compiler arguments for `options`: in order, two-argument forms joined
// ("-D" "X" is "-DX"), bisheng's options dropped. InvalidArgument for the first
// option that is not accepted, whose message is the reason, as in
// "unsupported option '-x' (accepted: ...)".
absl::StatusOr<std::vector<std::string>> RtcCompilerArguments(
    const std::vector<std::string>& options);

// OK if every option is accepted; else RtcCompilerArguments' error.
absl::Status CheckRtcOptions(const std::vector<std::string>& options);

// OK if `name` can name a header: not empty, relative, no "..", empty component or
// control character, not kRtcUnitFileName. Else InvalidArgument with the reason.
absl::Status CheckRtcHeaderName(absl::string_view name);

}  // namespace npud

#endif  // NPUD_COMMON_RTC_OPTIONS_H_

// generated_files.h
//
// The text of what npud-ascendc-scan writes for its two callers, and of its
// diagnostics. Kept apart from the scan so that the formats, which other tools read
// (the compiler, ascendc.cmake's tests, the daemon), are in one place.
//
// ascendc.cmake's source pass, for a kernel source and an output stem:
//   <stem>.rewritten.cpp  LineDirective(<source>) and the source with its launches
//                         rewritten: diagnostics and __FILE__/__LINE__ still point
//                         at the original
//   <stem>.device.cpp     DeviceUnit: the kernel object's translation unit
//   <stem>.host.cpp       HostUnit: the host library's (ascendc_library only)
//   <stem>.kernels        KernelReport: one line per __global__ definition,
//                         `registered <name> <vector|cube|mix> <line>` or
//                         `skipped <name> <template|namespace|scope|linkage> <line>`
// The daemon's run-time compiler, for a preprocessed program:
//   RtcRegistrations      the block it appends to the program before compiling it
//   KernelList            the names of the kernel table, one a line, in table order

#ifndef NPUD_SIMDEVICE_ASCENDC_SCANNER_GENERATED_FILES_H_
#define NPUD_SIMDEVICE_ASCENDC_SCANNER_GENERATED_FILES_H_

#include <string>

#include "absl/strings/string_view.h"
#include "simdevice/ascendc/scanner/kernel_scan.h"

namespace npud::ascendc {

// `#line 1 "<file>"` and a newline; `file` escaped as a string literal.
std::string LineDirective(absl::string_view file);

// `source` is the kernel source's absolute path (named in a comment),
// `rewritten` the path the unit includes the rewritten source by.
std::string DeviceUnit(absl::string_view source, absl::string_view rewritten,
                       const KernelScan& scan);
// `library_namespace` is the C++ namespace of the host library's launcher
// (NPUD_ASCENDC_HOST_LAUNCHER, host_launch.h). After the source it defines, for each
// kernel registered by name, `extern "C" uint32_t aclrtlaunch_<kernel>(uint32_t
// blockDim, void* stream, <the kernel's parameters>)`, which launches it (what
// ACLRT_LAUNCH_KERNEL(kernel)(...) calls; LaunchHeader declares it), and registers the
// kernel as a device symbol (NPUD_ASCENDC_KERNEL_SYMBOL).
std::string HostUnit(absl::string_view source, absl::string_view rewritten,
                     absl::string_view library_namespace, const KernelScan& scan);

// aclrtlaunch_<kernel>.h, for programs that launch a kernel of an ascendc_library
// with ACLRT_LAUNCH_KERNEL(kernel)(blockDim, stream, args...): the macro and the
// declaration of the function HostUnit defines, with the address-space qualifiers
// dropped (__gm__ T* is T*; GM_ADDR is uint8_t*).
std::string LaunchHeader(const KernelDefinition& kernel);

std::string KernelReport(const KernelScan& scan);

std::string RtcRegistrations(const KernelScan& scan);
std::string KernelList(const KernelScan& scan);

// Who reads a diagnostic about a kernel that is not registered.
enum class Audience {
  kBuild,  // a build log: "<file>:<line>: warning: ...; launching it fails"
  kRtc,    // a run-time compilation log: "<file>:<line>: note: npud-rtc: ..."
};

// Empty for a registered kernel.
std::string Diagnostic(const KernelDefinition& kernel, Audience audience);

}  // namespace npud::ascendc

#endif  // NPUD_SIMDEVICE_ASCENDC_SCANNER_GENERATED_FILES_H_

// launch_rewrite.h
//
// The `<<<>>>` rewrite of ascendc.cmake's source pass. A launch
//
//   NAME<<<A, B, C>>>(ARGS)
//
// becomes
//
//   ::npud_ascendc_launch<(NAME)>("NAME", A, B, C)(ARGS)
//
// which host_launch.h (host library) and device_launch.h (kernel object) define;
// the whole expression keeps the value of the launch. The stream C may be left out
// (`NAME<<<A, B>>>(ARGS)`: the default stream). The kernel is named by its address,
// a template argument, so both halves name it the same way whatever the source's
// spelling (npud_kernel_name.h). NAME may be qualified
// (`::a::b`) and carry template arguments (`K<float, (3 > 2)>`); whitespace and
// newlines may appear anywhere. The rewrite keeps the text of NAME and of the
// launch arguments as written and moves the whitespace between NAME and `<<<`
// after the call, so every line keeps its number and its content stays on it. In
// the string (the spelling, for messages), whitespace runs are one space, none
// around `::`, and a leading `::` is dropped.
//
// Launches are found in LexedSource::code: not in comments, literals or `#if 0`
// groups, but inside macro bodies (where NAME is then the macro parameter's
// spelling). A `<<<` that is not a well-formed launch is an error: no name before
// it, no `>>>` closing it before the statement ends, not two or three launch
// arguments, or no '(' after `>>>`.

#ifndef NPUD_SIMDEVICE_ASCENDC_SCANNER_LAUNCH_REWRITE_H_
#define NPUD_SIMDEVICE_ASCENDC_SCANNER_LAUNCH_REWRITE_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "simdevice/ascendc/scanner/source_lexer.h"

namespace npud::ascendc {

// The source's text with its launches rewritten. InvalidArgument for a malformed
// launch, with the message "<main file>:<line>: error: <what is wrong>". With
// `launched`, also the kernels launched: their last name component without template
// arguments (`ns::add<T, 8>` -> `add`), once each, in source order.
absl::StatusOr<std::string> RewriteLaunches(const LexedSource& source,
                                            std::vector<std::string>* launched = nullptr);

}  // namespace npud::ascendc

#endif  // NPUD_SIMDEVICE_ASCENDC_SCANNER_LAUNCH_REWRITE_H_

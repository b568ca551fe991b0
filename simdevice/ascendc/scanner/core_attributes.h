// core_attributes.h
//
// bisheng's function attributes [aicore] and [host, aicore], which CANN's
// compiler accepts before a declaration (`__forceinline__[aicore] void f()`,
// `__global__ [aicore] void k()`), usually through a project's own macros
// (CATLASS_DEVICE, CATLASS_HOST_DEVICE). They say on which side a function
// runs; npud compiles both sides from the same text with g++, where they have
// no meaning and are not C++. Because they come out of macros, they are removed
// after preprocessing: npud's bisheng preprocesses a unit that needs it, and
// StripCoreAttributes blanks them in the preprocessed text.

#ifndef NPUD_SIMDEVICE_ASCENDC_SCANNER_CORE_ATTRIBUTES_H_
#define NPUD_SIMDEVICE_ASCENDC_SCANNER_CORE_ATTRIBUTES_H_

#include <string>

namespace npud::ascendc {

// Replaces each `[aicore]`, `[host, aicore]` and `[aicore, host]` of the code
// (not of strings, characters or comments; any spacing) by spaces, so that
// columns and lines stay where they were. Returns how many it replaced.
int StripCoreAttributes(std::string& text);

}  // namespace npud::ascendc

#endif  // NPUD_SIMDEVICE_ASCENDC_SCANNER_CORE_ATTRIBUTES_H_

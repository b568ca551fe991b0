// toolkit_log.h
//
// How the toolkit libraries (libruntime, libascend_hal, libascendc_runtime,
// liberror_manager, libmmpa) speak: on stderr, in the client library's format
// and at the level NPUD_LOG_LEVEL sets (default warn), so that a program's
// stdout keeps only what it writes itself. They are separate libraries over
// libacl_rt.so's public API, so they cannot share its logger.

#ifndef NPUD_CLIENT_TOOLKIT_TOOLKIT_LOG_H_
#define NPUD_CLIENT_TOOLKIT_TOOLKIT_LOG_H_

namespace npud::toolkit {

enum class LogLevel { kTrace, kDebug, kInfo, kWarn, kError, kOff };

// printf-style; one line, the newline is added.
void Log(LogLevel level, const char* format, ...) __attribute__((format(printf, 2, 3)));

// A function npud does not simulate was called: says so once per function
// (as libacl_rt.so's stubs do). The caller returns its family's
// "feature not supported" code.
void ReportUnsupported(const char* function_name);

}  // namespace npud::toolkit

#endif  // NPUD_CLIENT_TOOLKIT_TOOLKIT_LOG_H_

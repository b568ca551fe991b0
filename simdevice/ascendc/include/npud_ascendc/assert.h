// assert.h: ascendc_assert(condition[, format, args...]), the kernel assertion of
// CANN 9. A false condition prints "[ASSERT] <file>:<line>: Assertion `<condition>'
// failed." and the formatted message through the block, then fails the block (trap
// kind 1), so the launch's synchronize reports the kernel's failure.
//
// assert(condition[, format, args...]) is the same check under the standard name
// (the reference's asc_assert.h): a no-op under NDEBUG, as the reference's release
// builds. A later #include <cassert> puts the standard macro back, which checks the
// same condition.
//
// The older debug macros work the same way: ASCENDC_ASSERT(condition, { statements })
// runs the statements (typically KERNEL_LOG(KERNEL_ERROR, format, args...), which
// prints "[ERROR] <message>" through the block) and fails the block when the condition
// is false; so does ASSERT(condition).
#ifndef NPUD_ASCENDC_ASSERT_H_
#define NPUD_ASCENDC_ASSERT_H_

#include <string>
#include <type_traits>

#include "npud_ascendc/check.h"
#include "npud_ascendc/printf.h"

namespace npud::ascendc {

template <class... Args>
void AssertOrFail(bool ok, const char* condition, const char* file, int line,
                  const char* format = nullptr, Args&&... args) {
  if (ok) return;
  EmitFormatted("[ASSERT] %s:%d: Assertion `%s' failed. ", file, line, condition);
  if (format != nullptr) EmitFormatted(format, PrintfArg<std::decay_t<Args>>(args)...);
  Fail("ascendc_assert(%s) failed at %s:%d", condition, file, line);
}

}  // namespace npud::ascendc

#define ascendc_assert(condition, ...)                                                        \
  ::npud::ascendc::AssertOrFail(static_cast<bool>(condition), #condition, __FILE__, __LINE__, \
                                ##__VA_ARGS__)

#undef assert
#ifdef NDEBUG
#define assert(...) static_cast<void>(0)
#else
#define assert(condition, ...) ascendc_assert(condition, ##__VA_ARGS__)
#endif

enum KernelLogLevel { KERNEL_DEBUG, KERNEL_INFO, KERNEL_WARN, KERNEL_ERROR };

namespace npud::ascendc {

inline const char* LogLevelName(KernelLogLevel level) {
  switch (level) {
    case KERNEL_DEBUG:
      return "DEBUG";
    case KERNEL_INFO:
      return "INFO";
    case KERNEL_WARN:
      return "WARN";
    case KERNEL_ERROR:
      break;
  }
  return "ERROR";
}

}  // namespace npud::ascendc

#define KERNEL_LOG(level, format, ...)                                                      \
  ::npud::ascendc::EmitFormatted("[%s] " format "\n", ::npud::ascendc::LogLevelName(level), \
                                 ##__VA_ARGS__)

#define ASCENDC_ASSERT(condition, ...)                                                             \
  do {                                                                                             \
    if (!(condition)) {                                                                            \
      __VA_ARGS__;                                                                                 \
      ::npud::ascendc::Fail("ASCENDC_ASSERT(%s) failed at %s:%d", #condition, __FILE__, __LINE__); \
    }                                                                                              \
  } while (0)

// ASSERT(condition): the plain form kernels also use.
#ifndef ASSERT
#define ASSERT(condition)                                                                  \
  do {                                                                                     \
    if (!(condition)) {                                                                    \
      ::npud::ascendc::Fail("ASSERT(%s) failed at %s:%d", #condition, __FILE__, __LINE__); \
    }                                                                                      \
  } while (0)
#endif

#endif  // NPUD_ASCENDC_ASSERT_H_

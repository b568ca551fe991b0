// assert.h: ascendc_assert(condition[, format, args...]), the kernel assertion of
// CANN 9. A false condition prints "[ASSERT] <file>:<line>: Assertion `<condition>'
// failed." and the formatted message through the block, then fails the block (trap
// kind 1), so the launch's synchronize reports the kernel's failure.
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

#endif  // NPUD_ASCENDC_ASSERT_H_

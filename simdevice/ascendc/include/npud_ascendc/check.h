// check.h: how a block fails.
//
//   Fail(fmt, ...)   a failed check (UB overflow, misaligned DataCopy, queue misuse...):
//                    ctx->trap(host, NPUD_TRAP_KIND_CHECK, message)
//   RaiseTrap()      the trap instruction: ctx->trap(host, NPUD_TRAP_KIND_TRAP, "trap")
//
// Neither returns: the executor's trap() unwinds the block with a C++ exception (see
// npud_kernel_abi.h). Outside a kernel entry there is no executor to report to, so
// the message goes to stderr and the process aborts; so does a trap() that returns.
//
// `trap()` and `asm("trap")` (the runtime samples' way to raise an AI Core exception)
// both end in RaiseTrap. g++ cannot run AscendC inline assembly, so kernel_operator.h
// defines `asm(...)` as a macro over InlineAsm: "trap" traps, an empty template (a
// compiler barrier such as asm("" ::: "memory")) does nothing, anything else is a
// failed check naming the instruction.
#ifndef NPUD_ASCENDC_CHECK_H_
#define NPUD_ASCENDC_CHECK_H_

#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "npud_ascendc/block_context.h"
#include "npud_kernel_abi.h"

namespace npud::ascendc {

[[noreturn]] inline void ReportAndStop(uint32_t kind, const char* message) {
  const NpudBlockContext* ctx = Context();
  if (ctx != nullptr && ctx->trap != nullptr) {
    ctx->trap(ctx->host, kind, message);
  }
  std::fprintf(stderr, "npud AscendC %s outside a kernel executor: %s\n",
               kind == NPUD_TRAP_KIND_TRAP ? "trap" : "check failure", message);
  std::abort();
}

// Formats the message (printf-style, truncated to 511 bytes) and fails the block.
[[noreturn]] inline void Fail(const char* fmt, ...) __attribute__((format(printf, 1, 2)));
[[noreturn]] inline void Fail(const char* fmt, ...) {
  char message[512];
  va_list ap;
  va_start(ap, fmt);
  std::vsnprintf(message, sizeof(message), fmt, ap);
  va_end(ap);
  ReportAndStop(NPUD_TRAP_KIND_CHECK, message);
}

[[noreturn]] inline void RaiseTrap() { ReportAndStop(NPUD_TRAP_KIND_TRAP, "trap"); }

// `text` is the stringified asm operand list, e.g. "\"trap\"" or "\"\" ::: \"memory\"".
inline void InlineAsm(const char* text) {
  // The instruction is the content of the first string literal.
  const char* open = std::strchr(text, '"');
  const char* close = open != nullptr ? std::strchr(open + 1, '"') : nullptr;
  const char* begin = open != nullptr && close != nullptr ? open + 1 : text;
  const char* end = open != nullptr && close != nullptr ? close : text + std::strlen(text);
  while (begin < end && (*begin == ' ' || *begin == '\t')) ++begin;
  while (end > begin && (end[-1] == ' ' || end[-1] == '\t' || end[-1] == ';')) --end;
  const size_t len = static_cast<size_t>(end - begin);
  if (len == 0) return;  // a compiler barrier
  if (len == 4 && std::strncmp(begin, "trap", 4) == 0) RaiseTrap();
  Fail("unsupported inline asm \"%.*s\": the CPU simulator only implements asm(\"trap\")",
       static_cast<int>(len), begin);
}

}  // namespace npud::ascendc

// The AI Core trap instruction: raises a device exception and ends the block.
[[noreturn]] inline void trap() { ::npud::ascendc::RaiseTrap(); }

#endif  // NPUD_ASCENDC_CHECK_H_

// lock_order_checks.h
//
// Abseil's lock-order (deadlock cycle) detection. Debian's Abseil runs it on
// every contended lock, which cost npud a fifth of its time with many
// sessions, so the daemon and the client library switch it off — except
// when NPUD_CHECK_LOCK_ORDER=1, which the test suites set: a lock-order
// cycle then aborts the process with both stacks, failing the test.

#ifndef NPUD_COMMON_LOCK_ORDER_CHECKS_H_
#define NPUD_COMMON_LOCK_ORDER_CHECKS_H_

namespace npud {

// Call once, early, before threads take locks.
void ConfigureLockOrderChecks();

}  // namespace npud

#endif  // NPUD_COMMON_LOCK_ORDER_CHECKS_H_

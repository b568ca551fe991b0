// monotonic_clock.h
//
// The clock of timelines: CLOCK_MONOTONIC in nanoseconds. npud, its kernel
// hosts and local clients read the same clock, so their times line up
// without conversion; a remote client estimates its offset (host_trace.h).

#ifndef NPUD_COMMON_MONOTONIC_CLOCK_H_
#define NPUD_COMMON_MONOTONIC_CLOCK_H_

#include <time.h>

#include <cstdint>

namespace npud {

inline int64_t MonotonicNanos() {
  timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  return int64_t{now.tv_sec} * 1'000'000'000 + now.tv_nsec;
}

}  // namespace npud

#endif  // NPUD_COMMON_MONOTONIC_CLOCK_H_

// heap_policy.h
//
// How npud's heap trades memory for speed.
//
// Bulk copies allocate and free megabyte buffers all the time, on many
// threads (gRPC's and the sessions'). Kept in the heap, they cost no page
// faults the next time; returned to the kernel after every copy, they would
// be faulted in again at a few GB/s. But glibc never gives back the free top
// of a per-thread arena (malloc_trim trims only the main arena's), which left
// ~300 MiB resident after a gRPC copy load had gone. So npud uses one arena
// (small blocks still come from per-thread caches without a lock), keeps its
// free memory while copies run, and gives it back once the heap has been
// quiet for a few seconds (HeapTrimmer).

#ifndef NPUD_DAEMON_HEAP_POLICY_H_
#define NPUD_DAEMON_HEAP_POLICY_H_

#include <cstddef>
#include <functional>

namespace npud::daemon {

// Sets the malloc parameters above. Call once, before threads start.
void ConfigureHeap();

// What malloc holds: bytes handed out, and free bytes kept in the heap.
struct HeapUsage {
  size_t in_use = 0;
  size_t free = 0;
};

// Gives free heap memory back to the kernel once the load has left: when
// at least `min_free` bytes are free and the bytes in use have moved by
// less than `quiet_change` over `quiet_ticks` ticks in a row. Trimming
// during a load would only make its next buffers fault in again. After a
// trim it waits for a tick that is not quiet (a new load) before it trims
// again: glibc still counts trimmed free pages inside the heap as free.
//
// Not thread-safe: one caller (npud's main loop) ticks it at a steady pace.
class HeapTrimmer {
 public:
  struct Options {
    size_t min_free = size_t{32} << 20;
    size_t quiet_change = size_t{4} << 20;
    int quiet_ticks = 2;
  };
  // Reads glibc's figures and trims with malloc_trim.
  explicit HeapTrimmer(const Options& options);
  // For tests: `usage` is the heap's state, `trim` gives memory back.
  HeapTrimmer(const Options& options, std::function<HeapUsage()> usage, std::function<void()> trim);

  // Looks at the heap once; returns true if it trimmed.
  bool Tick();

 private:
  const Options options_;
  const std::function<HeapUsage()> usage_;
  const std::function<void()> trim_;
  size_t last_in_use_ = 0;
  int quiet_ = 0;
  bool armed_ = true;
};

}  // namespace npud::daemon

#endif  // NPUD_DAEMON_HEAP_POLICY_H_

#include "daemon/heap_policy.h"

#include <malloc.h>

#include <utility>

#include "spdlog/spdlog.h"

namespace npud::daemon {

void ConfigureHeap() {
  mallopt(M_ARENA_MAX, 1);
  // Copy buffers up to 32 MiB stay in the heap instead of fresh mmaps, and
  // its free top is not given back after every free; HeapTrimmer gives it
  // back when the copies have stopped.
  mallopt(M_MMAP_THRESHOLD, 32 << 20);
  mallopt(M_TRIM_THRESHOLD, 256 << 20);
}

namespace {

HeapUsage GlibcHeapUsage() {
  const struct mallinfo2 info = mallinfo2();
  return HeapUsage{info.uordblks, info.fordblks};
}

}  // namespace

HeapTrimmer::HeapTrimmer(const Options& options)
    : HeapTrimmer(options, GlibcHeapUsage, [] { malloc_trim(0); }) {}

HeapTrimmer::HeapTrimmer(const Options& options, std::function<HeapUsage()> usage,
                         std::function<void()> trim)
    : options_(options), usage_(std::move(usage)), trim_(std::move(trim)) {}

bool HeapTrimmer::Tick() {
  const HeapUsage now = usage_();
  const size_t change =
      now.in_use > last_in_use_ ? now.in_use - last_in_use_ : last_in_use_ - now.in_use;
  last_in_use_ = now.in_use;
  quiet_ = change < options_.quiet_change ? quiet_ + 1 : 0;
  if (quiet_ == 0) armed_ = true;
  if (!armed_ || now.free < options_.min_free || quiet_ < options_.quiet_ticks) return false;
  trim_();
  armed_ = false;
  spdlog::debug("heap quiet with {} MiB free; trimmed", now.free >> 20);
  return true;
}

}  // namespace npud::daemon

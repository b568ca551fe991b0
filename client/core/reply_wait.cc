#include "client/core/reply_wait.h"

#include <cstdlib>
#include <string>
#include <thread>

#include "absl/strings/numbers.h"
#include "spdlog/spdlog.h"

namespace npud::client {
namespace {

absl::Duration ReadWindow() {
  if (std::thread::hardware_concurrency() < 2) return absl::ZeroDuration();
  int64_t us = 100;
  if (const char* text = std::getenv("NPUD_REPLY_SPIN_US"); text != nullptr) {
    if (!absl::SimpleAtoi(text, &us) || us < 0 || us > 100000) {
      spdlog::warn("NPUD_REPLY_SPIN_US={}: not a number of microseconds in [0, 100000]; using 100",
                   text);
      us = 100;
    }
  }
  return absl::Microseconds(us);
}

inline void CpuRelax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  asm volatile("yield");
#endif
}

}  // namespace

absl::Duration ReplyWait::DefaultWindow() {
  static const absl::Duration window = ReadWindow();
  return window;
}

ReplyWait& ReplyWait::ForThisThread() {
  thread_local ReplyWait wait(DefaultWindow());
  return wait;
}

bool ReplyWait::ShouldPoll() {
  if (window_ <= absl::ZeroDuration()) return false;
  if (misses_ < kMissesBeforeBackoff) return true;
  return ++waits_since_backoff_ % kProbeInterval == 0;
}

void ReplyWait::Record(bool in_time) {
  if (in_time) {
    misses_ = 0;
    waits_since_backoff_ = 0;
  } else if (misses_ < kMissesBeforeBackoff) {
    ++misses_;
  }
}

void ReplyWait::Wait(const absl::Notification& done) {
  if (done.HasBeenNotified()) return;
  if (ShouldPoll()) {
    const absl::Time until = absl::Now() + window_;
    // absl::Now() costs tens of nanoseconds: checked every 32 pauses.
    for (uint32_t i = 1;; ++i) {
      if (done.HasBeenNotified()) {
        Record(/*in_time=*/true);
        return;
      }
      if (i % 32 == 0 && absl::Now() >= until) break;
      CpuRelax();
    }
    Record(/*in_time=*/false);
  }
  done.WaitForNotification();
}

}  // namespace npud::client

#include "daemon/frame_guard.h"

#include <utility>

#include "absl/base/thread_annotations.h"
#include "absl/strings/str_cat.h"
#include "absl/synchronization/mutex.h"
#include "spdlog/spdlog.h"

namespace npud::daemon {

// What a deadline timer needs: which frame is being read (0: none) and how
// to cut. Guarded so that a timer never cuts after the guard is gone (the
// connection's socket may then be closed and its number reused).
struct FrameGuard::Watch {
  absl::Mutex mu;
  uint64_t open_frame ABSL_GUARDED_BY(mu) = 0;
  std::function<void()> cut ABSL_GUARDED_BY(mu);
};

FrameGuard::FrameGuard(DelayedExecutor* timers, absl::Duration base_deadline,
                       std::function<void()> cut)
    : timers_(timers), base_deadline_(base_deadline), watch_(std::make_shared<Watch>()) {
  absl::MutexLock lock(&watch_->mu);
  watch_->cut = std::move(cut);
}

FrameGuard::~FrameGuard() {
  Uncharge();
  absl::MutexLock lock(&watch_->mu);
  watch_->cut = nullptr;
}

void FrameGuard::ChargeTo(std::shared_ptr<MemoryQuota> quota) { quota_ = std::move(quota); }

absl::Status FrameGuard::Grow(size_t bytes, uint32_t length) {
  if (quota_ == nullptr) return absl::OkStatus();  // before the hello: bounded by its size
  if (!timing_) {
    // The frame's first growth: its deadline starts.
    timing_ = true;
    const uint64_t frame = ++frames_;
    {
      absl::MutexLock lock(&watch_->mu);
      watch_->open_frame = frame;
    }
    const absl::Duration deadline = base_deadline_ + absl::Seconds(length >> 20);
    timers_->RunAfter(deadline, [weak = std::weak_ptr<Watch>(watch_), frame, length, deadline] {
      std::shared_ptr<Watch> watch = weak.lock();
      if (watch == nullptr) return;
      absl::MutexLock lock(&watch->mu);
      if (watch->open_frame != frame || watch->cut == nullptr) return;
      spdlog::warn("a frame of {} bytes did not arrive within {}; closing its connection", length,
                   absl::FormatDuration(deadline));
      watch->cut();
    });
  }
  // The first kFrameFirstStep bytes are not charged; the rest as it grows.
  const uint64_t want = bytes > kFrameFirstStep ? bytes - kFrameFirstStep : 0;
  if (want > charged_) {
    absl::Status charged = quota_->Charge(want - charged_, kOverdraft);
    if (!charged.ok()) {
      return absl::ResourceExhaustedError(
          absl::StrCat("a frame of ", length, " bytes: ", charged.message()));
    }
    charged_ = want;
  }
  return absl::OkStatus();
}

void FrameGuard::FrameDone(std::string* buffer) {
  if (timing_) std::string().swap(*buffer);
  Uncharge();
}

void FrameGuard::Uncharge() {
  if (!timing_) return;
  timing_ = false;
  quota_->Uncharge(charged_);
  charged_ = 0;
  absl::MutexLock lock(&watch_->mu);
  watch_->open_frame = 0;
}

}  // namespace npud::daemon

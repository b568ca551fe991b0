// cursor_log.h
//
// CursorLog<T>: what happened in this process while someone records it, for
// several readers at once (NPUD_TRACE and a profiling collection may
// overlap). A reader's Start() marks where it begins; its Stop() hands back
// everything added since and forgets what no reader still needs. At most
// kMaxItems are kept; what did not fit is counted as dropped for every
// reader recording then.
//
// Thread-safe. Add() costs one relaxed load while nobody records.

#ifndef NPUD_CLIENT_CORE_CURSOR_LOG_H_
#define NPUD_CLIENT_CORE_CURSOR_LOG_H_

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <deque>
#include <utility>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_map.h"
#include "absl/synchronization/mutex.h"

namespace npud::client {

template <typename T>
class CursorLog {
 public:
  static constexpr size_t kMaxItems = 1'000'000;

  bool recording() const { return readers_.load(std::memory_order_relaxed) > 0; }

  // A reader begins; its cursor goes to Stop().
  uint64_t Start() ABSL_LOCKS_EXCLUDED(mu_) {
    absl::MutexLock lock(&mu_);
    const uint64_t cursor = next_cursor_++;
    starts_[cursor] = Begin{base_ + items_.size(), dropped_};
    readers_.fetch_add(1, std::memory_order_relaxed);
    return cursor;
  }

  // The reader of `cursor` ends: what was added since its Start(), and how
  // much did not fit.
  std::vector<T> Stop(uint64_t cursor, uint64_t* dropped) ABSL_LOCKS_EXCLUDED(mu_) {
    absl::MutexLock lock(&mu_);
    auto it = starts_.find(cursor);
    if (it == starts_.end()) {
      *dropped = 0;
      return {};
    }
    const Begin start = it->second;
    starts_.erase(it);
    readers_.fetch_sub(1, std::memory_order_relaxed);
    *dropped = dropped_ - start.dropped;
    std::vector<T> out(items_.begin() + static_cast<ptrdiff_t>(start.index - base_), items_.end());
    Trim();
    return out;
  }

  void Add(T item) noexcept ABSL_LOCKS_EXCLUDED(mu_) {
    if (!recording()) return;
    absl::MutexLock lock(&mu_);
    if (starts_.empty()) return;  // stopped meanwhile
    if (items_.size() >= kMaxItems) {
      ++dropped_;
      return;
    }
    try {
      items_.push_back(std::move(item));
    } catch (...) {  // out of memory: a call must not fail for its trace
      ++dropped_;
    }
  }

 private:
  struct Begin {
    uint64_t index;    // of the first item the reader gets
    uint64_t dropped;  // dropped_ when it began
  };

  // Forgets the items before every reader's start.
  void Trim() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
    uint64_t keep_from = base_ + items_.size();
    for (const auto& [cursor, start] : starts_) keep_from = std::min(keep_from, start.index);
    while (base_ < keep_from) {
      items_.pop_front();
      ++base_;
    }
  }

  std::atomic<int> readers_{0};
  absl::Mutex mu_;
  std::deque<T> items_ ABSL_GUARDED_BY(mu_);
  uint64_t base_ ABSL_GUARDED_BY(mu_) = 0;  // the index of items_.front()
  uint64_t dropped_ ABSL_GUARDED_BY(mu_) = 0;
  uint64_t next_cursor_ ABSL_GUARDED_BY(mu_) = 1;
  absl::flat_hash_map<uint64_t, Begin> starts_ ABSL_GUARDED_BY(mu_);
};

}  // namespace npud::client

#endif  // NPUD_CLIENT_CORE_CURSOR_LOG_H_

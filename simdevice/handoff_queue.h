// handoff_queue.h
//
// HandOffQueue<T>: items handed to a pool of worker threads, each to the
// worker that went idle most recently.
//
// Why not a plain queue that every idle worker waits on: that wakes the
// worker that has waited longest, so a pool that is mostly idle cycles
// through all of its threads, each with cold caches (and, for AI cores, a
// kernel object's thread-local block to set up on its first kernel). Here
// one item wakes one chosen thread, and a steady trickle of work keeps
// landing on the same one or two.
//
// Thread-safe. Stop() lets the workers drain what is queued and then makes
// Take() return false.

#ifndef NPUD_SIMDEVICE_HANDOFF_QUEUE_H_
#define NPUD_SIMDEVICE_HANDOFF_QUEUE_H_

#include <algorithm>
#include <deque>
#include <optional>
#include <utility>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/synchronization/mutex.h"

namespace npud::sim {

template <typename T>
class HandOffQueue {
 public:
  // Gives `item` to the most recently idle worker, or queues it when none
  // is idle.
  void Put(T item) ABSL_LOCKS_EXCLUDED(mu_) {
    absl::MutexLock lock(&mu_);
    if (idle_.empty()) {
      queued_.push_back(std::move(item));
      return;
    }
    Idle* idle = idle_.back();
    idle_.pop_back();
    idle->item = std::move(item);
    idle->wake.Signal();
  }

  // Waits for the next item; false once stopped with nothing left.
  bool Take(T* item) ABSL_LOCKS_EXCLUDED(mu_) {
    absl::MutexLock lock(&mu_);
    if (queued_.empty() && !stopping_) {
      Idle idle;
      idle_.push_back(&idle);
      while (!idle.item.has_value() && !stopping_) idle.wake.Wait(&mu_);
      if (idle.item.has_value()) {
        *item = *std::move(idle.item);
        return true;
      }
      idle_.erase(std::find(idle_.begin(), idle_.end(), &idle));
    }
    if (queued_.empty()) return false;  // stopped, and nothing left
    *item = std::move(queued_.front());
    queued_.pop_front();
    return true;
  }

  // Workers waiting in Take() now.
  size_t idle_workers() ABSL_LOCKS_EXCLUDED(mu_) {
    absl::MutexLock lock(&mu_);
    return idle_.size();
  }

  void Stop() ABSL_LOCKS_EXCLUDED(mu_) {
    absl::MutexLock lock(&mu_);
    stopping_ = true;
    for (Idle* idle : idle_) idle->wake.Signal();
  }

 private:
  // A worker's mailbox while it waits.
  struct Idle {
    absl::CondVar wake;
    std::optional<T> item;
  };

  absl::Mutex mu_;
  std::deque<T> queued_ ABSL_GUARDED_BY(mu_);
  // The waiting workers, the most recently idle last.
  std::vector<Idle*> idle_ ABSL_GUARDED_BY(mu_);
  bool stopping_ ABSL_GUARDED_BY(mu_) = false;
};

}  // namespace npud::sim

#endif  // NPUD_SIMDEVICE_HANDOFF_QUEUE_H_

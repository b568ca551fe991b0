#include "daemon/compile_cache.h"

#include <utility>

namespace npud::daemon {

CompileCache::CompileCache(size_t capacity) : capacity_(capacity) {}

CompileOutput CompileCache::GetOrCompute(
    const std::string& key, absl::FunctionRef<CompileOutput(bool* cacheable)> compute) {
  std::shared_ptr<InFlight> flight;
  {
    absl::MutexLock lock(&mu_);
    while (flight == nullptr) {
      if (auto hit = index_.find(key); hit != index_.end()) {
        lru_.splice(lru_.begin(), lru_, hit->second);
        CompileOutput output = hit->second->output;
        output.from_cache = true;
        return output;
      }
      if (auto running = in_flight_.find(key); running != in_flight_.end()) {
        // Keeps the computation's record alive after it leaves in_flight_.
        const std::shared_ptr<InFlight> other = running->second;
        mu_.Await(absl::Condition(&other->done));
        if (!other->cacheable) continue;  // its failure was its own
        CompileOutput output = other->output;
        output.from_cache = true;
        return output;
      }
      flight = std::make_shared<InFlight>();
      in_flight_.emplace(key, flight);
    }
  }

  bool cacheable = false;
  CompileOutput output = compute(&cacheable);

  absl::MutexLock lock(&mu_);
  flight->output = output;
  flight->cacheable = cacheable;
  flight->done = true;  // wakes the waiters when the lock is released
  in_flight_.erase(key);
  if (cacheable) Keep(key, output);
  return output;
}

void CompileCache::Keep(const std::string& key, const CompileOutput& output) {
  if (capacity_ == 0) return;
  lru_.push_front(Entry{key, output});
  index_.emplace(lru_.front().key, lru_.begin());
  while (lru_.size() > capacity_) {
    index_.erase(lru_.back().key);
    lru_.pop_back();
  }
}

}  // namespace npud::daemon

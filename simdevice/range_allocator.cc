#include "simdevice/range_allocator.h"

#include <iterator>

namespace npud::sim {
namespace {

uint64_t AlignUp(uint64_t value, uint64_t alignment) {
  return (value + alignment - 1) & ~(alignment - 1);
}

}  // namespace

RangeAllocator::RangeAllocator(uint64_t base, uint64_t size) : cursor_(base) { free_[base] = size; }

uint64_t RangeAllocator::Take(uint64_t length, uint64_t alignment) {
  for (int pass = 0; pass < 2; ++pass) {
    auto it = pass == 0 ? free_.upper_bound(cursor_) : free_.begin();
    // A range that started before the cursor may still extend past it.
    if (pass == 0 && it != free_.begin()) {
      auto prev = std::prev(it);
      if (prev->first + prev->second > cursor_) it = prev;
    }
    for (; it != free_.end(); ++it) {
      const uint64_t start = it->first;
      const uint64_t end = start + it->second;
      const uint64_t at = AlignUp((pass == 0 && start < cursor_) ? cursor_ : start, alignment);
      if (at >= end || end - at < length) continue;
      Carve(it, at, length);
      cursor_ = at + length;
      return at;
    }
  }
  return 0;
}

bool RangeAllocator::TakeAt(uint64_t address, uint64_t length) {
  auto it = free_.upper_bound(address);
  if (it == free_.begin()) return false;
  --it;
  const uint64_t end = it->first + it->second;
  if (address >= end || end - address < length) return false;
  Carve(it, address, length);
  return true;
}

void RangeAllocator::Carve(std::map<uint64_t, uint64_t>::iterator it, uint64_t at,
                           uint64_t length) {
  const uint64_t start = it->first;
  const uint64_t end = start + it->second;
  free_.erase(it);
  if (at > start) free_[start] = at - start;
  if (end > at + length) free_[at + length] = end - (at + length);
}

void RangeAllocator::Return(uint64_t address, uint64_t length) {
  auto next = free_.lower_bound(address);
  if (next != free_.end() && address + length == next->first) {
    length += next->second;
    free_.erase(next);
  }
  auto it = free_.lower_bound(address);
  if (it != free_.begin()) {
    auto prev = std::prev(it);
    if (prev->first + prev->second == address) {
      prev->second += length;
      return;
    }
  }
  free_[address] = length;
}

}  // namespace npud::sim

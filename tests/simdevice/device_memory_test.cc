#include "simdevice/device_memory.h"

#include <sys/mman.h>
#include <sys/resource.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <memory>
#include <random>
#include <set>
#include <thread>
#include <utility>
#include <vector>

#include "absl/synchronization/blocking_counter.h"
#include "common/acl_status.h"
#include "gtest/gtest.h"
#include "tests/simdevice/test_util.h"

namespace npud::sim {
namespace {

using ::npud::sim::testing::CodeOf;

constexpr uint64_t kPage = DeviceMemory::kPageSize;
constexpr uint64_t kMiB = 1ull << 20;
// A preferred base used only by this file (DeviceSet uses 0x200000000000 + n TiB).
constexpr uint64_t kPreferredBase = 0x320000000000ull;

uint64_t RoundUpToPage(uint64_t n) { return (n + kPage - 1) / kPage * kPage; }

bool AllBytesAre(const uint8_t* p, uint64_t n, uint8_t value) {
  return std::all_of(p, p + n, [value](uint8_t b) { return b == value; });
}

TEST(DeviceMemoryTest, CreateRejectsUnsupportedCapacity) {
  EXPECT_EQ(CodeOf(DeviceMemory::Create(0)), kRtParamInvalid);
  EXPECT_EQ(CodeOf(DeviceMemory::Create((1ull << 42) + 1)), kRtParamInvalid);
}

TEST(DeviceMemoryTest, CreateRoundsCapacityToPagesAndReservesSpan) {
  SIM_ASSERT_OK_AND_ASSIGN(std::unique_ptr<DeviceMemory> mem, DeviceMemory::Create(5000));
  EXPECT_EQ(mem->capacity(), 2 * kPage);
  EXPECT_EQ(mem->span(), DeviceMemory::SpanFor(2 * kPage));
  // Room for a guard page behind every allocation, even one-page ones.
  EXPECT_GE(mem->span(), 2 * mem->capacity());
  EXPECT_EQ(mem->base() % kPage, 0u);
  EXPECT_EQ(mem->used_bytes(), 0u);
  EXPECT_EQ(mem->allocation_count(), 0u);
  EXPECT_TRUE(mem->InRange(mem->base()));
  EXPECT_TRUE(mem->InRange(mem->base() + mem->span() - 1));
  EXPECT_FALSE(mem->InRange(mem->base() + mem->span()));
  EXPECT_FALSE(mem->InRange(mem->base() - 1));
}

TEST(DeviceMemoryTest, AllocationsArePageAlignedDistinctAndGuarded) {
  SIM_ASSERT_OK_AND_ASSIGN(std::unique_ptr<DeviceMemory> mem, DeviceMemory::Create(4 * kMiB));
  const std::vector<uint64_t> sizes = {1, 4095, 4096, 4097, 10000, 65536, 3 * 4096 + 1, 7};
  std::vector<std::pair<uint64_t, uint64_t>> ranges;  // address, page-rounded size
  for (uint64_t size : sizes) {
    SIM_ASSERT_OK_AND_ASSIGN(uint64_t address, mem->Allocate(size));
    EXPECT_EQ(address % kPage, 0u) << "size " << size;
    EXPECT_TRUE(mem->InRange(address));
    EXPECT_TRUE(mem->InRange(address + RoundUpToPage(size) - 1));
    // The first page of the reservation is a guard.
    EXPECT_GE(address, mem->base() + kPage);
    ranges.emplace_back(address, RoundUpToPage(size));
  }
  EXPECT_EQ(mem->allocation_count(), sizes.size());
  std::sort(ranges.begin(), ranges.end());
  for (size_t i = 1; i < ranges.size(); ++i) {
    // Disjoint, with at least one guard page in between.
    EXPECT_GE(ranges[i].first, ranges[i - 1].first + ranges[i - 1].second + kPage)
        << "allocation " << std::hex << ranges[i].first << " follows " << ranges[i - 1].first
        << " without a guard page";
  }
}

TEST(DeviceMemoryTest, UsedBytesCountsWholePages) {
  SIM_ASSERT_OK_AND_ASSIGN(std::unique_ptr<DeviceMemory> mem, DeviceMemory::Create(4 * kMiB));
  SIM_ASSERT_OK_AND_ASSIGN(uint64_t a, mem->Allocate(1));
  EXPECT_EQ(mem->used_bytes(), kPage);
  SIM_ASSERT_OK_AND_ASSIGN(uint64_t b, mem->Allocate(kPage + 1));
  EXPECT_EQ(mem->used_bytes(), 3 * kPage);
  SIM_ASSERT_OK_AND_ASSIGN(uint64_t c, mem->Allocate(2 * kPage));
  EXPECT_EQ(mem->used_bytes(), 5 * kPage);

  SIM_ASSERT_OK_AND_ASSIGN(DeviceMemory::BlockRef block, mem->Find(b, 1));
  EXPECT_EQ(block->address(), b);
  EXPECT_EQ(block->size(), kPage + 1);
  EXPECT_EQ(block->reserved(), 2 * kPage);
  EXPECT_EQ(block->data(), reinterpret_cast<uint8_t*>(b));
  block.reset();

  SIM_ASSERT_OK(mem->Free(b));
  EXPECT_EQ(mem->used_bytes(), 3 * kPage);
  SIM_ASSERT_OK(mem->Free(a));
  EXPECT_EQ(mem->used_bytes(), 2 * kPage);
  SIM_ASSERT_OK(mem->Free(c));
  EXPECT_EQ(mem->used_bytes(), 0u);
  EXPECT_EQ(mem->allocation_count(), 0u);
}

TEST(DeviceMemoryTest, OutOfMemoryReturnsMemoryAllocationError) {
  SIM_ASSERT_OK_AND_ASSIGN(std::unique_ptr<DeviceMemory> mem, DeviceMemory::Create(1 * kMiB));
  EXPECT_EQ(CodeOf(mem->Allocate(0)), kRtParamInvalid);
  EXPECT_EQ(CodeOf(mem->Allocate(kMiB + 1)), kRtMemoryAllocation);
  EXPECT_EQ(CodeOf(mem->Allocate(~0ull)), kRtMemoryAllocation);

  SIM_ASSERT_OK_AND_ASSIGN(uint64_t half, mem->Allocate(kMiB / 2));
  // 512 KiB + 1 byte takes 513 KiB of pages: one page too many.
  EXPECT_EQ(CodeOf(mem->Allocate(kMiB / 2 + 1)), kRtMemoryAllocation);
  // A failed allocation changes nothing.
  EXPECT_EQ(mem->used_bytes(), kMiB / 2);
  EXPECT_EQ(mem->allocation_count(), 1u);

  SIM_ASSERT_OK_AND_ASSIGN(uint64_t rest, mem->Allocate(kMiB / 2));
  EXPECT_EQ(mem->used_bytes(), kMiB);
  EXPECT_EQ(CodeOf(mem->Allocate(1)), kRtMemoryAllocation);

  SIM_ASSERT_OK(mem->Free(half));
  SIM_ASSERT_OK_AND_ASSIGN(uint64_t again, mem->Allocate(1));
  EXPECT_EQ(mem->used_bytes(), kMiB / 2 + kPage);
  SIM_ASSERT_OK(mem->Free(again));
  SIM_ASSERT_OK(mem->Free(rest));
  EXPECT_EQ(mem->used_bytes(), 0u);
}

TEST(DeviceMemoryTest, FreeOfUnknownOrMiddleAddressAndDoubleFreeFail) {
  SIM_ASSERT_OK_AND_ASSIGN(std::unique_ptr<DeviceMemory> mem, DeviceMemory::Create(4 * kMiB));
  SIM_ASSERT_OK_AND_ASSIGN(uint64_t a, mem->Allocate(3 * kPage));

  EXPECT_EQ(CodeOf(mem->Free(0)), kRtParamInvalid);
  EXPECT_EQ(CodeOf(mem->Free(mem->base())), kRtParamInvalid);
  EXPECT_EQ(CodeOf(mem->Free(a + 1)), kRtParamInvalid);
  EXPECT_EQ(CodeOf(mem->Free(a + kPage)), kRtParamInvalid);
  EXPECT_EQ(CodeOf(mem->Free(a + 3 * kPage)), kRtParamInvalid);  // the guard page
  EXPECT_EQ(CodeOf(mem->Free(reinterpret_cast<uint64_t>(&a))), kRtParamInvalid);
  // None of the failures freed anything.
  EXPECT_EQ(mem->allocation_count(), 1u);
  EXPECT_EQ(mem->used_bytes(), 3 * kPage);

  SIM_EXPECT_OK(mem->Free(a));
  EXPECT_EQ(CodeOf(mem->Free(a)), kRtParamInvalid);
  EXPECT_EQ(mem->used_bytes(), 0u);
}

TEST(DeviceMemoryTest, FindAcceptsOnlyRangesInsideAnAllocation) {
  SIM_ASSERT_OK_AND_ASSIGN(std::unique_ptr<DeviceMemory> mem, DeviceMemory::Create(4 * kMiB));
  constexpr uint64_t kSize = 10000;  // 3 pages reserved, 2288 bytes of slack in the last
  SIM_ASSERT_OK_AND_ASSIGN(uint64_t a, mem->Allocate(kSize));
  SIM_ASSERT_OK_AND_ASSIGN(uint64_t b, mem->Allocate(kPage));

  // Inside.
  for (auto [address, size] : std::vector<std::pair<uint64_t, uint64_t>>{
           {a, kSize}, {a, 1}, {a + 100, kSize - 100}, {a + kSize - 1, 1}}) {
    SIM_ASSERT_OK_AND_ASSIGN(DeviceMemory::BlockRef block, mem->Find(address, size));
    EXPECT_EQ(block->address(), a) << std::hex << address << "+" << size;
  }
  SIM_ASSERT_OK_AND_ASSIGN(DeviceMemory::BlockRef block_b, mem->Find(b + kPage - 1, 1));
  EXPECT_EQ(block_b->address(), b);

  // Crossing the end of the allocation.
  EXPECT_EQ(CodeOf(mem->Find(a, kSize + 1)), kRtParamInvalid);
  EXPECT_EQ(CodeOf(mem->Find(a + kSize - 1, 2)), kRtParamInvalid);
  EXPECT_EQ(CodeOf(mem->Find(a + 1, ~0ull)), kRtParamInvalid);  // no wrap-around
  // Past the requested size, inside the page slack.
  EXPECT_EQ(CodeOf(mem->Find(a + kSize, 1)), kRtParamInvalid);
  // In the guard gaps: before the first allocation and after a page-rounded end.
  EXPECT_EQ(CodeOf(mem->Find(mem->base(), 1)), kRtParamInvalid);
  EXPECT_EQ(CodeOf(mem->Find(a - 1, 1)), kRtParamInvalid);
  EXPECT_EQ(CodeOf(mem->Find(a + RoundUpToPage(kSize), 1)), kRtParamInvalid);
  EXPECT_EQ(CodeOf(mem->Find(b + kPage, 1)), kRtParamInvalid);
  // Outside the reservation.
  EXPECT_EQ(CodeOf(mem->Find(0, 1)), kRtParamInvalid);
  EXPECT_EQ(CodeOf(mem->Find(mem->base() + mem->span(), 1)), kRtParamInvalid);

  // Freed memory.
  block_b.reset();
  SIM_ASSERT_OK(mem->Free(a));
  EXPECT_EQ(CodeOf(mem->Find(a, 1)), kRtParamInvalid);
  EXPECT_EQ(CodeOf(mem->Find(a + 100, 1)), kRtParamInvalid);
  SIM_ASSERT_OK_AND_ASSIGN(DeviceMemory::BlockRef still_b, mem->Find(b, kPage));
  EXPECT_EQ(still_b->address(), b);
}

TEST(DeviceMemoryTest, FreshAllocationIsZeroedAndWritable) {
  SIM_ASSERT_OK_AND_ASSIGN(std::unique_ptr<DeviceMemory> mem, DeviceMemory::Create(4 * kMiB));
  constexpr uint64_t kSize = 3 * kPage + 123;
  SIM_ASSERT_OK_AND_ASSIGN(uint64_t a, mem->Allocate(kSize));
  uint8_t* p = reinterpret_cast<uint8_t*>(a);
  EXPECT_TRUE(AllBytesAre(p, kSize, 0));
  for (uint64_t i = 0; i < kSize; ++i) p[i] = static_cast<uint8_t>(i * 7 + 3);
  for (uint64_t i = 0; i < kSize; ++i) {
    ASSERT_EQ(p[i], static_cast<uint8_t>(i * 7 + 3)) << "byte " << i;
  }
  SIM_ASSERT_OK(mem->Free(a));
}

TEST(DeviceMemoryTest, NextFitDoesNotHandOutAFreedAddressImmediately) {
  SIM_ASSERT_OK_AND_ASSIGN(std::unique_ptr<DeviceMemory> mem, DeviceMemory::Create(4 * kMiB));
  SIM_ASSERT_OK_AND_ASSIGN(uint64_t a, mem->Allocate(kPage));
  SIM_ASSERT_OK(mem->Free(a));
  SIM_ASSERT_OK_AND_ASSIGN(uint64_t b, mem->Allocate(kPage));
  EXPECT_NE(b, a);
  SIM_ASSERT_OK_AND_ASSIGN(uint64_t c, mem->Allocate(kPage));
  SIM_ASSERT_OK(mem->Free(b));
  SIM_ASSERT_OK_AND_ASSIGN(uint64_t d, mem->Allocate(kPage));
  EXPECT_NE(d, a);
  EXPECT_NE(d, b);
  EXPECT_GT(d, c);  // the cursor only moves forward until it wraps
}

TEST(DeviceMemoryTest, ReusedMemoryIsZeroFilledAfterTheCursorWraps) {
  // Each round takes the whole capacity; the cursor has to go round the span
  // before an address is handed out a second time.
  constexpr uint64_t kCapacity = 4 * kMiB;
  SIM_ASSERT_OK_AND_ASSIGN(std::unique_ptr<DeviceMemory> mem, DeviceMemory::Create(kCapacity));
  const uint64_t max_rounds = mem->span() / kCapacity + 2;
  std::set<uint64_t> seen;
  uint64_t previous = 0;
  bool reused = false;
  for (uint64_t round = 0; round < max_rounds && !reused; ++round) {
    SIM_ASSERT_OK_AND_ASSIGN(uint64_t a, mem->Allocate(kCapacity));
    reused = !seen.insert(a).second;
    if (!reused) {
      EXPECT_GT(a, previous) << "an address was reused before the cursor wrapped";
    }
    previous = a;
    uint8_t* p = reinterpret_cast<uint8_t*>(a);
    ASSERT_TRUE(AllBytesAre(p, kCapacity, 0)) << "round " << round << (reused ? " (reuse)" : "");
    std::memset(p, 0xCD, kCapacity);
    SIM_ASSERT_OK(mem->Free(a));
  }
  EXPECT_TRUE(reused) << "no address was reused within " << max_rounds << " rounds";
  EXPECT_EQ(mem->used_bytes(), 0u);
}

TEST(DeviceMemoryTest, PinnedBlockKeepsBytesAccountedUntilLastReferenceDrops) {
  SIM_ASSERT_OK_AND_ASSIGN(std::unique_ptr<DeviceMemory> mem, DeviceMemory::Create(4 * kMiB));
  SIM_ASSERT_OK_AND_ASSIGN(uint64_t a, mem->Allocate(10000));
  SIM_ASSERT_OK_AND_ASSIGN(DeviceMemory::BlockRef first, mem->Find(a, 1));
  SIM_ASSERT_OK_AND_ASSIGN(DeviceMemory::BlockRef second, mem->Find(a + 5000, 5000));

  SIM_ASSERT_OK(mem->Free(a));
  // Unfindable and not freeable again at once...
  EXPECT_EQ(mem->allocation_count(), 0u);
  EXPECT_EQ(CodeOf(mem->Find(a, 1)), kRtParamInvalid);
  EXPECT_EQ(CodeOf(mem->Free(a)), kRtParamInvalid);
  // ...but still accounted and still mapped for the holders.
  EXPECT_EQ(mem->used_bytes(), 3 * kPage);
  first->data()[0] = 0x11;
  second->data()[9999] = 0x22;
  EXPECT_EQ(reinterpret_cast<uint8_t*>(a)[9999], 0x22);

  first.reset();
  EXPECT_EQ(mem->used_bytes(), 3 * kPage);
  second.reset();
  EXPECT_EQ(mem->used_bytes(), 0u);
}

TEST(DeviceMemoryTest, ByteAfterPageRoundedEndIsInNoAllocation) {
  SIM_ASSERT_OK_AND_ASSIGN(std::unique_ptr<DeviceMemory> mem, DeviceMemory::Create(4 * kMiB));
  std::vector<std::pair<uint64_t, uint64_t>> allocations;
  for (uint64_t size : std::vector<uint64_t>{1, kPage, kPage + 1, 5 * kPage, 17}) {
    SIM_ASSERT_OK_AND_ASSIGN(uint64_t a, mem->Allocate(size));
    allocations.emplace_back(a, size);
  }
  // Free one in the middle so its neighbours' guards border freed space too.
  SIM_ASSERT_OK(mem->Free(allocations[2].first));
  allocations.erase(allocations.begin() + 2);
  SIM_ASSERT_OK_AND_ASSIGN(uint64_t late, mem->Allocate(kPage));
  allocations.emplace_back(late, kPage);

  for (auto [a, size] : allocations) {
    const uint64_t end = a + RoundUpToPage(size);
    EXPECT_TRUE(mem->InRange(end));
    EXPECT_EQ(CodeOf(mem->Find(end, 1)), kRtParamInvalid) << std::hex << end;
    for (auto [other, other_size] : allocations) {
      EXPECT_FALSE(end >= other && end < other + RoundUpToPage(other_size))
          << std::hex << "guard byte " << end << " lies in allocation " << other;
    }
  }
}

// Touching a guard page or freed memory faults (in a child process).
TEST(DeviceMemoryTest, GuardPageAndFreedMemoryFault) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  SIM_ASSERT_OK_AND_ASSIGN(std::unique_ptr<DeviceMemory> mem, DeviceMemory::Create(4 * kMiB));
  SIM_ASSERT_OK_AND_ASSIGN(uint64_t a, mem->Allocate(100));
  SIM_ASSERT_OK_AND_ASSIGN(uint64_t b, mem->Allocate(100));
  SIM_ASSERT_OK(mem->Free(b));
  auto no_core_dump = [] {
    rlimit none = {0, 0};
    setrlimit(RLIMIT_CORE, &none);
  };
  // Within the allocation's last page: fine.
  reinterpret_cast<volatile uint8_t*>(a)[kPage - 1] = 1;
  EXPECT_DEATH(
      {
        no_core_dump();
        reinterpret_cast<volatile uint8_t*>(a)[kPage] = 1;
      },
      "");
  EXPECT_DEATH(
      {
        no_core_dump();
        reinterpret_cast<volatile uint8_t*>(b)[0] = 1;
      },
      "");
}

TEST(DeviceMemoryTest, ConcurrentAllocationsStayDistinctAndAccountingReturnsToZero) {
  constexpr int kThreads = 8;
  constexpr int kRounds = 40;
  constexpr int kLivePerThread = 16;
  SIM_ASSERT_OK_AND_ASSIGN(std::unique_ptr<DeviceMemory> mem, DeviceMemory::Create(64 * kMiB));

  // Each thread fills its allocations with its own byte and checks them
  // before freeing: an overlap with another thread's allocation shows.
  std::vector<std::vector<std::pair<uint64_t, uint64_t>>> held(kThreads);
  std::vector<int> failures(kThreads, 0);
  absl::BlockingCounter all_holding(kThreads);
  absl::Notification checked;
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      std::mt19937 rng(t);
      const uint8_t mark = static_cast<uint8_t>(t + 1);
      auto churn = [&](std::vector<std::pair<uint64_t, uint64_t>>& live, int target) {
        while (static_cast<int>(live.size()) < target) {
          const uint64_t size = 1 + rng() % (3 * kPage);
          auto a = mem->Allocate(size);
          if (!a.ok()) {
            ++failures[t];
            return;
          }
          std::memset(reinterpret_cast<void*>(*a), mark, size);
          live.emplace_back(*a, size);
        }
      };
      auto release = [&](std::vector<std::pair<uint64_t, uint64_t>>& live, size_t keep) {
        while (live.size() > keep) {
          auto [a, size] = live.back();
          live.pop_back();
          if (!AllBytesAre(reinterpret_cast<uint8_t*>(a), size, mark)) ++failures[t];
          if (!mem->Free(a).ok()) ++failures[t];
        }
      };
      std::vector<std::pair<uint64_t, uint64_t>> live;
      for (int round = 0; round < kRounds; ++round) {
        churn(live, kLivePerThread);
        std::shuffle(live.begin(), live.end(), rng);
        release(live, kLivePerThread / 2);
      }
      churn(live, kLivePerThread);
      held[t] = live;
      all_holding.DecrementCount();
      checked.WaitForNotification();
      release(live, 0);
    });
  }
  all_holding.Wait();
  // Every thread holds kLivePerThread allocations now: all disjoint.
  std::vector<std::pair<uint64_t, uint64_t>> all;
  for (const auto& h : held) all.insert(all.end(), h.begin(), h.end());
  std::sort(all.begin(), all.end());
  EXPECT_EQ(all.size(), static_cast<size_t>(kThreads * kLivePerThread));
  EXPECT_EQ(mem->allocation_count(), all.size());
  uint64_t expected_used = 0;
  for (size_t i = 0; i < all.size(); ++i) {
    expected_used += RoundUpToPage(all[i].second);
    if (i > 0) {
      EXPECT_GE(all[i].first, all[i - 1].first + RoundUpToPage(all[i - 1].second) + kPage)
          << "allocations overlap or share a guard";
    }
  }
  EXPECT_EQ(mem->used_bytes(), expected_used);
  checked.Notify();
  for (auto& thread : threads) thread.join();
  for (int t = 0; t < kThreads; ++t) EXPECT_EQ(failures[t], 0) << "thread " << t;
  EXPECT_EQ(mem->used_bytes(), 0u);
  EXPECT_EQ(mem->allocation_count(), 0u);
}

TEST(DeviceMemoryTest, PreferredBaseIsUsedWhenFreeAndFallsBackWhenTaken) {
  constexpr uint64_t kCapacity = 4 * kMiB;
  SIM_ASSERT_OK_AND_ASSIGN(std::unique_ptr<DeviceMemory> first,
                           DeviceMemory::Create(kCapacity, kPreferredBase));
  EXPECT_EQ(first->base(), kPreferredBase);
  SIM_ASSERT_OK_AND_ASSIGN(uint64_t a, first->Allocate(kPage));
  EXPECT_TRUE(first->InRange(a));
  EXPECT_GT(a, kPreferredBase);

  // The range is taken: a second reservation must go elsewhere, not on top.
  SIM_ASSERT_OK_AND_ASSIGN(std::unique_ptr<DeviceMemory> second,
                           DeviceMemory::Create(kCapacity, kPreferredBase));
  EXPECT_NE(second->base(), kPreferredBase);
  EXPECT_TRUE(second->base() + second->span() <= first->base() ||
              second->base() >= first->base() + first->span())
      << "reservations overlap";
  SIM_ASSERT_OK_AND_ASSIGN(uint64_t b, second->Allocate(kPage));
  EXPECT_TRUE(second->InRange(b));
  EXPECT_FALSE(first->InRange(b));
  reinterpret_cast<uint8_t*>(b)[0] = 0x5A;
  EXPECT_EQ(reinterpret_cast<uint8_t*>(a)[0], 0);  // first's memory is intact

  // An unusable hint (not page aligned) also falls back.
  SIM_ASSERT_OK_AND_ASSIGN(std::unique_ptr<DeviceMemory> third,
                           DeviceMemory::Create(kCapacity, kPreferredBase + 0x10000000000ull + 1));
  EXPECT_EQ(third->base() % kPage, 0u);
  EXPECT_NE(third->base(), kPreferredBase + 0x10000000000ull + 1);

  // Destroying the memory gives the range back: it can be placed there again.
  first.reset();
  SIM_ASSERT_OK_AND_ASSIGN(std::unique_ptr<DeviceMemory> again,
                           DeviceMemory::Create(kCapacity, kPreferredBase));
  EXPECT_EQ(again->base(), kPreferredBase);
}

TEST(DeviceMemoryTest, DestroyingWithLiveAllocationsUnmapsEverything) {
  constexpr uint64_t kBase = kPreferredBase + 0x20000000000ull;
  {
    SIM_ASSERT_OK_AND_ASSIGN(std::unique_ptr<DeviceMemory> mem,
                             DeviceMemory::Create(4 * kMiB, kBase));
    ASSERT_EQ(mem->base(), kBase);
    for (int i = 0; i < 10; ++i) {
      SIM_ASSERT_OK_AND_ASSIGN(uint64_t a, mem->Allocate(kPage * (i + 1)));
      reinterpret_cast<uint8_t*>(a)[0] = 1;
    }
  }
  // Nothing of the reservation is left mapped: the same range can be taken
  // again with MAP_FIXED_NOREPLACE.
  const uint64_t span = DeviceMemory::SpanFor(4 * kMiB);
  void* p = mmap(reinterpret_cast<void*>(kBase), span, PROT_NONE,
                 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED_NOREPLACE, -1, 0);
  ASSERT_NE(p, MAP_FAILED) << std::strerror(errno);
  EXPECT_EQ(p, reinterpret_cast<void*>(kBase));
  munmap(p, span);
}

}  // namespace
}  // namespace npud::sim

namespace npud::sim {
namespace {

// Two devices of 64 MiB each share a host budget of 40 MiB: allocations and
// charges of both take from it, a refusal takes nothing, and what is freed
// returns.
TEST(DeviceMemoryTest, DevicesShareTheHostMemoryBudget) {
  HostMemoryBudget budget(40 * kMiB);
  auto a = DeviceMemory::Create(64 * kMiB, 0, &budget);
  auto b = DeviceMemory::Create(64 * kMiB, 0, &budget);
  ASSERT_TRUE(a.ok() && b.ok());
  auto first = (*a)->Allocate(24 * kMiB);
  ASSERT_TRUE(first.ok()) << first.status();
  EXPECT_EQ(budget.used(), 24 * kMiB);
  auto refused = (*b)->Allocate(24 * kMiB);
  EXPECT_EQ(CodeOf(refused), kRtMemoryAllocation);
  EXPECT_NE(refused.status().message().find("host memory limit"), absl::string_view::npos)
      << refused.status();
  EXPECT_EQ(budget.used(), 24 * kMiB);
  EXPECT_EQ(CodeOf((*b)->Charge(24 * kMiB)), kRtMemoryAllocation);
  ASSERT_TRUE((*b)->Charge(16 * kMiB).ok());
  EXPECT_EQ(budget.used(), 40 * kMiB);
  ASSERT_TRUE((*a)->Free(*first).ok());
  EXPECT_EQ(budget.used(), 16 * kMiB);
  EXPECT_TRUE((*b)->Allocate(24 * kMiB).ok());
  (*b)->Uncharge(16 * kMiB);
  EXPECT_EQ(budget.used(), 24 * kMiB);
}

}  // namespace
}  // namespace npud::sim

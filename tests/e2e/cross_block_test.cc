// Kernels whose blocks wait for each other, end to end (sync_kernels.cc in a
// real npud): SyncAll, IBSet/IBWait, WaitPreBlock, cross-core flags, atomics
// under concurrency, and launches that deadlock and must fail instead of hang.

#include <cstdint>
#include <vector>

#include "acl/acl.h"
#include "gtest/gtest.h"
#include "tests/e2e/daemon_environment.h"
#include "tests/e2e/kernel_test.h"

namespace {

const auto* const kEnvironment =
    ::testing::AddGlobalTestEnvironment(new npud::testing::DaemonEnvironment);

using npud::testing::KernelTest;

// Kernels whose blocks wait for each other (sync_kernels.cc): every block of a
// launch is alive at once, also with more blocks than cores.
class CrossBlockTest : public KernelTest {
 protected:
  void SetUp() override {
    KernelTest::SetUp();
    ASSERT_EQ(aclrtBinaryLoadFromFile(SYNC_KERNELS_PATH, nullptr, &sync_), ACL_SUCCESS);
  }
  void TearDown() override {
    if (sync_ != nullptr) {
      EXPECT_EQ(aclrtBinaryUnLoad(sync_), ACL_SUCCESS);
    }
    KernelTest::TearDown();
  }
  aclError Launch(const char* name, uint32_t blocks, std::vector<void*> args) {
    aclrtFuncHandle function = nullptr;
    EXPECT_EQ(aclrtBinaryGetFunction(sync_, name, &function), ACL_SUCCESS) << name;
    const aclError launched = aclrtLaunchKernelWithHostArgs(
        function, blocks, stream_, nullptr, args.data(), args.size() * sizeof(void*), nullptr, 0);
    if (launched != ACL_SUCCESS) return launched;
    return aclrtSynchronizeStream(stream_);
  }
  template <typename T>
  T* Zeroed(size_t count) {
    T* p = Malloc<T>(count);
    EXPECT_EQ(aclrtMemset(p, count * sizeof(T), 0, count * sizeof(T)), ACL_SUCCESS);
    return p;
  }
  // The sums sync_all_sum and sync_all_soft leave: round r's is
  // (r + 1) * n (n + 1) / 2 in every block's slot.
  void ExpectSums(const int32_t* sums, uint32_t n) {
    const std::vector<int32_t> got = Read(sums, 3 * n);
    for (uint32_t r = 0; r < 3; ++r) {
      for (uint32_t b = 0; b < n; ++b) {
        ASSERT_EQ(got[r * n + b], static_cast<int32_t>((r + 1) * n * (n + 1) / 2))
            << "round " << r << " block " << b << " of " << n;
      }
    }
  }

  aclrtBinHandle sync_ = nullptr;
};

TEST_F(CrossBlockTest, SyncAllOrdersEveryBlocksRounds) {
  for (uint32_t n : {1u, 48u, 300u}) {
    int32_t* values = Zeroed<int32_t>(3 * n);
    int32_t* sums = Zeroed<int32_t>(3 * n);
    ASSERT_EQ(Launch("sync_all_sum", n, {values, sums}), ACL_SUCCESS) << n;
    ExpectSums(sums, n);
  }
}

TEST_F(CrossBlockTest, SoftwareSyncAllOverAWorkspace) {
  const uint32_t n = 48;
  int32_t* values = Zeroed<int32_t>(3 * n);
  int32_t* sums = Zeroed<int32_t>(3 * n);
  int32_t* workspace = Zeroed<int32_t>(8 * n);
  ASSERT_EQ(Launch("sync_all_soft", n, {values, sums, workspace}), ACL_SUCCESS);
  ExpectSums(sums, n);
}

TEST_F(CrossBlockTest, IBWaitWaitsForTheBlockItNames) {
  const uint32_t n = 64;
  int32_t* values = Zeroed<int32_t>(n);
  int32_t* workspace = Zeroed<int32_t>(8 * n);
  ASSERT_EQ(Launch("ib_chain", n, {values, workspace}), ACL_SUCCESS)
      << (npud::testing::DaemonEnvironment::daemon() != nullptr
              ? npud::testing::DaemonEnvironment::daemon()->Log()
              : "");
  const std::vector<int32_t> got = Read(values, n);
  for (uint32_t b = 0; b < n; ++b) {
    ASSERT_EQ(got[b], static_cast<int32_t>(n - b)) << b;
  }
}

TEST_F(CrossBlockTest, WaitPreBlockRunsBlocksInOrder) {
  const uint32_t n = 24;
  int32_t* log = Zeroed<int32_t>(1 + n);
  int32_t* workspace = Zeroed<int32_t>(8 * n);
  ASSERT_EQ(Launch("ordered_log", n, {log, workspace}), ACL_SUCCESS);
  const std::vector<int32_t> got = Read(log, 1 + n);
  ASSERT_EQ(got[0], static_cast<int32_t>(n));
  for (uint32_t b = 0; b < n; ++b) {
    EXPECT_EQ(got[1 + b], static_cast<int32_t>(b));
  }
}

// In a mix kernel a core's wait for other blocks passes through its group:
// SyncAll<false> meets every core of 24 groups, three rounds.
TEST_F(CrossBlockTest, MixKernelsSyncAllOfTheirCores) {
  const uint32_t groups = 24, n = 3 * groups;
  int32_t* values = Zeroed<int32_t>(3 * n);
  int32_t* sums = Zeroed<int32_t>(3 * n);
  ASSERT_EQ(Launch("mix_sync_all_sum", groups, {values, sums}), ACL_SUCCESS);
  ExpectSums(sums, n);
}

// CrossCoreSetFlag mode 0: all vector blocks set the flag before any wait
// passes.
TEST_F(CrossBlockTest, ModeZeroFlagsMeetEveryBlockOfTheKind) {
  const uint32_t n = 40;
  int32_t* values = Zeroed<int32_t>(3 * n);
  int32_t* sums = Zeroed<int32_t>(3 * n);
  ASSERT_EQ(Launch("flag_mode0_sum", n, {values, sums}), ACL_SUCCESS);
  ExpectSums(sums, n);
}

// Mode 1 between a group's vector cores, then mode 2 to its cube core.
TEST_F(CrossBlockTest, ModeOneFlagsMeetAGroupsVectorCores) {
  const uint32_t groups = 6;
  int32_t* out = Zeroed<int32_t>(4 * groups);
  ASSERT_EQ(Launch("flag_mode1_pairs", groups, {out}), ACL_SUCCESS);
  const std::vector<int32_t> got = Read(out, 4 * groups);
  for (uint32_t b = 0; b < groups; ++b) {
    const int32_t pair = static_cast<int32_t>(2 * 10 * (b + 1) + 1);
    EXPECT_EQ(got[b * 4 + 2], pair) << b;
    EXPECT_EQ(got[b * 4 + 3], pair) << b;
    EXPECT_EQ(got[b * 4 + 0], 2 * pair) << b;
  }
}

// aclrtGetHardwareSyncAddr gives the address kernels pass to SetSyncBaseAddr:
// one per device, never memory; the kernel's flags then work.
TEST_F(CrossBlockTest, KernelsTakeTheHardwareSyncAddress) {
  EXPECT_EQ(aclrtGetHardwareSyncAddr(nullptr), ACL_ERROR_INVALID_PARAM);
  void* ffts = nullptr;
  ASSERT_EQ(aclrtGetHardwareSyncAddr(&ffts), ACL_SUCCESS);
  ASSERT_NE(ffts, nullptr);
  aclrtPtrAttributes attributes{};
  EXPECT_NE(aclrtPointerGetAttributes(ffts, &attributes) == ACL_SUCCESS &&
                attributes.location.type == ACL_MEM_LOCATION_TYPE_DEVICE,
            true);
  const uint32_t groups = 5;
  int32_t* out = Zeroed<int32_t>(3 * groups);
  ASSERT_EQ(Launch("flags_after_sync_base", groups, {ffts, out}), ACL_SUCCESS);
  const std::vector<int32_t> got = Read(out, 3 * groups);
  for (uint32_t b = 0; b < groups; ++b) EXPECT_EQ(got[2 * groups + b], 3) << b;
}

// Atomic copies to GM from blocks that run at once lose nothing.
TEST_F(CrossBlockTest, AtomicCopiesFromConcurrentBlocksCombine) {
  const uint32_t n = 48;
  int32_t* sums = Zeroed<int32_t>(8);
  int32_t* maxima = Zeroed<int32_t>(8);
  ASSERT_EQ(Launch("atomic_contention", n, {sums, maxima}), ACL_SUCCESS);
  for (int32_t sum : Read(sums, 8)) EXPECT_EQ(sum, static_cast<int32_t>(500 * n));
  for (int32_t max : Read(maxima, 8)) EXPECT_EQ(max, static_cast<int32_t>(n - 1));
}

// GroupBarrier: the waiters see every arriver's value of the round.
TEST_F(CrossBlockTest, GroupBarrierWaitersSeeEveryArrival) {
  const uint32_t arrivers = 4, waiters = 6;
  int32_t* values = Zeroed<int32_t>(arrivers);
  int32_t* seen = Zeroed<int32_t>(2 * waiters * arrivers);
  int32_t* workspace = Zeroed<int32_t>(waiters * 512 / 4);
  ASSERT_EQ(Launch("group_barrier_rounds", arrivers + waiters, {values, seen, workspace}),
            ACL_SUCCESS);
  const std::vector<int32_t> got = Read(seen, 2 * waiters * arrivers);
  for (uint32_t r = 0; r < 2; ++r) {
    for (uint32_t w = 0; w < waiters; ++w) {
      for (uint32_t a = 0; a < arrivers; ++a) {
        EXPECT_EQ(got[(r * waiters + w) * arrivers + a], static_cast<int32_t>((r + 1) * 100 + a))
            << "round " << r + 1 << " waiter " << w << " arriver " << a;
      }
    }
  }
}

TEST_F(CrossBlockTest, ADeadlockAcrossMixGroupsFailsTheLaunch) {
  EXPECT_EQ(Launch("mix_sync_all_deadlock", 4, {}), ACL_ERROR_RT_AICORE_EXCEPTION);
  if (npud::testing::DaemonEnvironment::daemon() != nullptr) {
    const std::string log = npud::testing::DaemonEnvironment::daemon()->Log();
    EXPECT_NE(log.find("SyncAll waits for blocks that can never come"), std::string::npos) << log;
  }
}

// A barrier that one block skips can never be passed: the launch fails with
// the kernel exception instead of hanging, and says where.
TEST_F(CrossBlockTest, ADeadlockFailsTheLaunch) {
  EXPECT_EQ(Launch("sync_all_deadlock", 8, {}), ACL_ERROR_RT_VECTOR_CORE_EXCEPTION);
  if (npud::testing::DaemonEnvironment::daemon() != nullptr) {
    const std::string log = npud::testing::DaemonEnvironment::daemon()->Log();
    EXPECT_NE(log.find("SyncAll waits for blocks that can never come"), std::string::npos) << log;
    EXPECT_NE(log.find("kernel 'sync_all_deadlock'"), std::string::npos) << log;
  }
  // The stream goes on working.
  int32_t* values = Zeroed<int32_t>(3 * 4);
  int32_t* sums = Zeroed<int32_t>(3 * 4);
  ASSERT_EQ(Launch("sync_all_sum", 4, {values, sums}), ACL_SUCCESS);
  ExpectSums(sums, 4);
}

}  // namespace

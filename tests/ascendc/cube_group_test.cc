// Cube group management (npud_ascendc/cube_group.h): messages from the vector cores
// of several blocks to the cube cores of others, in the reference's table layout
// and reading order, merged (FAKE) messages and SetSkipMsg, the workspace a group
// takes from its KfcWorkspace, and a group that never ends failing instead of hanging.
#include <cstdint>
#include <cstring>
#include <vector>

#include <gtest/gtest.h>

#include "tests/ascendc/kernel_harness.h"

namespace npud::ascendc_test {
namespace {

template <class... A>
std::vector<BlockOutcome> LaunchGroup(const char* name, uint32_t blocks, A... args) {
  auto lib = LoadOrFail(ASCENDC_TEST_KERNELS_CUBE_GROUP);
  if (lib == nullptr) return {};
  const NpudKernelInfo* kernel = FindOrFail(*lib, name);
  if (kernel == nullptr) return {};
  std::vector<uint8_t> packed = PackBytes(npud::kernel::ArgLayout<A...>::Size());
  npud::kernel::Pack(packed.data(), args...);
  LaunchOptions options;
  options.core_type = NPUD_CORE_TYPE_MIX;
  options.waits = true;
  return RunBlocks(*kernel, blocks, packed.data(), packed.size(), options);
}

// {bias, log address} as the kernels' Init reads it.
std::vector<uint32_t> Tiling(int32_t bias, const int32_t* log) {
  const uint64_t at = reinterpret_cast<uint64_t>(log);
  return {static_cast<uint32_t>(bias), static_cast<uint32_t>(at), static_cast<uint32_t>(at >> 32)};
}

// A message as the kernels lay it out: state, aivID, funcId, skipCnt, value, queue.
struct Msg {
  uint8_t state, aiv_id, func_id, skip_cnt;
  uint32_t value, queue;
  uint32_t pad[13];
};
static_assert(sizeof(Msg) == 64);

TEST(CubeGroupTest, CubeCoresServeTheirQueuesRowByRow) {
  const uint32_t count = 6;  // more than a queue's 4 messages: the queues wrap
  std::vector<uint8_t> workspace(4096, 0);
  std::vector<int32_t> log(2 * 64, 0);
  std::vector<uint32_t> tiling = Tiling(7, log.data());
  std::vector<int64_t> ends(10, -7);
  auto outcomes =
      LaunchGroup("cube_group_serve", 2, workspace.data(), tiling.data(), ends.data(), count);
  ASSERT_EQ(outcomes.size(), 2u);
  for (const BlockOutcome& o : outcomes) EXPECT_FALSE(o.trapped) << o.trap_message;
  for (const BlockOutcome& o : outcomes) ASSERT_FALSE(o.trapped);
  // Cube core a serves queues 2a and 2a + 1 (2 per cube core), a row at a time: the
  // first message of each queue, then the second... (values q * 100 + i, plus 7).
  for (uint32_t a = 0; a < 2; ++a) {
    const int32_t* mine = &log[a * 64];
    ASSERT_EQ(mine[0], static_cast<int32_t>(2 * count)) << "cube core " << a;
    for (uint32_t i = 0; i < count; ++i) {
      for (uint32_t c = 0; c < 2; ++c) {
        EXPECT_EQ(mine[1 + 2 * i + c], static_cast<int32_t>((2 * a + c) * 100 + i + 7))
            << "cube core " << a << " row " << i << " queue " << 2 * a + c;
      }
    }
  }
  // The table starts 256 bytes in: cube core a's 2 x 4 messages, queue q in column
  // q % 2. Message i of a queue is in row i % 4; the last pass left messages 4 and 5
  // in rows 0 and 1, the quit in row 2 (its state stays QUIT), message 3 in row 3.
  const Msg* table = reinterpret_cast<const Msg*>(workspace.data() + 256);
  for (uint32_t q = 0; q < 4; ++q) {
    const Msg* column = table + (q / 2) * 8 + q % 2;
    // Rows are 2 messages (one per queue of the cube core) apart.
    EXPECT_EQ(column[0 * 2].value, q * 100 + 4);
    EXPECT_EQ(column[1 * 2].value, q * 100 + 5);
    EXPECT_EQ(column[2 * 2].state, 2) << "queue " << q << " quit";  // CubeMsgState::QUIT
    EXPECT_EQ(column[2 * 2].aiv_id, q % 2);
    EXPECT_EQ(column[3 * 2].value, q * 100 + 3);
    EXPECT_EQ(column[3 * 2].state, 0);
  }
  // The group took 2 cube cores x 2 queues x 4 messages x 64 bytes after the 256.
  for (uint32_t core = 0; core < 6; ++core) EXPECT_EQ(ends[core], 256 + 16 * 64) << core;
  // -1: Wait<false> said no after Wait; -2: an MTE3 message was not staged in the UB.
  for (uint32_t q = 0; q < 4; ++q) EXPECT_EQ(ends[6 + q], -7) << "queue " << q;
}

TEST(CubeGroupTest, MergedMessagesAreServedOnceAndFakesFreed) {
  std::vector<uint8_t> workspace(4096, 0);
  std::vector<int32_t> log(2 * 64, 0);
  std::vector<uint32_t> tiling = Tiling(0, log.data());
  std::vector<int32_t> done(4, 0);
  auto outcomes = LaunchGroup("cube_group_merge", 2, workspace.data(), tiling.data(), done.data());
  ASSERT_EQ(outcomes.size(), 2u);
  for (const BlockOutcome& o : outcomes) EXPECT_FALSE(o.trapped) << o.trap_message;
  for (const BlockOutcome& o : outcomes) ASSERT_FALSE(o.trapped);
  // Round 1 served queue 0's merged message and queue 3's; round 2 every queue's.
  EXPECT_EQ(std::vector<int32_t>(log.begin(), log.begin() + 7),
            (std::vector<int32_t>{6, 1000, 1003, 2000, 2001, 2002, 2003}));
  EXPECT_EQ(log[64], 0) << "the cube core outside the group serves nothing";
  EXPECT_EQ(done, (std::vector<int32_t>{2, 2, 2, 2}));
}

TEST(CubeGroupTest, AQueueThatNeverQuitsFailsTheLaunch) {
  std::vector<uint8_t> workspace(4096, 0);
  std::vector<int32_t> log(64, 0);
  std::vector<uint32_t> tiling = Tiling(0, log.data());
  auto outcomes = LaunchGroup("cube_group_no_quit", 1, workspace.data(), tiling.data());
  ASSERT_EQ(outcomes.size(), 1u);
  EXPECT_TRUE(outcomes[0].trapped);
  EXPECT_NE(outcomes[0].trap_message.find("CubeResGroupHandle"), std::string::npos)
      << outcomes[0].trap_message;
}

}  // namespace
}  // namespace npud::ascendc_test

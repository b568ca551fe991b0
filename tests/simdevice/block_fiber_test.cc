#include "simdevice/block_fiber.h"

#include <cfenv>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "gtest/gtest.h"

namespace npud::sim {
namespace {

std::unique_ptr<BlockFiber> NewFiber() {
  auto fiber = BlockFiber::Create(256 << 10, 4096);
  EXPECT_TRUE(fiber.ok()) << fiber.status();
  return fiber.ok() ? *std::move(fiber) : nullptr;
}

TEST(BlockFiberTest, RunsToTheEndWithoutSuspending) {
  auto fiber = NewFiber();
  ASSERT_NE(fiber, nullptr);
  int ran = 0;
  fiber->Start([&] { ++ran; });
  EXPECT_TRUE(fiber->Resume());
  EXPECT_EQ(ran, 1);
}

// Two fibers suspended in the middle keep their own stacks and registers,
// whatever order they are resumed in.
TEST(BlockFiberTest, SuspendedFibersKeepTheirStateAcrossOthers) {
  auto a = NewFiber();
  auto b = NewFiber();
  ASSERT_NE(a, nullptr);
  ASSERT_NE(b, nullptr);
  std::vector<std::string> log;
  auto body = [&log](BlockFiber* self, const char* name) {
    char local[64];
    std::snprintf(local, sizeof(local), "%s-stack", name);
    for (int step = 0; step < 3; ++step) {
      log.push_back(std::string(local) + std::to_string(step));
      self->Suspend();
    }
  };
  a->Start([&] { body(a.get(), "a"); });
  b->Start([&] { body(b.get(), "b"); });
  EXPECT_FALSE(a->Resume());
  EXPECT_FALSE(b->Resume());
  EXPECT_FALSE(b->Resume());
  EXPECT_FALSE(a->Resume());
  EXPECT_FALSE(a->Resume());
  EXPECT_FALSE(b->Resume());
  EXPECT_TRUE(a->Resume());
  EXPECT_TRUE(b->Resume());
  EXPECT_EQ(log, (std::vector<std::string>{"a-stack0", "b-stack0", "b-stack1", "a-stack1",
                                           "a-stack2", "b-stack2"}));
}

// A finished fiber starts again from the top (the executor reuses them).
TEST(BlockFiberTest, AFinishedFiberCanBeStartedAgain) {
  auto fiber = NewFiber();
  ASSERT_NE(fiber, nullptr);
  for (int round = 0; round < 3; ++round) {
    int steps = 0;
    fiber->Start([&] {
      ++steps;
      fiber->Suspend();
      ++steps;
    });
    EXPECT_FALSE(fiber->Resume());
    EXPECT_TRUE(fiber->Resume());
    EXPECT_EQ(steps, 2);
  }
}

// Exceptions thrown and caught inside a fiber stay inside it; its unified
// buffer is its own and aligned.
TEST(BlockFiberTest, ExceptionsAndBuffersStayWithTheFiber) {
  auto fiber = NewFiber();
  ASSERT_NE(fiber, nullptr);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(fiber->ub()) % 64, 0u);
  std::string caught;
  fiber->Start([&] {
    std::memset(fiber->ub(), 0x5a, fiber->ub_bytes());
    try {
      fiber->Suspend();
      throw std::runtime_error("from the fiber");
    } catch (const std::exception& e) {
      caught = e.what();
    }
  });
  EXPECT_FALSE(fiber->Resume());
  EXPECT_TRUE(fiber->Resume());
  EXPECT_EQ(caught, "from the fiber");
  EXPECT_EQ(fiber->ub()[fiber->ub_bytes() - 1], 0x5a);
}

// The floating-point control state is the fiber's: a rounding mode set
// inside does not leak to the thread that resumed it.
TEST(BlockFiberTest, RoundingModesStayWithTheFiber) {
  auto fiber = NewFiber();
  ASSERT_NE(fiber, nullptr);
  int inside = -1;
  fiber->Start([&] {
    std::fesetround(FE_UPWARD);
    fiber->Suspend();
    inside = std::fegetround();
  });
  EXPECT_FALSE(fiber->Resume());
  EXPECT_EQ(std::fegetround(), FE_TONEAREST);
  EXPECT_TRUE(fiber->Resume());
  EXPECT_EQ(inside, FE_UPWARD);
  std::fesetround(FE_TONEAREST);
}

}  // namespace
}  // namespace npud::sim

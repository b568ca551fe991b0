// CursorLog: readers that overlap each get what was added while they read,
// and nothing is kept once no reader needs it.

#include "client/core/cursor_log.h"

#include <vector>

#include "gtest/gtest.h"

namespace npud::client {
namespace {

TEST(CursorLogTest, OverlappingReadersGetTheirOwnSpans) {
  CursorLog<int> log;
  log.Add(0);  // nobody records
  EXPECT_FALSE(log.recording());
  const uint64_t first = log.Start();
  log.Add(1);
  const uint64_t second = log.Start();
  log.Add(2);
  uint64_t dropped = 99;
  EXPECT_EQ(log.Stop(first, &dropped), (std::vector<int>{1, 2}));
  EXPECT_EQ(dropped, 0u);
  log.Add(3);
  EXPECT_EQ(log.Stop(second, &dropped), (std::vector<int>{2, 3}));
  EXPECT_FALSE(log.recording());
  log.Add(4);
  const uint64_t third = log.Start();
  log.Add(5);
  EXPECT_EQ(log.Stop(third, &dropped), (std::vector<int>{5}));
  EXPECT_TRUE(log.Stop(third, &dropped).empty()) << "a cursor ends once";
}

}  // namespace
}  // namespace npud::client

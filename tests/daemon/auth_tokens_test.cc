#include "daemon/auth_tokens.h"

#include "gtest/gtest.h"

namespace npud::daemon {
namespace {

TEST(AuthTokensTest, TokensCarryTheirOwnLimits) {
  auto tokens = ParseAuthTokens(
      "# teams\n"
      "team-a memory_mib=64 streams=2 events=3 kernel_threads=4\n"
      "\n"
      "  team-b  \n");
  ASSERT_TRUE(tokens.ok()) << tokens.status();
  ASSERT_EQ(tokens->size(), 2u);
  const AuthToken* a = FindAuthToken(*tokens, "team-a");
  ASSERT_NE(a, nullptr);
  EXPECT_EQ(a->memory_bytes, uint64_t{64} << 20);
  EXPECT_EQ(a->streams, 2u);
  EXPECT_EQ(a->events, 3u);
  EXPECT_EQ(a->kernel_threads, 4);
  const AuthToken* b = FindAuthToken(*tokens, "team-b");
  ASSERT_NE(b, nullptr);
  EXPECT_FALSE(b->memory_bytes.has_value());
  EXPECT_EQ(FindAuthToken(*tokens, "team-c"), nullptr);
  EXPECT_EQ(FindAuthToken(*tokens, ""), nullptr);
}

TEST(AuthTokensTest, BadFilesAreRefusedWithTheLine) {
  EXPECT_FALSE(ParseAuthTokens("# nothing\n\n").ok());
  auto unknown = ParseAuthTokens("t1\nt2 gpus=3\n");
  ASSERT_FALSE(unknown.ok());
  EXPECT_NE(unknown.status().message().find("line 2"), absl::string_view::npos);
  EXPECT_FALSE(ParseAuthTokens("t1 memory_mib=lots\n").ok());
}

}  // namespace
}  // namespace npud::daemon

// libc_sec.so: each function's success and each documented failure, with
// what it leaves in the destination.

#include "securec.h"

#include <cstring>
#include <string>

#include "gtest/gtest.h"

namespace {

TEST(SecurecTest, MemsetFillsOrClampsToTheDestination) {
  char buf[8];
  std::memset(buf, 'x', sizeof(buf));
  EXPECT_EQ(memset_s(buf, sizeof(buf), 0, 4), EOK);
  EXPECT_EQ(std::string(buf, 5), std::string("\0\0\0\0x", 5));
  EXPECT_EQ(memset_s(buf, sizeof(buf), 'a', 9), ERANGE_AND_RESET);
  EXPECT_EQ(std::string(buf, 8), "aaaaaaaa");
  EXPECT_EQ(memset_s(nullptr, 8, 0, 1), EINVAL);
  EXPECT_EQ(memset_s(buf, 0, 0, 0), ERANGE);
}

TEST(SecurecTest, MemcpyRefusesOverflowNullAndOverlap) {
  char dst[4] = {'q', 'q', 'q', 'q'};
  EXPECT_EQ(memcpy_s(dst, sizeof(dst), "abcd", 4), EOK);
  EXPECT_EQ(std::string(dst, 4), "abcd");
  EXPECT_EQ(memcpy_s(dst, sizeof(dst), "abcde", 5), ERANGE_AND_RESET);
  EXPECT_EQ(std::string(dst, 4), std::string(4, '\0'));
  EXPECT_EQ(memcpy_s(dst, sizeof(dst), nullptr, 1), EINVAL_AND_RESET);
  char both[8] = "abcdefg";
  EXPECT_EQ(memcpy_s(both + 1, 7, both, 4), EOVERLAP_AND_RESET);
  char moved[8] = "abcdefg";
  EXPECT_EQ(memmove_s(moved + 1, 7, moved, 4), EOK);
  EXPECT_EQ(std::string(moved), "aabcdfg");
}

TEST(SecurecTest, StringCopiesTerminateOrClear) {
  char dst[6];
  EXPECT_EQ(strcpy_s(dst, sizeof(dst), "hello"), EOK);
  EXPECT_STREQ(dst, "hello");
  EXPECT_EQ(strcpy_s(dst, sizeof(dst), "hello!"), ERANGE_AND_RESET);
  EXPECT_STREQ(dst, "");
  EXPECT_EQ(strncpy_s(dst, sizeof(dst), "abcdefgh", 3), EOK);
  EXPECT_STREQ(dst, "abc");
  EXPECT_EQ(strcat_s(dst, sizeof(dst), "de"), EOK);
  EXPECT_STREQ(dst, "abcde");
  EXPECT_EQ(strcat_s(dst, sizeof(dst), "f"), ERANGE_AND_RESET);
  EXPECT_STREQ(dst, "");
  EXPECT_EQ(strncat_s(dst, sizeof(dst), "xyz", 2), EOK);
  EXPECT_STREQ(dst, "xy");
  EXPECT_EQ(strcpy_s(dst, sizeof(dst), nullptr), EINVAL_AND_RESET);
  EXPECT_EQ(strcpy_s(nullptr, 4, "a"), EINVAL);
}

TEST(SecurecTest, PrintfFormsReportLengthOrFailure) {
  char dst[8];
  EXPECT_EQ(sprintf_s(dst, sizeof(dst), "%d-%s", 42, "ab"), 5);
  EXPECT_STREQ(dst, "42-ab");
  EXPECT_EQ(sprintf_s(dst, sizeof(dst), "%s", "too long!"), -1);
  EXPECT_STREQ(dst, "");
  // A count below the destination's size truncates on purpose.
  EXPECT_EQ(snprintf_s(dst, sizeof(dst), 3, "%s", "abcdef"), -1);
  EXPECT_STREQ(dst, "abc");
  EXPECT_EQ(snprintf_s(dst, sizeof(dst), 7, "%s", "abc"), 3);
  EXPECT_STREQ(dst, "abc");
}

}  // namespace

// libc_sec.so: each function's success and each documented failure, with
// what it leaves in the destination.

#include "securec.h"

#include <cstdio>
#include <cstring>
#include <cwchar>
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

TEST(SecurecTest, TruncatedPrintfKeepsWhatFits) {
  char dst[6];
  EXPECT_EQ(snprintf_truncated_s(dst, sizeof(dst), "%s", "abcdefgh"), 5);
  EXPECT_STREQ(dst, "abcde");
  EXPECT_EQ(snprintf_truncated_s(dst, sizeof(dst), "%d", 12), 2);
  EXPECT_STREQ(dst, "12");
}

TEST(SecurecTest, SscanfTakesBufferSizesAndRefusesFieldsThatDoNotFit) {
  int number = 0;
  char word[8];
  char letter = 0;
  EXPECT_EQ(sscanf_s("42 abc x", "%d %s %c", &number, word, sizeof(word), &letter, 1), 3);
  EXPECT_EQ(number, 42);
  EXPECT_STREQ(word, "abc");
  EXPECT_EQ(letter, 'x');
  // A field longer than its buffer fails and leaves the buffer empty.
  char small[4] = "zzz";
  EXPECT_EQ(sscanf_s("7 abcdefgh", "%d %s", &number, small, sizeof(small)), 1);
  EXPECT_STREQ(small, "");
  // A field that fits exactly, and an explicit width below the room.
  EXPECT_EQ(sscanf_s("abc", "%s", small, sizeof(small)), 1);
  EXPECT_STREQ(small, "abc");
  EXPECT_EQ(sscanf_s("abcdef", "%2s%s", small, sizeof(small), word, sizeof(word)), 2);
  EXPECT_STREQ(small, "ab");
  EXPECT_STREQ(word, "cdef");
  // Scan sets, %n, literals, and the end of the input.
  int consumed = 0;
  EXPECT_EQ(sscanf_s("key=17;", "%[a-z]=%d;%n", word, sizeof(word), &number, &consumed), 2);
  EXPECT_STREQ(word, "key");
  EXPECT_EQ(number, 17);
  EXPECT_EQ(consumed, 7);
  EXPECT_EQ(sscanf_s("abcdefghij", "%[a-z]", word, sizeof(word)), 0);
  EXPECT_STREQ(word, "");
  EXPECT_EQ(sscanf_s("", "%d", &number), -1);
  EXPECT_EQ(sscanf_s("x1", "y%d", &number), 0);
  EXPECT_EQ(sscanf_s("5%", "%d%%", &number), 1);
  double real = 0;
  long long big = 0;
  EXPECT_EQ(sscanf_s("2.5 -9000000000", "%lf %lld", &real, &big), 2);
  EXPECT_EQ(real, 2.5);
  EXPECT_EQ(big, -9000000000LL);
  EXPECT_EQ(sscanf_s(nullptr, "%d", &number), -1);
}

TEST(SecurecTest, FscanfReadsStreamsWithTheSameRules) {
  char text[] = "10 hello 20";
  FILE* in = fmemopen(text, std::strlen(text), "r");
  ASSERT_NE(in, nullptr);
  int a = 0;
  int b = 0;
  char word[4];
  // "hello" does not fit in 4: the scan stops after the first field.
  EXPECT_EQ(fscanf_s(in, "%d %s %d", &a, word, sizeof(word), &b), 1);
  EXPECT_EQ(a, 10);
  EXPECT_STREQ(word, "");
  std::fclose(in);
}

TEST(SecurecTest, TokensAndWideStrings) {
  char text[] = "a,b,,c";
  char* context = nullptr;
  std::string tokens;
  for (char* token = strtok_s(text, ",", &context); token != nullptr;
       token = strtok_s(nullptr, ",", &context)) {
    tokens += token;
  }
  EXPECT_EQ(tokens, "abc");
  EXPECT_EQ(strtok_s(nullptr, ",", nullptr), nullptr);

  wchar_t wide[4];
  EXPECT_EQ(wcscpy_s(wide, 4, L"abc"), EOK);
  EXPECT_EQ(std::wcscmp(wide, L"abc"), 0);
  EXPECT_EQ(wcscat_s(wide, 4, L"d"), ERANGE_AND_RESET);
  EXPECT_EQ(wide[0], L'\0');
  EXPECT_EQ(wmemcpy_s(wide, 4, L"xyzw", 5), ERANGE_AND_RESET);
  EXPECT_EQ(swprintf_s(wide, 4, L"%d", 123), 3);
  EXPECT_EQ(std::wcscmp(wide, L"123"), 0);
  EXPECT_EQ(swprintf_s(wide, 4, L"%d", 1234), -1);
  int number = 0;
  wchar_t word[8];
  EXPECT_EQ(swscanf_s(L"5 abc", L"%d %ls", &number, word, 8), 2);
  EXPECT_EQ(number, 5);
  EXPECT_EQ(std::wcscmp(word, L"abc"), 0);
}

}  // namespace

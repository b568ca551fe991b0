// Tests of FunctionCodeAt (simdevice/elf_functions.h): the function symbols of
// this test program's own file, and files that are not what they claim.

#include "simdevice/elf_functions.h"

#include <dlfcn.h>
#include <fcntl.h>
#include <link.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "gtest/gtest.h"

extern "C" __attribute__((noinline, used)) int ElfFunctionsProbe(int x) { return x * 7 + 3; }

namespace npud::sim {
namespace {

class ElfFunctionsTest : public ::testing::Test {
 protected:
  void SetUp() override { fd_ = open("/proc/self/exe", O_RDONLY | O_CLOEXEC); }
  void TearDown() override { close(fd_); }

  // A memory file holding `bytes`.
  static int MemoryFile(const std::string& bytes) {
    const int fd = memfd_create("elf", MFD_CLOEXEC);
    EXPECT_EQ(write(fd, bytes.data(), bytes.size()), static_cast<ssize_t>(bytes.size()));
    return fd;
  }

  int fd_ = -1;
};

TEST_F(ElfFunctionsTest, FindsAFunctionOfThisProgram) {
  ASSERT_GE(fd_, 0);
  // Symbol values are relative to the program's load bias (0 unless PIE).
  link_map* program = nullptr;
  ASSERT_EQ(dlinfo(dlopen(nullptr, RTLD_NOW), RTLD_DI_LINKMAP, &program), 0);
  const auto address = reinterpret_cast<uint64_t>(&ElfFunctionsProbe);
  const uint64_t value = address - program->l_addr;
  absl::StatusOr<FunctionCode> code = FunctionCodeAt(fd_, value);
  ASSERT_TRUE(code.ok()) << code.status();
  EXPECT_GT(code->size, 0u);
  // The file's bytes there are the function's code.
  std::vector<unsigned char> bytes(code->size);
  ASSERT_EQ(pread(fd_, bytes.data(), bytes.size(), static_cast<off_t>(code->file_offset)),
            static_cast<ssize_t>(bytes.size()));
  EXPECT_EQ(std::memcmp(bytes.data(), reinterpret_cast<const void*>(address), bytes.size()), 0);
  EXPECT_EQ(ElfFunctionsProbe(1), 10);
}

TEST_F(ElfFunctionsTest, NoFunctionAtAnAddressIsNotFound) {
  EXPECT_TRUE(absl::IsNotFound(FunctionCodeAt(fd_, 1).status()));
}

TEST_F(ElfFunctionsTest, BrokenFilesAreNotFound) {
  const int garbage = MemoryFile("not an ELF object at all, just some bytes to read");
  EXPECT_TRUE(absl::IsNotFound(FunctionCodeAt(garbage, 0).status()));
  close(garbage);

  // This program's header, cut off before its section headers.
  std::string head(4096, '\0');
  ASSERT_EQ(pread(fd_, head.data(), head.size(), 0), static_cast<ssize_t>(head.size()));
  const int cut = MemoryFile(head);
  EXPECT_TRUE(absl::IsNotFound(FunctionCodeAt(cut, 0).status()));
  close(cut);
  EXPECT_FALSE(FunctionCodeAt(-1, 0).ok());
}

}  // namespace
}  // namespace npud::sim

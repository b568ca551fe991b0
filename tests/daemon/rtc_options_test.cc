// Tests of common/rtc_options: the run-time compilation rules that the client
// library and the daemon's compiler share (which options are accepted, what they
// become for the compiler, which header names are valid), and their messages.

#include "common/rtc_options.h"

#include <string>
#include <vector>

#include "gtest/gtest.h"

namespace npud {
namespace {

TEST(RtcOptionsTest, AcceptedOptionsBecomeCompilerArguments) {
  const absl::StatusOr<std::vector<std::string>> args = RtcCompilerArguments(
      {"-I", "inc", "-D", "A=1", "-U", "B", "-DF(x)=x", "-Iinc/sub", "-O3", "-g", "-w", "-Wall",
       "-Werror", "-std=c++20", "--npu-arch=dav-2201", "--npu-arch", "dav-2201", "--cce-auto-sync",
       "--cce-aicore-arch=dav-c220-vec"});
  ASSERT_TRUE(args.ok()) << args.status();
  EXPECT_EQ(*args, (std::vector<std::string>{"-Iinc", "-DA=1", "-UB", "-DF(x)=x", "-Iinc/sub",
                                             "-O3", "-g", "-w", "-Wall", "-Werror", "-std=c++20"}));
  EXPECT_TRUE(CheckRtcOptions({}).ok());
}

TEST(RtcOptionsTest, RefusedOptionsAreInvalidArgumentsWithTheReason) {
  struct Case {
    std::vector<std::string> options;
    const char* message_start;
  };
  for (const Case& c : std::vector<Case>{
           {{"-fplugin=/tmp/evil.so"}, "unsupported option '-fplugin=/tmp/evil.so' (accepted: "},
           {{"-I/usr/include"}, "unsupported option '-I/usr/include': absolute directories"},
           {{"-I", "a/../../b"}, "unsupported option '-Ia/../../b': '..' is not accepted"},
           {{"-I"}, "unsupported option '-I': it needs an operand"},
           {{"-I", ""}, "unsupported option '-I': the directory is empty"},
           {{"-Dnot-a-macro"}, "unsupported option '-Dnot-a-macro': not a macro name"},
           {{"-U", "X=1"}, "unsupported option '-UX=1': not a macro name"},
           {{"-D", "X\n#include <stdio.h>"},
            "unsupported option '-DX\n#include <stdio.h>': "
            "control characters are not accepted"},
           {{"-O2", "--npu-arch"}, "unsupported option '--npu-arch': it needs an operand"},
           {{"--npu-=x"}, "unsupported option '--npu-=x' (accepted"},
           {{""}, "unsupported option '' (accepted"},
       }) {
    const absl::Status status = CheckRtcOptions(c.options);
    EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument) << c.message_start;
    EXPECT_EQ(std::string(status.message()).rfind(c.message_start, 0), 0u)
        << status.message() << "\ndoes not start with\n"
        << c.message_start;
    EXPECT_EQ(RtcCompilerArguments(c.options).status(), status);
  }
}

TEST(RtcOptionsTest, HeaderNames) {
  for (const char* name : {"ok.h", "ok/name.h", "./ok.h", "deep/er/still.hpp", "a..b.h"}) {
    EXPECT_TRUE(CheckRtcHeaderName(name).ok()) << name;
  }
  struct Case {
    std::string name;
    const char* message;
  };
  for (const Case& c : std::vector<Case>{
           {"", "a header name must not be empty"},
           {"/etc/passwd", "header name '/etc/passwd' is absolute; header names must be relative"},
           {"../up.h", "header name '../up.h' contains '..'"},
           {"a/..", "header name 'a/..' contains '..'"},
           {"a//b.h", "header name 'a//b.h' has an empty path component"},
           {"dir/", "header name 'dir/' has an empty path component"},
           {"a\nb.h", "header name 'a_b.h' contains control characters"},
           {kRtcUnitFileName, "header name '.npud_rtc_unit.cpp' is reserved"},
       }) {
    const absl::Status status = CheckRtcHeaderName(c.name);
    EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument) << c.name;
    EXPECT_EQ(status.message(), c.message);
  }
}

}  // namespace
}  // namespace npud

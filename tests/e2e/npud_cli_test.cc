// npud's command line as an operator meets it: --help lists npud's own
// flags with their descriptions, --version names the version, and an
// unknown flag stops npud before it serves.

#include <string>

#include "absl/strings/match.h"
#include "gtest/gtest.h"
#include "tests/e2e/npud_process.h"

namespace {

using npud::testing::RunProcess;

// npud's stdout and stderr for `flag`, and its exit status in *status.
std::string RunNpud(const std::string& flag, int* status) {
  std::string output;
  *status =
      RunProcess({"/bin/sh", "-c", std::string(NPUD_BINARY) + " " + flag + " 2>&1"}, {}, &output);
  return output;
}

TEST(NpudCliTest, HelpListsNpudsOwnFlags) {
  int status = 0;
  const std::string help = RunNpud("--help", &status);
  EXPECT_FALSE(absl::StrContains(help, "No flags matched")) << help;
  for (const char* flag : {"--listen", "--devices", "--tls_cert", "--bulk_listen",
                           "--metrics_listen", "--allowed_uids", "--socket_mode"}) {
    EXPECT_TRUE(absl::StrContains(help, flag)) << flag << " missing from\n" << help;
  }
}

TEST(NpudCliTest, VersionAndUnknownFlags) {
  int status = 0;
  EXPECT_TRUE(absl::StartsWith(RunNpud("--version", &status), "npud "));
  EXPECT_EQ(status, 0);
  const std::string unknown = RunNpud("--no_such_flag", &status);
  EXPECT_NE(status, 0);
  EXPECT_TRUE(absl::StrContains(unknown, "no_such_flag")) << unknown;
}

}  // namespace

// npud's command line as an operator meets it: --help lists npud's own
// flags with their descriptions, --version names the version, an unknown
// flag stops npud before it serves, --log_format=json writes JSON lines and
// --flagfile reads flags from a file.

#include <fstream>
#include <sstream>
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

// --log_format=json: every line is one JSON object, messages escaped.
TEST(NpudCliTest, JsonLogLines) {
  int status = 0;
  const std::string log =
      RunNpud("--log_format=json --listen=127.0.0.1:0 --bulk_listen=bogus", &status);
  EXPECT_NE(status, 0);
  std::istringstream lines(log);
  int count = 0;
  for (std::string line; std::getline(lines, line); ++count) {
    EXPECT_TRUE(absl::StartsWith(line, "{\"time\":\"")) << line;
    EXPECT_TRUE(absl::EndsWith(line, "\"}")) << line;
    EXPECT_TRUE(absl::StrContains(line, "\"logger\":\"npud\"")) << line;
  }
  EXPECT_GT(count, 0);
  // The refusal quotes the flag's value: escaped inside the JSON string.
  EXPECT_TRUE(absl::StrContains(log, R"(\"bogus\" is not host:port)")) << log;
  EXPECT_TRUE(absl::StrContains(RunNpud("--log_format=xml", &status), "not text or json"));
  EXPECT_EQ(status, 2);
}

// Flags from a file (--flagfile, one flag per line), as the README says.
TEST(NpudCliTest, FlagsFromAFile) {
  const std::string dir = ::testing::TempDir();
  const std::string flagfile = dir + "/npud_cli_test.flags";
  std::ofstream(flagfile) << "--listen=unix://" << dir << "/npud_cli_test.sock\n"
                          << "--devices=2\n--idle_exit_seconds=1\n";
  int status = 0;
  const std::string log = RunNpud("--flagfile=" + flagfile, &status);
  EXPECT_EQ(status, 0) << log;
  EXPECT_TRUE(absl::StrContains(log, "serving 2 device(s)")) << log;
}

}  // namespace

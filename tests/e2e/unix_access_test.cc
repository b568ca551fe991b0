// Who may use npud's unix sockets (daemon/unix_access.h), against a real
// npud: the socket files get the mode and group asked for; with
// --allowed_uids a client process of another uid (run with setpriv) is
// refused on both the local protocol (ACL_ERROR_RT_NO_PERMISSION and why)
// and gRPC (closed unread: the set-up error), with a log line on npud's
// naming the uid, while an admitted uid and npud's
// own are served; bad flag values stop npud at start with a clear message.
//
// Runs as root (to start clients as other uids); skipped otherwise.

#include <grp.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "gtest/gtest.h"
#include "tests/e2e/npud_process.h"

namespace {

using npud::testing::NpudProcess;
using npud::testing::RunProcess;

constexpr int kAdmitted = 4242;
constexpr int kStranger = 4343;

class UnixAccessTest : public ::testing::Test {
 protected:
  // The client and its libraries copied where any uid may run them (the
  // build tree may sit below a directory only root can enter).
  static void SetUpTestSuite() {
    char dir[] = "/tmp/npud-unix-access-XXXXXX";
    if (geteuid() != 0 || mkdtemp(dir) == nullptr) return;
    client_dir_ = new std::string(dir);
    chmod(dir, 0755);
    for (const char* file : {ACL_TEST_CLIENT, ACL_RT_LIBRARY, NPUD_PROTO_LIBRARY}) {
      const std::filesystem::path from(file);
      const std::filesystem::path to = std::filesystem::path(dir) / from.filename();
      std::filesystem::copy_file(from, to, std::filesystem::copy_options::overwrite_existing);
      chmod(to.c_str(), 0755);
    }
  }
  static void TearDownTestSuite() {
    if (client_dir_ == nullptr) return;
    std::filesystem::remove_all(*client_dir_);
    delete client_dir_;
    client_dir_ = nullptr;
  }
  void SetUp() override {
    if (geteuid() != 0) GTEST_SKIP() << "needs root to run clients as other uids";
  }
  void TearDown() override {
    if (daemon_ == nullptr) return;
    const absl::Status stopped = daemon_->Stop();
    EXPECT_TRUE(stopped.ok()) << stopped << "\n" << daemon_->Log();
  }

  void Start(const std::vector<std::string>& flags) {
    auto started = NpudProcess::Start(NpudProcess::Transport::kUnix, flags);
    ASSERT_TRUE(started.ok()) << started.status();
    daemon_ = *std::move(started);
    socket_ = daemon_->address().substr(7);
    // The test's daemon directory is private; other uids must reach the socket.
    chmod(socket_.substr(0, socket_.rfind('/')).c_str(), 0755);
  }

  // Runs the flows client as `uid` (-1: as this process) over `transport`
  // ("local" or "grpc"); its exit status, its output in *output.
  int Flows(int uid, const std::string& transport, std::string* output) const {
    const std::string client =
        *client_dir_ + "/" + std::filesystem::path(ACL_TEST_CLIENT).filename().string();
    std::string command =
        "NPUD_LOG_LEVEL=warn LD_LIBRARY_PATH=" + *client_dir_ + " " + client + " flows 2>&1";
    if (uid >= 0) {
      const std::string id = std::to_string(uid);
      command =
          "setpriv --reuid=" + id + " --regid=" + id + " --clear-groups -- sh -c '" + command + "'";
    }
    std::vector<std::string> env = {"NPUD_ADDRESS=" + daemon_->address(),
                                    "NPUD_CONNECT_TIMEOUT_MS=3000", "HOME=/tmp"};
    if (transport == "grpc") env.push_back("NPUD_TRANSPORT=grpc");
    return RunProcess({"/bin/sh", "-c", command}, env, output);
  }

  static std::string* client_dir_;
  std::unique_ptr<NpudProcess> daemon_;
  std::string socket_;
};

std::string* UnixAccessTest::client_dir_ = nullptr;

TEST_F(UnixAccessTest, SocketsGetTheModeAndGroupAskedFor) {
  const struct group* nogroup = getgrnam("nogroup");
  ASSERT_NE(nogroup, nullptr);
  Start({"--socket_mode=0660", "--socket_group=nogroup"});
  for (const std::string& path : {socket_, socket_ + ".local"}) {
    struct stat info {};
    ASSERT_EQ(stat(path.c_str(), &info), 0) << path;
    EXPECT_EQ(info.st_mode & 07777, 0660u) << path;
    EXPECT_EQ(info.st_gid, nogroup->gr_gid) << path;
  }
  // Without --allowed_uids, the mode alone decides: another uid outside
  // the group cannot open the socket.
  std::string output;
  EXPECT_NE(Flows(kStranger, "local", &output), 0) << output;
  EXPECT_EQ(Flows(-1, "local", &output), 0) << output;
}

class AllowedUidsTest : public UnixAccessTest, public ::testing::WithParamInterface<const char*> {};

TEST_P(AllowedUidsTest, OnlyAdmittedUidsAreServed) {
  Start({"--socket_mode=0666", "--allowed_uids=" + std::to_string(kAdmitted)});
  std::string output;
  EXPECT_EQ(Flows(kAdmitted, GetParam(), &output), 0) << output << daemon_->Log();
  EXPECT_EQ(Flows(-1, GetParam(), &output), 0) << "npud's own uid: " << output;
  EXPECT_NE(Flows(kStranger, GetParam(), &output), 0) << output;
  if (std::string(GetParam()) == "local") {
    // The local protocol tells the client why: CANN's "no permission".
    EXPECT_TRUE(absl::StrContains(output, "(207006)")) << output;
    EXPECT_TRUE(absl::StrContains(output, "is not among npud's --allowed_uids")) << output;
  } else {
    // gRPC connections of refused uids are closed before they speak: the
    // client cannot reach npud at all.
    EXPECT_TRUE(absl::StrContains(output, "507033")) << output;
  }
  EXPECT_TRUE(absl::StrContains(
      daemon_->Log(), "uid " + std::to_string(kStranger) + " is not among npud's --allowed_uids"))
      << daemon_->Log();
}

// The connections npud accepts itself and hands to gRPC still count as
// unix peers: the Admin service answers them without a token.
TEST_F(UnixAccessTest, AdmittedGrpcPeersAreUnixPeers) {
  Start({"--allowed_uids=" + std::to_string(kAdmitted)});
  std::string output;
  EXPECT_EQ(
      RunProcess({NPUCTL_BINARY, "--address=" + daemon_->grpc_address(), "sessions"}, {}, &output),
      0)
      << output << daemon_->Log();
}

INSTANTIATE_TEST_SUITE_P(Transports, AllowedUidsTest, ::testing::Values("local", "grpc"));

TEST_F(UnixAccessTest, BadFlagValuesStopNpudWithAClearMessage) {
  for (const auto& [flag, message] :
       {std::pair{"--socket_mode=0999", "not octal permission bits"},
        std::pair{"--socket_group=no-such-group-here", "no such group"},
        std::pair{"--allowed_uids=bob", "\"bob\" is not a uid"}}) {
    auto started = NpudProcess::Start(NpudProcess::Transport::kUnix, {flag});
    ASSERT_FALSE(started.ok()) << flag;
    EXPECT_TRUE(absl::StrContains(started.status().message(), message)) << started.status();
  }
}

}  // namespace

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
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
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
    for (const char* file : {ACL_TEST_CLIENT, ACL_RT_LIBRARY, NPUD_PROTO_LIBRARY, NPUCTL_BINARY}) {
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
  int Flows(int uid, const std::string& transport, std::string* output,
            int connect_timeout_ms = 3000) const {
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
                                    "NPUD_CONNECT_TIMEOUT_MS=" + std::to_string(connect_timeout_ms),
                                    "HOME=/tmp"};
    if (transport == "grpc") env.push_back("NPUD_TRANSPORT=grpc");
    return RunProcess({"/bin/sh", "-c", command}, env, output);
  }

  // Runs npuctl `args` against npud's gRPC socket as `uid` (-1: as this
  // process); its exit status, its output in *output.
  int Npuctl(int uid, const std::string& args, std::string* output) const {
    std::string command = "LD_LIBRARY_PATH=" + *client_dir_ + " " + *client_dir_ +
                          "/npuctl --address=" + daemon_->grpc_address() + " " + args + " 2>&1";
    if (uid >= 0) {
      const std::string id = std::to_string(uid);
      command =
          "setpriv --reuid=" + id + " --regid=" + id + " --clear-groups -- sh -c '" + command + "'";
    }
    return RunProcess({"/bin/sh", "-c", command}, {"HOME=/tmp"}, output);
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

// A uid the socket's permission bits keep out is told so at once, with
// CANN's "no permission", the socket and the flags that let it in. Before,
// the library took the refused connect() for a daemon not answering yet and
// retried until its connect timeout, then said 507033 "no npud answers".
class SocketPermissionTest : public UnixAccessTest,
                             public ::testing::WithParamInterface<const char*> {};

TEST_P(SocketPermissionTest, ARefusedUidIsToldAtOnceWhatToChange) {
  Start({"--socket_mode=0600"});
  std::string output;
  const absl::Time start = absl::Now();
  EXPECT_NE(Flows(kStranger, GetParam(), &output, /*connect_timeout_ms=*/30000), 0) << output;
  EXPECT_LT(absl::Now() - start, absl::Seconds(10)) << output;
  EXPECT_TRUE(absl::StrContains(output, "(207006)")) << output;
  EXPECT_TRUE(absl::StrContains(output, socket_)) << output;
  EXPECT_TRUE(absl::StrContains(output, "--socket_mode")) << output;
  EXPECT_FALSE(absl::StrContains(output, "no npud answers")) << output;
}

INSTANTIATE_TEST_SUITE_P(Transports, SocketPermissionTest, ::testing::Values("local", "grpc"));

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

// Without --admin_token_file, a user who may use npud's socket may not use
// its Admin service: only npud's own uid and root list and kill sessions.
// Before, any uid that could reach the socket listed root's sessions and
// killed one.
TEST_F(UnixAccessTest, AdminAnswersOnlyNpudsUidWithoutAToken) {
  Start({"--socket_mode=0666"});
  auto victim = npud::testing::ChildProcess::Spawn({ACL_TEST_CLIENT, "hold", "4096"},
                                                   {"NPUD_ADDRESS=" + daemon_->address()});
  ASSERT_TRUE(victim.ok()) << victim.status();
  ASSERT_TRUE(absl::StartsWith((*victim)->ReadLine(absl::Seconds(20)), "ADDR")) << daemon_->Log();
  std::string output;
  ASSERT_EQ(Npuctl(-1, "sessions", &output), 0) << output << daemon_->Log();
  ASSERT_TRUE(absl::StrContains(output, "acl_test_client")) << output;

  EXPECT_NE(Npuctl(kStranger, "sessions", &output), 0) << output;
  EXPECT_TRUE(absl::StrContains(output, "answers uid 0 and root only")) << output;
  EXPECT_NE(Npuctl(kStranger, "kill 1", &output), 0) << output;
  (*victim)->WriteLine("check");
  EXPECT_EQ((*victim)->ReadLine(absl::Seconds(20)), "INTACT 1") << "a stranger killed a session";
  EXPECT_TRUE(absl::StrContains(daemon_->Log(),
                                "admin call from uid " + std::to_string(kStranger) + " refused"))
      << daemon_->Log();
}

// A uid the unix sockets refuse must not get in over TCP on the same host:
// npud with local restrictions and a TCP listener (gRPC or its own port)
// needs an identity there, tokens or client certificates. Before, uid
// nobody, refused on the socket, got full sessions over loopback TCP.
TEST_F(UnixAccessTest, LocalRestrictionsNeedAnIdentityOnTcp) {
  using Transport = NpudProcess::Transport;
  for (const auto& [transport, flags] :
       {std::pair{Transport::kTcp, std::vector<std::string>{"--allowed_uids=4242"}},
        std::pair{Transport::kTcp, std::vector<std::string>{"--socket_mode=0660"}},
        std::pair{Transport::kUnix,
                  std::vector<std::string>{"--allowed_uids=4242", "--bulk_listen=127.0.0.1:0"}}}) {
    auto started = NpudProcess::Start(transport, flags);
    ASSERT_FALSE(started.ok()) << flags[0];
    EXPECT_TRUE(absl::StrContains(started.status().message(), "would serve anyone"))
        << started.status();
  }
  // With tokens, TCP peers prove who they are: npud starts, and a client
  // without the token is refused there.
  const std::string tokens = *client_dir_ + "/tokens";
  std::ofstream(tokens) << "a-token-of-the-admitted-team\n";
  auto started =
      NpudProcess::Start(Transport::kTcp, {"--allowed_uids=4242", "--auth_token_file=" + tokens});
  ASSERT_TRUE(started.ok()) << started.status();
  daemon_ = *std::move(started);
  std::string output;
  EXPECT_NE(Flows(kStranger, "grpc", &output), 0) << output;
  EXPECT_TRUE(absl::StrContains(output, "token")) << output;
}

// gRPC sessions on the unix socket count per uid, as local-protocol
// connections do: one user at --max_connections_per_peer does not lock out
// another. Before, all gRPC unix sessions counted as one peer.
TEST_F(UnixAccessTest, GrpcUnixSessionsCountPerUid) {
  Start({"--socket_mode=0666", "--max_connections_per_peer=1"});
  auto holder = npud::testing::ChildProcess::Spawn(
      {ACL_TEST_CLIENT, "hold", "4096"},
      {"NPUD_ADDRESS=" + daemon_->address(), "NPUD_TRANSPORT=grpc"});
  ASSERT_TRUE(holder.ok()) << holder.status();
  ASSERT_TRUE(absl::StartsWith((*holder)->ReadLine(absl::Seconds(20)), "ADDR")) << daemon_->Log();
  std::string output;
  EXPECT_EQ(Flows(kStranger, "grpc", &output), 0) << output << daemon_->Log();
  EXPECT_NE(Flows(-1, "grpc", &output), 0) << "root's second session: " << output;
}

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

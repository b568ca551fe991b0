#include "common/unix_socket.h"

#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <string>

#include "gtest/gtest.h"

namespace npud {
namespace {

class UnixSocketTest : public ::testing::Test {
 protected:
  void SetUp() override {
    char dir[] = "/tmp/npud-socket-test-XXXXXX";
    ASSERT_NE(mkdtemp(dir), nullptr);
    dir_ = dir;
    path_ = dir_ + "/s.sock";
  }
  void TearDown() override { std::system(("rm -rf " + dir_).c_str()); }
  std::string dir_;
  std::string path_;
};

TEST_F(UnixSocketTest, ListenConnectAnswer) {
  EXPECT_FALSE(UnixSocketAnswers(path_));
  EXPECT_TRUE(absl::IsUnavailable(ConnectUnixSocket(path_).status()));
  auto listener = ListenUnixSocket(path_, 4);
  ASSERT_TRUE(listener.ok()) << listener.status();
  auto client = ConnectUnixSocket(path_);
  ASSERT_TRUE(client.ok());
  UniqueFd server(accept(listener->get(), nullptr, nullptr));
  ASSERT_TRUE(server.valid());
  ASSERT_EQ(write(client->get(), "hi", 2), 2);
  char buffer[2];
  ASSERT_EQ(read(server.get(), buffer, 2), 2);
  EXPECT_EQ(std::string(buffer, 2), "hi");
  EXPECT_TRUE(UnixSocketAnswers(path_));
}

TEST_F(UnixSocketTest, StaleSocketsAreRemovedLiveOnesKept) {
  EXPECT_TRUE(RemoveStaleUnixSocket(path_).ok());  // nothing there
  {
    auto listener = ListenUnixSocket(path_, 4);
    ASSERT_TRUE(listener.ok());
    EXPECT_TRUE(absl::IsAlreadyExists(RemoveStaleUnixSocket(path_)));
  }
  // The listener is gone; its file stays behind, stale.
  ASSERT_EQ(access(path_.c_str(), F_OK), 0);
  EXPECT_TRUE(RemoveStaleUnixSocket(path_).ok());
  EXPECT_NE(access(path_.c_str(), F_OK), 0);
}

// A socket the file system keeps this uid out of is PermissionDenied, not
// Unavailable: clients must say so at once instead of waiting for a daemon
// that would never let them in.
TEST_F(UnixSocketTest, ASocketThisUidMayNotOpenIsPermissionDenied) {
  if (geteuid() != 0) GTEST_SKIP() << "needs root to connect as another uid";
  auto listener = ListenUnixSocket(path_, 4);
  ASSERT_TRUE(listener.ok()) << listener.status();
  ASSERT_EQ(chmod(dir_.c_str(), 0755), 0);
  ASSERT_EQ(chmod(path_.c_str(), 0600), 0);
  const pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    if (setresgid(65534, 65534, 65534) != 0 || setresuid(65534, 65534, 65534) != 0) _exit(2);
    _exit(absl::IsPermissionDenied(ConnectUnixSocket(path_).status()) ? 0 : 1);
  }
  int status = 0;
  ASSERT_EQ(waitpid(child, &status, 0), child);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << status;
}

TEST_F(UnixSocketTest, PathsTooLongAreInvalid) {
  const std::string long_path = "/tmp/" + std::string(200, 'x');
  EXPECT_TRUE(absl::IsInvalidArgument(ConnectUnixSocket(long_path).status()));
  EXPECT_TRUE(absl::IsInvalidArgument(ListenUnixSocket(long_path, 1).status()));
}

}  // namespace
}  // namespace npud

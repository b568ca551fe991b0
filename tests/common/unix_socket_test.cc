#include "common/unix_socket.h"

#include <sys/socket.h>
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

TEST_F(UnixSocketTest, PathsTooLongAreInvalid) {
  const std::string long_path = "/tmp/" + std::string(200, 'x');
  EXPECT_TRUE(absl::IsInvalidArgument(ConnectUnixSocket(long_path).status()));
  EXPECT_TRUE(absl::IsInvalidArgument(ListenUnixSocket(long_path, 1).status()));
}

}  // namespace
}  // namespace npud

#include "common/frame_io.h"

#include <fcntl.h>
#include <sys/socket.h>
#include <unistd.h>

#include <string>
#include <thread>
#include <vector>

#include "common/unique_fd.h"
#include "gtest/gtest.h"

namespace npud {
namespace {

class FrameIoTest : public ::testing::Test {
 protected:
  void SetUp() override {
    int pair[2];
    ASSERT_EQ(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, pair), 0);
    writer_.reset(pair[0]);
    reader_end_.reset(pair[1]);
  }
  UniqueFd writer_;
  UniqueFd reader_end_;
};

TEST_F(FrameIoTest, FramesArriveWholeAndInOrder) {
  const std::string big(3 << 20, 'x');  // larger than a socket buffer
  std::thread writer([&] {
    EXPECT_TRUE(WriteFrame(writer_.get(), "first").ok());
    EXPECT_TRUE(WriteFrame(writer_.get(), "").ok());
    EXPECT_TRUE(WriteFrame(writer_.get(), big).ok());
    writer_.reset();
  });
  FrameReader reader(reader_end_.get());
  std::string payload;
  std::vector<int> fds;
  ASSERT_TRUE(reader.Read(&payload, &fds).ok());
  EXPECT_EQ(payload, "first");
  ASSERT_TRUE(reader.Read(&payload, &fds).ok());
  EXPECT_EQ(payload, "");
  ASSERT_TRUE(reader.Read(&payload, &fds).ok());
  EXPECT_EQ(payload, big);
  EXPECT_TRUE(fds.empty());
  writer.join();
  EXPECT_TRUE(absl::IsOutOfRange(reader.Read(&payload, &fds)));
}

TEST_F(FrameIoTest, DescriptorsTravelWithTheirFrame) {
  int pipe_fds[2];
  ASSERT_EQ(pipe2(pipe_fds, O_CLOEXEC), 0);
  UniqueFd read_end(pipe_fds[0]);
  UniqueFd write_end(pipe_fds[1]);
  const int sent[] = {write_end.get()};
  ASSERT_TRUE(WriteFrame(writer_.get(), "with a file", sent).ok());
  ASSERT_TRUE(WriteFrame(writer_.get(), "without").ok());

  FrameReader reader(reader_end_.get());
  std::string payload;
  std::vector<int> fds;
  ASSERT_TRUE(reader.Read(&payload, &fds).ok());
  EXPECT_EQ(payload, "with a file");
  ASSERT_EQ(fds.size(), 1u);
  UniqueFd received(fds[0]);
  // The received descriptor is the same pipe: bytes written through it
  // come out of our read end.
  ASSERT_EQ(write(received.get(), "!", 1), 1);
  char c = 0;
  ASSERT_EQ(read(read_end.get(), &c, 1), 1);
  EXPECT_EQ(c, '!');
  ASSERT_TRUE(reader.Read(&payload, &fds).ok());
  EXPECT_EQ(payload, "without");
  EXPECT_TRUE(fds.empty());
}

TEST_F(FrameIoTest, SealedFramesReadLikeWrittenOnes) {
  std::string frame(kFrameHeaderBytes, '\0');
  frame += "built in place";
  SealFrame(&frame);
  ASSERT_EQ(write(writer_.get(), frame.data(), frame.size()), static_cast<ssize_t>(frame.size()));
  FrameReader reader(reader_end_.get());
  std::string payload;
  std::vector<int> fds;
  ASSERT_TRUE(reader.Read(&payload, &fds).ok());
  EXPECT_EQ(payload, "built in place");
}

TEST_F(FrameIoTest, MalformedHeadersAndCutFramesAreDataLoss) {
  {
    // Reserved bytes must be zero.
    const char header[8] = {1, 0, 0, 0, 0, 0, 1, 0};
    ASSERT_EQ(write(writer_.get(), header, 8), 8);
    FrameReader reader(reader_end_.get());
    std::string payload;
    std::vector<int> fds;
    EXPECT_TRUE(absl::IsDataLoss(reader.Read(&payload, &fds)));
  }
  SetUp();
  {
    // A frame that promises 10 bytes and ends after 3.
    const char cut[11] = {10, 0, 0, 0, 0, 0, 0, 0, 'a', 'b', 'c'};
    ASSERT_EQ(write(writer_.get(), cut, 11), 11);
    writer_.reset();
    FrameReader reader(reader_end_.get());
    std::string payload;
    std::vector<int> fds;
    EXPECT_TRUE(absl::IsDataLoss(reader.Read(&payload, &fds)));
  }
}

TEST_F(FrameIoTest, RefusesToWriteOversizedFrames) {
  std::vector<int> too_many(kMaxFrameFds + 1, writer_.get());
  EXPECT_TRUE(absl::IsInvalidArgument(WriteFrame(writer_.get(), "x", too_many)));
}

TEST_F(FrameIoTest, WritingToAClosedPeerIsUnavailable) {
  reader_end_.reset();
  EXPECT_TRUE(absl::IsUnavailable(WriteFrame(writer_.get(), "nobody listens")));
}

}  // namespace
}  // namespace npud

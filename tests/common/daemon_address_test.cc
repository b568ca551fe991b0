#include "common/daemon_address.h"

#include "gtest/gtest.h"

namespace npud {
namespace {

TEST(DaemonAddressTest, UnixSpellingsNameTheSameFile) {
  for (const char* text : {"unix:/run/npud.sock", "unix://run/npud.sock", "unix:///run/npud.sock",
                           "  unix:///run/npud.sock\n"}) {
    auto address = ParseDaemonAddress(text);
    ASSERT_TRUE(address.ok()) << text << ": " << address.status();
    EXPECT_EQ(address->kind, DaemonAddress::Kind::kUnix) << text;
    EXPECT_EQ(address->target, "/run/npud.sock") << text;
    EXPECT_EQ(address->GrpcTarget(), "unix:/run/npud.sock");
    EXPECT_EQ(address->ToString(), "unix:///run/npud.sock");
  }
}

TEST(DaemonAddressTest, TcpAndInproc) {
  auto tcp = ParseDaemonAddress("127.0.0.1:50051");
  ASSERT_TRUE(tcp.ok());
  EXPECT_EQ(tcp->kind, DaemonAddress::Kind::kTcp);
  EXPECT_EQ(tcp->GrpcTarget(), "127.0.0.1:50051");
  auto v6 = ParseDaemonAddress("[::1]:7");
  ASSERT_TRUE(v6.ok());
  EXPECT_EQ(v6->target, "[::1]:7");
  for (const char* text : {"inproc:", "inproc"}) {
    auto inproc = ParseDaemonAddress(text);
    ASSERT_TRUE(inproc.ok()) << text;
    EXPECT_EQ(inproc->kind, DaemonAddress::Kind::kInproc);
    EXPECT_EQ(inproc->ToString(), "inproc:");
  }
}

TEST(DaemonAddressTest, ParsesNpudsOwnTcpPort) {
  auto framed = ParseDaemonAddress("npud://10.0.0.7:50052");
  ASSERT_TRUE(framed.ok()) << framed.status();
  EXPECT_EQ(framed->kind, DaemonAddress::Kind::kFramedTcp);
  EXPECT_EQ(framed->Host(), "10.0.0.7");
  EXPECT_EQ(framed->Port(), 50052);
  EXPECT_EQ(framed->ToString(), "npud://10.0.0.7:50052");
  auto v6 = ParseDaemonAddress("npud://[::1]:9");
  ASSERT_TRUE(v6.ok()) << v6.status();
  EXPECT_EQ(v6->Host(), "::1");
  EXPECT_EQ(v6->Port(), 9);
}

TEST(DaemonAddressTest, RefusesWhatIsNoAddress) {
  for (const char* text : {"", "   ", "unix:", "unix://", "localhost", "localhost:",
                           "localhost:http", "npud://", "npud://host", "host:70000"}) {
    auto address = ParseDaemonAddress(text);
    EXPECT_TRUE(absl::IsInvalidArgument(address.status())) << "'" << text << "'";
  }
}

TEST(DaemonAddressTest, LocalSocketSitsNextToTheGrpcSocket) {
  EXPECT_EQ(LocalSocketPath("/run/npud.sock"), "/run/npud.sock.local");
}

TEST(DaemonAddressTest, DefaultSocketFollowsXdgRuntimeDir) {
  const char* old = getenv("XDG_RUNTIME_DIR");
  const std::string saved = old != nullptr ? old : "";
  setenv("XDG_RUNTIME_DIR", "/somewhere", 1);
  EXPECT_EQ(DefaultSocketPath(), "/somewhere/npud.sock");
  unsetenv("XDG_RUNTIME_DIR");
  EXPECT_EQ(DefaultSocketPath(), "/tmp/npud-" + std::to_string(getuid()) + "/npud.sock");
  if (old != nullptr) setenv("XDG_RUNTIME_DIR", saved.c_str(), 1);
}

}  // namespace
}  // namespace npud

// Several client processes on one real npud: concurrent use, a client
// killed while holding memory, a client poking at another's memory, and the
// runtime used before aclInit. Runs against the transport
// NPUD_TEST_TRANSPORT names.

#include <signal.h>
#include <unistd.h>

#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_split.h"
#include "absl/time/clock.h"
#include "gtest/gtest.h"
#include "tests/e2e/npud_process.h"

namespace {

using npud::testing::ChildProcess;
using npud::testing::NpudProcess;
using npud::testing::RunProcess;

class MultiProcessTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto started = NpudProcess::Start(npud::testing::TransportFromEnv());
    ASSERT_TRUE(started.ok()) << started.status();
    daemon_ = *std::move(started);
    env_ = {"NPUD_ADDRESS=" + daemon_->address()};
  }
  void TearDown() override {
    const absl::Status stopped = daemon_->Stop();
    EXPECT_TRUE(stopped.ok()) << stopped << "\n" << daemon_->Log();
  }

  int Client(const std::vector<std::string>& args, std::string* out = nullptr) {
    std::vector<std::string> argv = {ACL_TEST_CLIENT};
    argv.insert(argv.end(), args.begin(), args.end());
    return RunProcess(argv, env_, out);
  }

  std::unique_ptr<ChildProcess> SpawnClient(const std::vector<std::string>& args) {
    std::vector<std::string> argv = {ACL_TEST_CLIENT};
    argv.insert(argv.end(), args.begin(), args.end());
    auto child = ChildProcess::Spawn(argv, env_);
    EXPECT_TRUE(child.ok()) << child.status();
    return child.ok() ? *std::move(child) : nullptr;
  }

  uint64_t FreeBytes() {
    std::string out;
    EXPECT_EQ(Client({"meminfo"}, &out), 0);
    uint64_t free_bytes = 0;
    std::vector<std::string> words = absl::StrSplit(out, absl::ByAnyChar(" \n"), absl::SkipEmpty());
    EXPECT_TRUE(words.size() == 2 && absl::SimpleAtoi(words[1], &free_bytes)) << out;
    return free_bytes;
  }

  // Free bytes once they equal `expected` (the daemon noticed a dead
  // client), or after 10 s whatever they are.
  uint64_t FreeBytesOnceSettledAt(uint64_t expected) {
    const absl::Time deadline = absl::Now() + absl::Seconds(10);
    uint64_t free_bytes = FreeBytes();
    while (free_bytes != expected && absl::Now() < deadline) {
      absl::SleepFor(absl::Milliseconds(50));
      free_bytes = FreeBytes();
    }
    return free_bytes;
  }

  std::unique_ptr<NpudProcess> daemon_;
  std::vector<std::string> env_;
};

TEST_F(MultiProcessTest, ClientsRunConcurrently) {
  std::vector<std::unique_ptr<ChildProcess>> clients;
  for (int i = 0; i < 4; ++i) clients.push_back(SpawnClient({"flows"}));
  for (auto& client : clients) {
    ASSERT_NE(client, nullptr);
    EXPECT_EQ(client->Wait(), 0);
  }
}

TEST_F(MultiProcessTest, KilledClientsMemoryIsReleased) {
  const uint64_t before = FreeBytes();
  const uint64_t hold = 512ull << 20;
  auto holder = SpawnClient({"hold", std::to_string(hold)});
  ASSERT_NE(holder, nullptr);
  const std::string line = holder->ReadLine(absl::Seconds(20));
  ASSERT_EQ(line.rfind("ADDR ", 0), 0u) << line;
  EXPECT_EQ(before - FreeBytes(), hold);

  holder->Kill(SIGKILL);
  EXPECT_EQ(holder->Wait(), -SIGKILL);
  // The daemon notices the broken connection and frees everything.
  EXPECT_EQ(FreeBytesOnceSettledAt(before), before);
  // And keeps serving.
  EXPECT_EQ(Client({"flows"}), 0);
  EXPECT_NE(daemon_->Log().find("closed: released 1 allocations"), std::string::npos);
}

TEST_F(MultiProcessTest, ClientKilledMidTransferLeavesNothingBehind) {
  const uint64_t before = FreeBytes();
  auto copier = SpawnClient({"copy-loop"});
  ASSERT_NE(copier, nullptr);
  ASSERT_EQ(copier->ReadLine(absl::Seconds(20)), "READY");
  // Other clients check their bytes while the copier runs and dies.
  std::vector<std::unique_ptr<ChildProcess>> others;
  for (int i = 0; i < 2; ++i) others.push_back(SpawnClient({"flows"}));
  absl::SleepFor(absl::Milliseconds(300));
  copier->Kill(SIGKILL);
  EXPECT_EQ(copier->Wait(), -SIGKILL);
  for (auto& other : others) EXPECT_EQ(other->Wait(), 0);
  EXPECT_EQ(FreeBytesOnceSettledAt(before), before);
  EXPECT_EQ(Client({"flows"}), 0);
}

TEST_F(MultiProcessTest, StrictModeReportsErrorsAtTheCall) {
  std::string out;
  ASSERT_EQ(Client({"strict"}, &out), 0);
  // ACL_ERROR_RT_PARAM_INVALID at the synchronize ...
  EXPECT_EQ(out, "CODES 0 107000\n");
  // ... or, in strict mode, at the copy that caused it.
  std::vector<std::string> env = env_;
  env.push_back("NPUD_STRICT=1");
  ASSERT_EQ(RunProcess({ACL_TEST_CLIENT, "strict"}, env, &out), 0);
  EXPECT_EQ(out, "CODES 107000 0\n");
}

TEST_F(MultiProcessTest, AdminServiceShowsWhoHoldsWhat) {
  auto holder = SpawnClient({"hold", "1048576"});
  ASSERT_NE(holder, nullptr);
  ASSERT_EQ(holder->ReadLine(absl::Seconds(20)).rfind("ADDR ", 0), 0u);
  std::string out;
  ASSERT_EQ(
      RunProcess({NPUCTL_BINARY, "--address=" + daemon_->grpc_address(), "sessions"}, {}, &out), 0);
  EXPECT_NE(out.find("acl_test_client"), std::string::npos) << out;
  EXPECT_NE(out.find("0:1048576"), std::string::npos) << out;
  ASSERT_EQ(
      RunProcess({NPUCTL_BINARY, "--address=" + daemon_->grpc_address(), "devices"}, {}, &out), 0);
  EXPECT_NE(out.find("Ascend910B1"), std::string::npos) << out;
}

TEST(AuthTokenTest, DaemonRefusesClientsWithoutTheToken) {
  char path[] = "/tmp/npud-token-XXXXXX";
  const int fd = mkstemp(path);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(write(fd, "s3cret\n", 7), 7);
  close(fd);
  auto daemon = NpudProcess::Start(npud::testing::TransportFromEnv(),
                                   {std::string("--auth_token_file=") + path});
  ASSERT_TRUE(daemon.ok()) << daemon.status();
  const std::string address = "NPUD_ADDRESS=" + (*daemon)->address();
  EXPECT_NE(RunProcess({ACL_TEST_CLIENT, "flows"}, {address}), 0);
  EXPECT_NE(RunProcess({ACL_TEST_CLIENT, "flows"}, {address, "NPUD_TOKEN=wrong"}), 0);
  EXPECT_EQ(RunProcess({ACL_TEST_CLIENT, "flows"}, {address, "NPUD_TOKEN=s3cret"}), 0);
  EXPECT_NE((*daemon)->Log().find("bad auth token"), std::string::npos);
  unlink(path);
}

// A daemon in a higher address slot (so one client can use it beside a
// daemon in slot 0) hands out addresses of that slot, and its copies and
// kernels work as in slot 0: the client learns the ranges from the hello.
TEST(AddressSlotTest, ADaemonInSlotThreeServesCopiesAndKernels) {
  auto daemon =
      NpudProcess::Start(npud::testing::TransportFromEnv(), {"--address_slot=3", "--devices=2"});
  ASSERT_TRUE(daemon.ok()) << daemon.status();
  const std::vector<std::string> env = {"NPUD_ADDRESS=" + (*daemon)->address()};
  EXPECT_EQ(RunProcess({ACL_TEST_CLIENT, "flows"}, env), 0) << (*daemon)->Log();

  auto holder = ChildProcess::Spawn({ACL_TEST_CLIENT, "hold", "4096"}, env);
  ASSERT_TRUE(holder.ok()) << holder.status();
  const std::string line = (*holder)->ReadLine(absl::Seconds(20));
  ASSERT_EQ(line.rfind("ADDR ", 0), 0u) << line;
  const uint64_t address = std::strtoull(line.c_str() + 5, nullptr, 16);
  constexpr uint64_t kTiB = 1ull << 40;
  EXPECT_GE(address, 80 * kTiB) << line;  // slot 3: devices from 32 + 3 * 16 TiB
  EXPECT_LT(address, 92 * kTiB) << line;
  (*holder)->WriteLine("check");
  EXPECT_EQ((*holder)->ReadLine(absl::Seconds(20)), "INTACT 1");
  (*holder)->CloseStdin();
  EXPECT_EQ((*holder)->Wait(), 0);

  auto adder = ChildProcess::Spawn({ACL_TEST_CLIENT, "add-loop", E2E_KERNELS_PATH}, env);
  ASSERT_TRUE(adder.ok()) << adder.status();
  ASSERT_EQ((*adder)->ReadLine(absl::Seconds(60)), "READY");
  (*adder)->WriteLine("stop");
  uint64_t rounds = 0, bad = 1;
  const std::string summary = (*adder)->ReadLine(absl::Seconds(60));
  ASSERT_EQ(std::sscanf(summary.c_str(), "ROUNDS %" SCNu64 " BAD %" SCNu64, &rounds, &bad), 2)
      << summary;
  EXPECT_GT(rounds, 0u);
  EXPECT_EQ(bad, 0u) << summary;
  EXPECT_EQ((*adder)->Wait(), 0);
  const absl::Status stopped = (*daemon)->Stop();
  EXPECT_TRUE(stopped.ok()) << stopped << "\n" << (*daemon)->Log();
}

// NPUD_ADDRESS=a,b: one program uses the devices of two daemons as one list
// — a local one in slot 0 and one over this suite's transport in slot 1 —
// with copies and kernels on each and copies between them.
TEST(SeveralDaemonsTest, OneClientUsesTheDevicesOfTwoDaemons) {
  auto first = NpudProcess::Start(NpudProcess::Transport::kUnix, {"--devices=1"});
  ASSERT_TRUE(first.ok()) << first.status();
  auto second =
      NpudProcess::Start(npud::testing::TransportFromEnv(), {"--address_slot=1", "--devices=2"});
  ASSERT_TRUE(second.ok()) << second.status();
  const std::vector<std::string> env = {"NPUD_ADDRESS=" + (*first)->address() + "," +
                                        (*second)->address()};
  auto client = ChildProcess::Spawn({ACL_TEST_CLIENT, "devices", E2E_KERNELS_PATH}, env);
  ASSERT_TRUE(client.ok()) << client.status();
  EXPECT_EQ((*client)->ReadLine(absl::Seconds(60)), "DEVICES 3");
  constexpr uint64_t kTiB = 1ull << 40;
  for (int device = 0; device < 3; ++device) {
    const std::string line = (*client)->ReadLine(absl::Seconds(60));
    unsigned index = 0;
    uint64_t address = 0;
    ASSERT_EQ(std::sscanf(line.c_str(), "ADDR %u %" SCNx64, &index, &address), 2) << line;
    EXPECT_EQ(index, static_cast<unsigned>(device));
    // Device 0 is the first daemon's (slot 0), 1 and 2 the second's (slot 1).
    if (device == 0) {
      EXPECT_LT(address, 48 * kTiB) << line;
    } else {
      EXPECT_GE(address, 48 * kTiB) << line;
      EXPECT_LT(address, 60 * kTiB) << line;
    }
  }
  EXPECT_EQ((*client)->ReadLine(absl::Seconds(60)), "CHECKS OK")
      << (*first)->Log() << (*second)->Log();
  EXPECT_EQ((*client)->Wait(), 0);
  EXPECT_TRUE((*first)->Stop().ok()) << (*first)->Log();
  EXPECT_TRUE((*second)->Stop().ok()) << (*second)->Log();
}

// Two daemons in the same address slot hand out addresses the client could
// not tell apart: it refuses to use them together and says why.
TEST(SeveralDaemonsTest, DaemonsInOneAddressSlotAreRefused) {
  auto first = NpudProcess::Start(NpudProcess::Transport::kUnix, {"--devices=1"});
  auto second = NpudProcess::Start(NpudProcess::Transport::kUnix, {"--devices=1"});
  ASSERT_TRUE(first.ok() && second.ok());
  const std::vector<std::string> env = {"NPUD_ADDRESS=" + (*first)->address() + "," +
                                        (*second)->address()};
  std::string out;
  ASSERT_EQ(RunProcess({ACL_TEST_CLIENT, "set-device"}, env, &out), 0);
  EXPECT_EQ(out, "CODE 507033\n");
}

TEST_F(MultiProcessTest, ClientsCannotTouchEachOthersMemory) {
  auto owner = SpawnClient({"hold", "65536"});
  ASSERT_NE(owner, nullptr);
  const std::string line = owner->ReadLine(absl::Seconds(20));
  ASSERT_EQ(line.rfind("ADDR ", 0), 0u) << line;
  const std::string address = line.substr(5);

  std::string out;
  ASSERT_EQ(Client({"poke", address}, &out), 0);
  // Freeing and writing someone else's allocation: as if it did not exist.
  EXPECT_EQ(out, "CODES 107000 107000\n");
  owner->WriteLine("check");
  EXPECT_EQ(owner->ReadLine(absl::Seconds(20)), "INTACT 1");
  owner->CloseStdin();
  EXPECT_EQ(owner->Wait(), 0);
}

TEST_F(MultiProcessTest, TrappingKernelsHurtOnlyTheirOwnClient) {
  auto trapper = SpawnClient({"trap", E2E_KERNELS_PATH, "20"});
  std::vector<std::unique_ptr<ChildProcess>> others;
  for (int i = 0; i < 2; ++i) others.push_back(SpawnClient({"flows"}));
  ASSERT_NE(trapper, nullptr);
  std::string expected = "CODES";
  for (int i = 0; i < 20; ++i) expected += " 507035";
  EXPECT_EQ(trapper->ReadLine(absl::Seconds(60)), expected);
  EXPECT_EQ(trapper->Wait(), 0);
  for (auto& other : others) EXPECT_EQ(other->Wait(), 0);
  EXPECT_EQ(Client({"flows"}), 0);
}

TEST_F(MultiProcessTest, RuntimeWorksBeforeAclInit) {
  std::string out;
  ASSERT_EQ(Client({"before-init"}, &out), 0);
  // set, malloc, copy, free succeed; finalize without init succeeds once,
  // then repeats are reported; a second aclInit reports a repeat.
  EXPECT_EQ(out, "CODES 0 0 0 0 0 100037 0 100002 0 value=5\n");
}

}  // namespace

// Kernel isolation end to end: kernels that exit, abort, kill themselves,
// write through wild pointers, read another client's memory (or more of it
// than that client shared), or try to create files, run programs, open
// sockets and fork, launched into a real npud while a second client process
// launches kernels and copies. Each attack costs at most its own stream;
// npud, the bystander and the attacker's next launch are untouched.

#include <dirent.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/string_view.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "acl/acl.h"
#include "gtest/gtest.h"
#include "tests/e2e/daemon_environment.h"
#include "tests/e2e/npud_process.h"

namespace {

using npud::testing::ChildProcess;
using npud::testing::DaemonEnvironment;

const auto* const kEnvironment =
    ::testing::AddGlobalTestEnvironment(new npud::testing::DaemonEnvironment);

constexpr aclError kVectorException = 507035;

// The hostile kernel object: the test build's, or the one toolchain_test
// built from the same source with the installed ascendc.cmake
// (NPUD_HOSTILE_KERNELS).
const char* HostileKernelsPath() {
  const char* path = std::getenv("NPUD_HOSTILE_KERNELS");
  return path != nullptr && *path != '\0' ? path : HOSTILE_KERNELS_PATH;
}

class IsolationTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    ASSERT_EQ(aclrtCreateStream(&stream_), ACL_SUCCESS);
    ASSERT_EQ(aclrtBinaryLoadFromFile(HostileKernelsPath(), nullptr, &binary_), ACL_SUCCESS);
    ASSERT_EQ(aclrtMalloc(&out_, 4096, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    auto bystander =
        ChildProcess::Spawn({ACL_TEST_CLIENT, "add-loop", E2E_KERNELS_PATH},
                            {"NPUD_ADDRESS=" + DaemonEnvironment::daemon()->address()});
    ASSERT_TRUE(bystander.ok()) << bystander.status();
    bystander_ = *std::move(bystander);
    ASSERT_EQ(bystander_->ReadLine(absl::Seconds(30)), "READY");
  }

  void TearDown() override {
    // The attacker goes on: its next launch works, in a process that is not
    // npud.
    EXPECT_GT(Pid(), 0);
    EXPECT_NE(Pid(), DaemonEnvironment::daemon()->pid());
    EXPECT_TRUE(DaemonEnvironment::daemon()->Alive());
    // The bystander ran all along, with right results only.
    bystander_->WriteLine("stop");
    const std::string summary = bystander_->ReadLine(absl::Seconds(60));
    const std::vector<std::string> words = absl::StrSplit(summary, ' ');
    ASSERT_EQ(words.size(), 4u) << summary;
    EXPECT_NE(words[1], "0") << summary;
    EXPECT_EQ(words[3], "0") << summary;
    EXPECT_EQ(bystander_->Wait(), 0);
    EXPECT_EQ(aclrtFree(out_), ACL_SUCCESS);
    EXPECT_EQ(aclrtBinaryUnLoad(binary_), ACL_SUCCESS);
    EXPECT_EQ(aclrtDestroyStreamForce(stream_), ACL_SUCCESS);
  }

  // Launches `kernel` with `args` (pointers, packed) on one block and
  // returns what the synchronize says.
  template <typename... Args>
  aclError Launch(const char* kernel, Args... args) {
    return LaunchIn(binary_, kernel, args...);
  }

  // The same with a kernel of `binary`.
  template <typename... Args>
  aclError LaunchIn(aclrtBinHandle binary, const char* kernel, Args... args) {
    aclrtFuncHandle function = nullptr;
    EXPECT_EQ(aclrtBinaryGetFunction(binary, kernel, &function), ACL_SUCCESS);
    void* packed[] = {static_cast<void*>(args)..., nullptr};
    EXPECT_EQ(aclrtLaunchKernelWithHostArgs(function, 1, stream_, nullptr, packed,
                                            sizeof(void*) * sizeof...(Args), nullptr, 0),
              ACL_SUCCESS);
    return aclrtSynchronizeStream(stream_);
  }

  // {value, errno} a kernel reported.
  std::pair<int64_t, int64_t> Reported() {
    int64_t words[2] = {0, 0};
    EXPECT_EQ(aclrtMemcpy(words, sizeof(words), out_, sizeof(words), ACL_MEMCPY_DEVICE_TO_HOST),
              ACL_SUCCESS);
    return {words[0], words[1]};
  }

  int64_t Pid() {
    if (Launch("get_pid", out_) != ACL_SUCCESS) return -1;
    return Reported().first;
  }

  aclrtStream stream_ = nullptr;
  aclrtBinHandle binary_ = nullptr;
  void* out_ = nullptr;
  std::unique_ptr<ChildProcess> bystander_;
};

// The kernel hosts npud runs now.
int KernelHosts() {
  const pid_t npud = DaemonEnvironment::daemon()->pid();
  int hosts = 0;
  DIR* proc = opendir("/proc");
  while (dirent* entry = readdir(proc)) {
    std::ifstream stat(absl::StrCat("/proc/", entry->d_name, "/stat"));
    std::string line;
    if (!std::getline(stat, line)) continue;
    // pid (comm) state ppid ...
    const size_t close = line.rfind(')');
    const size_t open = line.find('(');
    if (open == std::string::npos || close == std::string::npos) continue;
    const std::string comm = line.substr(open + 1, close - open - 1);
    const std::vector<std::string> rest = absl::StrSplit(line.substr(close + 2), ' ');
    int64_t ppid = 0;
    if (rest.size() > 1 && absl::SimpleAtoi(rest[1], &ppid) && ppid == npud &&
        absl::StartsWith("npud-kernel-host", comm)) {
      ++hosts;
    }
  }
  closedir(proc);
  return hosts;
}

TEST_F(IsolationTest, ExitCostsOnlyTheLaunchingStream) {
  EXPECT_EQ(Launch("call_exit"), kVectorException);
  EXPECT_NE(DaemonEnvironment::daemon()->Log().find("exited with status 3"), std::string::npos);
}

TEST_F(IsolationTest, AbortCostsOnlyTheLaunchingStream) {
  EXPECT_EQ(Launch("call_abort"), kVectorException);
}

TEST_F(IsolationTest, KillingItselfCostsOnlyTheLaunchingStream) {
  EXPECT_EQ(Launch("kill_self"), kVectorException);
}

TEST_F(IsolationTest, WildWriteFaultsWithItsAddress) {
  EXPECT_EQ(Launch("wild_write", reinterpret_cast<void*>(uintptr_t{0x10})), kVectorException);
  const std::string log = DaemonEnvironment::daemon()->Log();
  EXPECT_NE(log.find("kernel 'wild_write'"), std::string::npos) << log;
  EXPECT_NE(log.find("memory fault at address 0x10"), std::string::npos) << log;
}

TEST_F(IsolationTest, AnotherClientsMemoryIsNotMapped) {
  auto holder = ChildProcess::Spawn({ACL_TEST_CLIENT, "hold", "4096"},
                                    {"NPUD_ADDRESS=" + DaemonEnvironment::daemon()->address()});
  ASSERT_TRUE(holder.ok()) << holder.status();
  const std::string line = (*holder)->ReadLine(absl::Seconds(30));
  uint64_t address = 0;
  ASSERT_TRUE(absl::StartsWith(line, "ADDR ") && absl::SimpleHexAtoi(line.substr(5), &address))
      << line;
  EXPECT_EQ(Launch("peek", reinterpret_cast<void*>(address), out_), kVectorException);
  (*holder)->WriteLine("check");
  EXPECT_EQ((*holder)->ReadLine(absl::Seconds(30)), "INTACT 1");
}

TEST_F(IsolationTest, KernelsCannotCreateFiles) {
  const std::string path = absl::StrCat(::testing::TempDir(), "/npud-kernel-file-", getpid());
  void* name = nullptr;
  ASSERT_EQ(aclrtMalloc(&name, 4096, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemcpy(name, 4096, path.c_str(), path.size() + 1, ACL_MEMCPY_HOST_TO_DEVICE),
            ACL_SUCCESS);
  EXPECT_EQ(Launch("create_file", name, out_), ACL_SUCCESS);
  EXPECT_EQ(Reported(), std::make_pair(int64_t{-1}, int64_t{EPERM}));
  struct stat info;
  EXPECT_NE(stat(path.c_str(), &info), 0) << path << " was created";
  EXPECT_EQ(aclrtFree(name), ACL_SUCCESS);
}

TEST_F(IsolationTest, KernelsCannotRunPrograms) {
  EXPECT_EQ(Launch("run_shell", out_), ACL_SUCCESS);
  EXPECT_EQ(Reported(), std::make_pair(int64_t{-1}, int64_t{EPERM}));
}

TEST_F(IsolationTest, KernelsCannotOpenSockets) {
  EXPECT_EQ(Launch("open_socket", out_), ACL_SUCCESS);
  EXPECT_EQ(Reported(), std::make_pair(int64_t{-1}, int64_t{EPERM}));
}

TEST_F(IsolationTest, KernelsCannotFork) {
  EXPECT_EQ(Launch("call_fork", out_), ACL_SUCCESS);
  EXPECT_EQ(Reported(), std::make_pair(int64_t{-1}, int64_t{EPERM}));
}

TEST_F(IsolationTest, TimeoutsAreWholeIntervals) {
  uint64_t interval = 0;
  ASSERT_EQ(aclrtGetOpTimeOutInterval(&interval), ACL_SUCCESS);
  ASSERT_GT(interval, 0u);
  uint64_t actual = 0;
  EXPECT_EQ(aclrtSetOpExecuteTimeOutV2(interval + 1, &actual), ACL_SUCCESS);
  EXPECT_EQ(actual, 2 * interval);
  uint32_t ms = 0;
  EXPECT_EQ(aclrtSetOpExecuteTimeOut(1), ACL_SUCCESS);
  EXPECT_EQ(aclrtGetOpExecuteTimeout(&ms), ACL_SUCCESS);
  EXPECT_EQ(ms, (1'000'000 + interval - 1) / interval * interval / 1000);
  EXPECT_EQ(aclrtSetOpExecuteTimeOut(100000), ACL_SUCCESS);
  EXPECT_EQ(aclrtGetOpExecuteTimeout(&ms), ACL_SUCCESS);
  EXPECT_EQ(ms, 254 * interval / 1000);
  EXPECT_EQ(aclrtSetOpExecuteTimeOut(0), ACL_SUCCESS);
  EXPECT_EQ(aclrtGetOpExecuteTimeout(&ms), ACL_SUCCESS);
  EXPECT_EQ(ms, 60000u);
  EXPECT_EQ(aclrtGetOpExecuteTimeout(nullptr), ACL_ERROR_INVALID_PARAM);
}

TEST_F(IsolationTest, SpinningPastTheTimeoutCostsOnlyTheLaunchingStream) {
  ASSERT_EQ(aclrtSetOpExecuteTimeOutWithMs(500), ACL_SUCCESS);
  const absl::Time start = absl::Now();
  EXPECT_EQ(Launch("spin_forever"), 507034);  // ACL_ERROR_RT_VECTOR_CORE_TIMEOUT
  EXPECT_LT(absl::Now() - start, absl::Seconds(30));
  EXPECT_NE(DaemonEnvironment::daemon()->Log().find("ran past its execute timeout"),
            std::string::npos);
  ASSERT_EQ(aclrtSetOpExecuteTimeOut(0), ACL_SUCCESS);
}

TEST_F(IsolationTest, AClientKilledWhileItsKernelRunsLeavesNoHostBehind) {
  const int before = KernelHosts();
  auto spinner = ChildProcess::Spawn({ACL_TEST_CLIENT, "spin", E2E_KERNELS_PATH, "60000"},
                                     {"NPUD_ADDRESS=" + DaemonEnvironment::daemon()->address()});
  ASSERT_TRUE(spinner.ok()) << spinner.status();
  ASSERT_EQ((*spinner)->ReadLine(absl::Seconds(30)), "LAUNCHED");
  EXPECT_EQ(KernelHosts(), before + 1);
  (*spinner)->Kill(SIGKILL);
  (*spinner)->Wait();
  const absl::Time deadline = absl::Now() + absl::Seconds(20);
  while (KernelHosts() > before && absl::Now() < deadline) absl::SleepFor(absl::Milliseconds(20));
  EXPECT_EQ(KernelHosts(), before);
}

// A second client that holds `bytes` of device memory filled with 0x3C
// and says whether they are still intact when asked.
class Holder {
 public:
  explicit Holder(size_t bytes) {
    auto holder = ChildProcess::Spawn({ACL_TEST_CLIENT, "hold", std::to_string(bytes)},
                                      {"NPUD_ADDRESS=" + DaemonEnvironment::daemon()->address()});
    EXPECT_TRUE(holder.ok()) << holder.status();
    if (!holder.ok()) return;
    process_ = *std::move(holder);
    const std::string line = process_->ReadLine(absl::Seconds(30));
    EXPECT_TRUE(absl::StartsWith(line, "ADDR ") && absl::SimpleHexAtoi(line.substr(5), &address_))
        << line;
  }
  bool Intact() {
    if (process_ == nullptr) return false;
    process_->WriteLine("check");
    return process_->ReadLine(absl::Seconds(30)) == "INTACT 1";
  }
  uint64_t address() const { return address_; }

 private:
  std::unique_ptr<ChildProcess> process_;
  uint64_t address_ = 0;
};

constexpr uint64_t kPage = 4096;

// A second client with two allocations of `bytes` filled with 0x3C, shared
// and kept: it exports parts of shared when asked, and says whether kept and
// every byte of shared outside the pages of its accepted exports are still
// intact.
class PartExporter {
 public:
  explicit PartExporter(size_t bytes) {
    auto exporter = ChildProcess::Spawn({ACL_TEST_CLIENT, "export-part", std::to_string(bytes)},
                                        {"NPUD_ADDRESS=" + DaemonEnvironment::daemon()->address()});
    EXPECT_TRUE(exporter.ok()) << exporter.status();
    if (!exporter.ok()) return;
    process_ = *std::move(exporter);
    const std::string line = process_->ReadLine(absl::Seconds(30));
    const std::vector<std::string> words = absl::StrSplit(line, ' ');
    EXPECT_TRUE(words.size() == 3 && words[0] == "ADDR" &&
                absl::SimpleHexAtoi(words[1], &shared_) && absl::SimpleHexAtoi(words[2], &kept_))
        << line;
  }
  // Exports [shared + offset, + size): "KEY <key>" or "FAILED <code>".
  std::string Export(uint64_t offset, uint64_t size) {
    if (process_ == nullptr) return "";
    process_->WriteLine(absl::StrCat("export ", offset, " ", size));
    return process_->ReadLine(absl::Seconds(30));
  }
  bool Intact() {
    if (process_ == nullptr) return false;
    process_->WriteLine("check");
    return process_->ReadLine(absl::Seconds(30)) == "INTACT 1";
  }
  uint64_t shared() const { return shared_; }
  uint64_t kept() const { return kept_; }

 private:
  std::unique_ptr<ChildProcess> process_;
  uint64_t shared_ = 0;
  uint64_t kept_ = 0;
};

void* At(uint64_t address) { return reinterpret_cast<void*>(address); }

TEST_F(IsolationTest, DescriptorScanFindsNoMemoryOfAnyoneElse) {
  Holder holder(1 << 20);
  // One byte of the victims' pattern; its page is not all pattern.
  void* victim = nullptr;
  ASSERT_EQ(aclrtMalloc(&victim, 4096, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  const unsigned char pattern = 0x3C;
  ASSERT_EQ(aclrtMemcpy(victim, 1, &pattern, 1, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
  EXPECT_EQ(Launch("scan_descriptors", victim, out_), ACL_SUCCESS);
  // {memory files the kernel could map, pages of the victim it overwrote}
  EXPECT_EQ(Reported(), std::make_pair(int64_t{0}, int64_t{0}));
  EXPECT_TRUE(holder.Intact());
  EXPECT_EQ(aclrtFree(victim), ACL_SUCCESS);
}

TEST_F(IsolationTest, AnImportReachesTheExportedPagesAndNothingElse) {
  PartExporter victim(3 * kPage);
  // Not page aligned at either end.
  const std::string exported = victim.Export(100, 3 * kPage - 200);
  ASSERT_TRUE(absl::StartsWith(exported, "KEY ")) << exported;
  const std::string key = exported.substr(4);
  void* imported = nullptr;
  ASSERT_EQ(aclrtIpcMemImportByKey(&imported, key.c_str(), 0), ACL_SUCCESS);
  ASSERT_EQ(imported, At(victim.shared() + 100));
  // The exported bytes, read and written.
  EXPECT_EQ(Launch("peek", imported, out_), ACL_SUCCESS);
  EXPECT_EQ(Reported().first, int64_t{0x3C3C3C3C3C3C3C3C});
  EXPECT_EQ(Launch("wild_write", imported), ACL_SUCCESS);
  int written = 0;
  ASSERT_EQ(
      aclrtMemcpy(&written, sizeof(written), imported, sizeof(written), ACL_MEMCPY_DEVICE_TO_HOST),
      ACL_SUCCESS);
  EXPECT_EQ(written, 1);
  // Kernels map whole pages: the rest of the first and the last page too.
  EXPECT_EQ(Launch("peek", At(victim.shared()), out_), ACL_SUCCESS);
  EXPECT_EQ(Launch("peek", At(victim.shared() + 3 * kPage - 8), out_), ACL_SUCCESS);
  // Not the page after the exported ones, nor the exporter's other memory.
  EXPECT_EQ(Launch("peek", At(victim.shared() + 3 * kPage), out_), kVectorException);
  EXPECT_EQ(Launch("peek", At(victim.kept()), out_), kVectorException);
  EXPECT_TRUE(victim.Intact());
  EXPECT_EQ(aclrtIpcMemClose(key.c_str()), ACL_SUCCESS);
}

TEST_F(IsolationTest, AHostKeepingItsDescriptorsReachesOnlyTheExportedPages) {
  PartExporter victim(3 * kPage);
  // The middle page alone cannot be shared: its importer's host would be
  // handed the memory file of all three.
  EXPECT_EQ(victim.Export(kPage, kPage), "FAILED 207000");
  EXPECT_EQ(victim.Export(0, 1), "FAILED 207000");
  const std::string exported = victim.Export(100, 3 * kPage - 200);
  ASSERT_TRUE(absl::StartsWith(exported, "KEY ")) << exported;
  const std::string key = exported.substr(4);
  // A host that closes none of the descriptors npud hands it.
  aclrtBinHandle keeper = nullptr;
  ASSERT_EQ(aclrtBinaryLoadFromFile(GRANT_KEEPER_PATH, nullptr, &keeper), ACL_SUCCESS);
  ASSERT_EQ(LaunchIn(keeper, "descriptors_kept", out_), ACL_SUCCESS);
  ASSERT_EQ(Reported(), std::make_pair(int64_t{0}, int64_t{0}))
      << "a constructor can no longer keep the host's descriptors; this attack needs another way";
  void* imported = nullptr;
  ASSERT_EQ(aclrtIpcMemImportByKey(&imported, key.c_str(), 0), ACL_SUCCESS);
  void* pattern = nullptr;
  ASSERT_EQ(aclrtMalloc(&pattern, kPage, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  const unsigned char victim_byte = 0x3C;
  ASSERT_EQ(aclrtMemcpy(pattern, 1, &victim_byte, 1, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
  // Maps every memory file the host was handed, whole, and overwrites each
  // page of the victim's pattern: the import's file holds its three pages.
  EXPECT_EQ(Launch("scan_descriptors", pattern, out_), ACL_SUCCESS);
  const auto [files, pages] = Reported();
  EXPECT_GT(files, 0);
  EXPECT_EQ(pages, 3);
  // That host goes before its descriptors meet a withdrawal.
  EXPECT_EQ(Launch("kill_self"), kVectorException);
  EXPECT_EQ(aclrtBinaryUnLoad(keeper), ACL_SUCCESS);
  EXPECT_EQ(aclrtIpcMemClose(key.c_str()), ACL_SUCCESS);
  EXPECT_EQ(aclrtFree(pattern), ACL_SUCCESS);
  EXPECT_TRUE(victim.Intact());
}

TEST_F(IsolationTest, AGrantCannotGrowOverTheMemoryBehindIt) {
  Holder holder(256 << 20);
  void* grant = nullptr;
  ASSERT_EQ(aclrtMalloc(&grant, 4096, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  EXPECT_EQ(Launch("grow_grant", grant, out_), ACL_SUCCESS);
  EXPECT_EQ(Reported(), std::make_pair(int64_t{-1}, int64_t{EPERM}));
  EXPECT_TRUE(holder.Intact());
  EXPECT_EQ(aclrtFree(grant), ACL_SUCCESS);
}

TEST_F(IsolationTest, AGrantCannotBeDuplicatedToOutliveItsWithdrawal) {
  void* grant = nullptr;
  ASSERT_EQ(aclrtMalloc(&grant, 4096, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  EXPECT_EQ(Launch("duplicate_grant", grant, out_), ACL_SUCCESS);
  EXPECT_EQ(Reported(), std::make_pair(int64_t{-1}, int64_t{EPERM}));
  // The next owner of those addresses keeps its bytes.
  EXPECT_EQ(aclrtFree(grant), ACL_SUCCESS);
  Holder holder(4096);
  EXPECT_TRUE(holder.Intact());
}

TEST_F(IsolationTest, ModuleConstructorsFindNoSecretsToRead) {
  // A file only its owner may read, as npud's token and key files are.
  const std::string secret =
      absl::StrCat("npud-secret-", getpid(), "-", absl::ToUnixNanos(absl::Now()));
  const char* const path = "/tmp/npud-isolation-secret";
  unlink(path);
  {
    std::ofstream file(path);
    file << secret;
  }
  ASSERT_EQ(chmod(path, 0600), 0);
  // A new host loads the binary: its constructor runs with the file there.
  aclrtBinHandle again = nullptr;
  ASSERT_EQ(aclrtBinaryLoadFromFile(HostileKernelsPath(), nullptr, &again), ACL_SUCCESS);
  aclrtFuncHandle report = nullptr;
  ASSERT_EQ(aclrtBinaryGetFunction(again, "constructor_report", &report), ACL_SUCCESS);
  void* args[] = {out_};
  ASSERT_EQ(
      aclrtLaunchKernelWithHostArgs(report, 1, stream_, nullptr, args, sizeof(args), nullptr, 0),
      ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  struct {
    int64_t secret_bytes, secret_errno, shadow_bytes, shadow_errno, npud_mem_fd, npud_mem_errno,
        shared_map, shared_map_errno;
    char secret[64];
  } loot;
  ASSERT_EQ(aclrtMemcpy(&loot, sizeof(loot), out_, sizeof(loot), ACL_MEMCPY_DEVICE_TO_HOST),
            ACL_SUCCESS);
  EXPECT_EQ(loot.secret_bytes, -1);
  EXPECT_EQ(loot.shadow_bytes, -1);
  EXPECT_EQ(loot.npud_mem_fd, -1);
  EXPECT_EQ(loot.shared_map, -1);
  EXPECT_EQ(loot.shared_map_errno, EPERM);
  EXPECT_EQ(std::string(loot.secret, strnlen(loot.secret, sizeof(loot.secret))), "");
  EXPECT_EQ(DaemonEnvironment::daemon()->Log().find(secret), std::string::npos);
  EXPECT_EQ(aclrtBinaryUnLoad(again), ACL_SUCCESS);
  unlink(path);
}

TEST_F(IsolationTest, KernelOutputCannotPassForNpudsOwnLog) {
  const size_t before = DaemonEnvironment::daemon()->Log().size();
  const uint64_t lines = 600000;  // about 50 MiB
  ASSERT_EQ(aclrtMemcpy(out_, sizeof(lines), &lines, sizeof(lines), ACL_MEMCPY_HOST_TO_DEVICE),
            ACL_SUCCESS);
  EXPECT_EQ(Launch("forge_log", out_), ACL_SUCCESS);
  const std::string log = DaemonEnvironment::daemon()->Log();
  for (absl::string_view line : absl::StrSplit(log, '\n')) {
    if (!absl::StrContains(line, "FORGED-BY-KERNEL")) continue;
    EXPECT_FALSE(absl::StartsWith(line, "[2026-01-01")) << line;
    EXPECT_TRUE(absl::StrContains(line, "kernel output: ")) << line;
  }
  EXPECT_LT(log.size() - before, size_t{2} << 20);
}

TEST_F(IsolationTest, KernelsGetNoMemoryThatNoLimitCounts) {
  EXPECT_EQ(Launch("shared_memory", out_), ACL_SUCCESS);
  EXPECT_EQ(Reported(), std::make_pair(int64_t{-1}, int64_t{EPERM}));
  EXPECT_EQ(Launch("memory_file", out_), ACL_SUCCESS);
  EXPECT_EQ(Reported(), std::make_pair(int64_t{-1}, int64_t{EPERM}));
}

TEST_F(IsolationTest, ForgedControlMessagesEndOnlyTheForgersHost) {
  // npud believes none of it and ends the host: the launch fails.
  EXPECT_EQ(Launch("forge_control"), kVectorException);
  const std::string log = DaemonEnvironment::daemon()->Log();
  EXPECT_TRUE(absl::StrContains(log, "did not ask for") ||
              absl::StrContains(log, "broke the protocol"))
      << log;
}

TEST_F(IsolationTest, LoadingBinaryAfterBinaryKeepsFewHostsAlive) {
  const int before = KernelHosts();
  // Each load starts a host; a spinning launch keeps it alive for a while.
  ASSERT_EQ(aclrtSetOpExecuteTimeOutWithMs(1000), ACL_SUCCESS);
  std::vector<aclrtBinHandle> binaries;
  std::vector<aclrtStream> streams;
  int refused = 0, most = 0;
  // Sanitized hosts start slowly; fewer loads still pass the cap many times.
  const int loads = NPUD_ADDRESS_SANITIZER ? 50 : 200;
  for (int i = 0; i < loads; ++i) {
    aclrtBinHandle binary = nullptr;
    const aclError loaded = aclrtBinaryLoadFromFile(HostileKernelsPath(), nullptr, &binary);
    if (loaded != ACL_SUCCESS) {
      EXPECT_EQ(loaded, 207005);  // ACL_ERROR_RT_RESOURCE_ALLOC_FAIL
      ++refused;
    } else {
      binaries.push_back(binary);
      aclrtStream stream = nullptr;
      ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
      streams.push_back(stream);
      aclrtFuncHandle spin = nullptr;
      ASSERT_EQ(aclrtBinaryGetFunction(binary, "spin_forever", &spin), ACL_SUCCESS);
      ASSERT_EQ(aclrtLaunchKernelWithHostArgs(spin, 1, stream, nullptr, nullptr, 0, nullptr, 0),
                ACL_SUCCESS);
    }
    most = std::max(most, KernelHosts());
  }
  EXPECT_LE(most, before + 4);
  EXPECT_GT(refused, 0);
  for (aclrtStream stream : streams) EXPECT_EQ(aclrtDestroyStreamForce(stream), ACL_SUCCESS);
  for (aclrtBinHandle binary : binaries) EXPECT_EQ(aclrtBinaryUnLoad(binary), ACL_SUCCESS);
  ASSERT_EQ(aclrtSetOpExecuteTimeOut(0), ACL_SUCCESS);
}

}  // namespace

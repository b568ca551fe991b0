// Sharing between real client processes through one real npud (unix socket
// or TCP, as NPUD_TEST_TRANSPORT says): IPC memory and physical memory with
// and without pid allow-lists, an exporter killed mid-run, IPC events, and a
// ring of 16 processes reading each other's memory.

#include <signal.h>

#include <memory>
#include <string>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "absl/time/clock.h"
#include "gtest/gtest.h"
#include "tests/e2e/npud_process.h"

namespace {

using npud::testing::ChildProcess;
using npud::testing::NpudProcess;
using npud::testing::RunProcess;

constexpr absl::Duration kLine = absl::Seconds(30);

class IpcTest : public ::testing::Test {
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

  std::unique_ptr<ChildProcess> Spawn(const std::vector<std::string>& args) {
    std::vector<std::string> argv = {ACL_TEST_CLIENT};
    argv.insert(argv.end(), args.begin(), args.end());
    auto child = ChildProcess::Spawn(argv, env_);
    EXPECT_TRUE(child.ok()) << child.status();
    return child.ok() ? *std::move(child) : nullptr;
  }

  // The word after `prefix` on the child's next line.
  static std::string Field(ChildProcess& child, const std::string& prefix) {
    const std::string line = child.ReadLine(kLine);
    EXPECT_EQ(line.rfind(prefix + " ", 0), 0u)
        << "expected '" << prefix << "', got '" << line << "'";
    return line.size() > prefix.size() ? line.substr(prefix.size() + 1) : "";
  }

  // Columns of the npuctl sessions row of process `pid`.
  std::vector<std::string> SessionRow(const std::string& pid) {
    std::string out;
    EXPECT_EQ(
        RunProcess({NPUCTL_BINARY, "--address=" + daemon_->grpc_address(), "sessions"}, {}, &out),
        0);
    for (absl::string_view line : absl::StrSplit(out, '\n')) {
      std::vector<std::string> fields = absl::StrSplit(line, ' ', absl::SkipEmpty());
      if (fields.size() > 8 && fields[1] == pid) return fields;
    }
    ADD_FAILURE() << "no session of pid " << pid << " in:\n" << out;
    return {};
  }

  uint64_t FreeBytes() {
    std::string out;
    EXPECT_EQ(RunProcess({ACL_TEST_CLIENT, "meminfo"}, env_, &out), 0);
    uint64_t free_bytes = 0;
    EXPECT_TRUE(absl::SimpleAtoi(absl::StripAsciiWhitespace(out.substr(5)), &free_bytes)) << out;
    return free_bytes;
  }

  std::unique_ptr<NpudProcess> daemon_;
  std::vector<std::string> env_;
};

constexpr uint64_t kBytes = 65536;

// The same sharing checks for device memory shared by IPC key (false) and
// for physical memory shared by handle and mapped at reserved addresses
// (true).
class SharingTest : public IpcTest, public ::testing::WithParamInterface<bool> {
 protected:
  std::string Export() const { return GetParam() ? "phys-export" : "export"; }
  std::string Import() const { return GetParam() ? "phys-import" : "import"; }
};

INSTANTIATE_TEST_SUITE_P(IpcKeyAndPhysicalHandle, SharingTest, ::testing::Bool(),
                         [](const ::testing::TestParamInfo<bool>& info) {
                           return info.param ? "Physical" : "IpcKey";
                         });

TEST_P(SharingTest, AllowListDecidesWhoImports) {
  const uint64_t before = FreeBytes();
  auto owner = Spawn({Export(), std::to_string(kBytes), "0"});
  const std::string key = Field(*owner, "KEY");
  auto allowed = Spawn({Import(), key, std::to_string(kBytes)});
  auto stranger = Spawn({Import(), key, std::to_string(kBytes)});
  const std::string allowed_pid = Field(*allowed, "PID");
  Field(*stranger, "PID");

  owner->WriteLine("allow " + allowed_pid);
  EXPECT_EQ(Field(*owner, "CODE"), "0");
  allowed->WriteLine("go");
  stranger->WriteLine("go");
  EXPECT_EQ(Field(*allowed, "CODE"), "0");
  EXPECT_EQ(Field(*stranger, "CODE"), "207006");  // ACL_ERROR_RT_NO_PERMISSION

  // The admin view shows who shares what: columns 7 and 8 count exports
  // and imports.
  const std::vector<std::string> importer_row = SessionRow(allowed_pid);
  ASSERT_GT(importer_row.size(), 8u);
  EXPECT_EQ(importer_row[7], "0");
  EXPECT_EQ(importer_row[8], "1");
  const std::vector<std::string> owner_row = SessionRow(std::to_string(owner->pid()));
  ASSERT_GT(owner_row.size(), 8u);
  EXPECT_EQ(owner_row[7], "1");
  EXPECT_EQ(owner_row[8], "0");

  // The importer's writes are the exporter's data, and the other way round.
  allowed->WriteLine("sum");
  EXPECT_EQ(Field(*allowed, "SUM"), std::to_string(0x3C * kBytes));
  Field(*allowed, "CODE");
  allowed->WriteLine("write 90");
  EXPECT_EQ(Field(*allowed, "CODE"), "0");
  owner->WriteLine("sum");
  EXPECT_EQ(Field(*owner, "SUM"), std::to_string(90 * kBytes));

  // The exporter frees its memory; the importer keeps it until it closes.
  owner->WriteLine("free");
  EXPECT_EQ(Field(*owner, "CODE"), "0");
  allowed->WriteLine("sum");
  EXPECT_EQ(Field(*allowed, "SUM"), std::to_string(90 * kBytes));
  Field(*allowed, "CODE");
  allowed->WriteLine("close");
  EXPECT_EQ(Field(*allowed, "CODE"), "0");
  owner->WriteLine("close");
  EXPECT_EQ(Field(*owner, "CODE"), "0");
  owner->CloseStdin();
  allowed->CloseStdin();
  stranger->CloseStdin();
  EXPECT_EQ(owner->Wait(), 0);
  EXPECT_EQ(allowed->Wait(), 0);
  EXPECT_EQ(stranger->Wait(), 0);
  EXPECT_EQ(FreeBytes(), before);
}

TEST_P(SharingTest, DisabledPidCheckLetsAnyProcessImport) {
  auto owner = Spawn({Export(), std::to_string(kBytes), "1"});
  const std::string key = Field(*owner, "KEY");
  auto importer = Spawn({Import(), key, std::to_string(kBytes)});
  Field(*importer, "PID");
  importer->WriteLine("go");
  EXPECT_EQ(Field(*importer, "CODE"), "0");
  importer->WriteLine("sum");
  EXPECT_EQ(Field(*importer, "SUM"), std::to_string(0x3C * kBytes));
  // A key this daemon never made.
  const std::string foreign = GetParam() ? "12345" : "npud-mem-0000000000000000-1";
  auto lost = Spawn({Import(), foreign, std::to_string(kBytes)});
  Field(*lost, "PID");
  lost->WriteLine("go");
  EXPECT_EQ(Field(*lost, "CODE"), "107000");
}

TEST_P(SharingTest, KilledExporterRevokesItsMemory) {
  const uint64_t before = FreeBytes();
  auto owner = Spawn({Export(), std::to_string(8 << 20), "1"});
  const std::string key = Field(*owner, "KEY");
  auto importer = Spawn({Import(), key, std::to_string(8 << 20)});
  Field(*importer, "PID");
  importer->WriteLine("go");
  ASSERT_EQ(Field(*importer, "CODE"), "0");

  owner->Kill(SIGKILL);
  EXPECT_EQ(owner->Wait(), -SIGKILL);
  // Once the daemon has noticed, the importer gets a clear error instead
  // of memory that may already belong to someone else.
  std::string code;
  const absl::Time deadline = absl::Now() + absl::Seconds(10);
  do {
    importer->WriteLine("write 1");
    code = Field(*importer, "CODE");
  } while (code == "0" && absl::Now() < deadline);
  EXPECT_EQ(code, "507022");  // ACL_ERROR_RT_IPC_ERROR
  importer->CloseStdin();
  EXPECT_EQ(importer->Wait(), 0);
  EXPECT_EQ(FreeBytes(), before);
  // And everyone else is still served.
  EXPECT_EQ(RunProcess({ACL_TEST_CLIENT, "flows"}, env_), 0);
}

// CANN's memory/8 sample: the exporter launches the kernel that fills the
// memory and exports at once; the importer reads right after importing.
// The import waits for the exporter's earlier work, so the read sees it.
TEST_F(IpcTest, AnImportSeesTheWorkItsExporterQueuedBeforeExporting) {
  auto owner = Spawn({"phys-export-spin", E2E_KERNELS_PATH, "300"});
  const std::string key = Field(*owner, "KEY");
  auto importer = Spawn({"phys-import", key, "4096"});
  Field(*importer, "PID");
  importer->WriteLine("go");
  EXPECT_EQ(Field(*importer, "CODE"), "0");
  importer->WriteLine("sum");
  EXPECT_EQ(Field(*importer, "SUM"), "1") << "the kernel's write is missing";
  EXPECT_EQ(Field(*importer, "CODE"), "0");
  importer->WriteLine("close");
  EXPECT_EQ(Field(*importer, "CODE"), "0");
  importer->CloseStdin();
  owner->CloseStdin();
  EXPECT_EQ(importer->Wait(), 0);
  EXPECT_EQ(owner->Wait(), 0);
}

// CANN's memory/10 sample: the importer launches the kernel that reads the
// memory, both close their side, and the exporter frees it and exits while
// that kernel is still queued. The launch keeps the memory it may touch
// until it has run.
TEST_F(IpcTest, AnExporterLeavingDoesNotPullMemoryFromAQueuedKernel) {
  constexpr size_t kBytes = 4096;
  auto owner = Spawn({"export", std::to_string(kBytes), "1"});
  const std::string key = Field(*owner, "KEY");
  auto importer = Spawn({"import", key, std::to_string(kBytes)});
  Field(*importer, "PID");
  importer->WriteLine("go");
  ASSERT_EQ(Field(*importer, "CODE"), "0");
  importer->WriteLine(std::string("read-later ") + E2E_KERNELS_PATH + " 1500");
  ASSERT_EQ(Field(*importer, "CODE"), "0");
  importer->WriteLine("close");
  EXPECT_EQ(Field(*importer, "CODE"), "0");
  owner->WriteLine("close");
  EXPECT_EQ(Field(*owner, "CODE"), "0");
  owner->WriteLine("free");
  EXPECT_EQ(Field(*owner, "CODE"), "0");
  owner->CloseStdin();
  EXPECT_EQ(owner->Wait(), 0);  // its session ends: what it exported goes
  importer->WriteLine("read-result");
  // Each 0x3C3C3C3C float doubled is 0x3CBC3C3C: bytes summing to 368.
  EXPECT_EQ(Field(*importer, "SUM"), std::to_string(368 * kBytes / 4))
      << "the kernel did not read the exported bytes";
  EXPECT_EQ(Field(*importer, "CODE"), "0");
  importer->CloseStdin();
  EXPECT_EQ(importer->Wait(), 0);
}

TEST_F(IpcTest, NotifyRecordedOnOneDeviceWakesAWaiterInAnotherProcess) {
  auto waiter = Spawn({"notify-waiter", "0", "0"});
  const std::string key = Field(*waiter, "KEY");
  auto recorder = Spawn({"notify-recorder", key, "1"});
  auto stranger = Spawn({"notify-recorder", key, "1"});
  const std::string recorder_pid = Field(*recorder, "PID");
  Field(*stranger, "PID");
  waiter->WriteLine("allow " + recorder_pid);
  EXPECT_EQ(Field(*waiter, "CODE"), "0");
  recorder->WriteLine("go");
  stranger->WriteLine("go");
  ASSERT_EQ(Field(*recorder, "CODE"), "0");
  EXPECT_EQ(Field(*stranger, "CODE"), "207006");  // ACL_ERROR_RT_NO_PERMISSION

  // The waiting stream really blocks until the other process records.
  waiter->WriteLine("wait");
  EXPECT_EQ(waiter->ReadLine(absl::Milliseconds(300)), "") << "woke without a record";
  recorder->WriteLine("record");
  EXPECT_EQ(Field(*recorder, "CODE"), "0");
  EXPECT_EQ(Field(*waiter, "WOKEN"), "0");
  // A record before the wait is kept, and the wait consumes it.
  recorder->WriteLine("record");
  EXPECT_EQ(Field(*recorder, "CODE"), "0");
  waiter->WriteLine("wait");
  EXPECT_EQ(Field(*waiter, "WOKEN"), "0");
  waiter->WriteLine("wait");
  EXPECT_EQ(waiter->ReadLine(absl::Milliseconds(300)), "") << "the record was consumed";
  recorder->WriteLine("record");
  EXPECT_EQ(Field(*waiter, "WOKEN"), "0");
}

TEST_F(IpcTest, EventRecordedInOneProcessOrdersAnother) {
  auto producer = Spawn({"event-producer", "4096"});
  const std::string keys = Field(*producer, "KEYS");
  const std::vector<std::string> parts = absl::StrSplit(keys, ' ');
  ASSERT_EQ(parts.size(), 2u) << keys;
  std::string out;
  ASSERT_EQ(RunProcess({ACL_TEST_CLIENT, "event-consumer", parts[0], parts[1]}, env_, &out), 0);
  // Without the wait the consumer would read the 0 written before the slow
  // work.
  EXPECT_EQ(out, "VALUE 77\n");
  producer->CloseStdin();
  EXPECT_EQ(producer->Wait(), 0);
}

TEST_F(IpcTest, SixteenProcessesReadEachOthersMemoryInARing) {
  constexpr int kProcesses = 16;
  const uint64_t before = FreeBytes();
  std::vector<std::unique_ptr<ChildProcess>> ring;
  std::vector<std::string> keys;
  for (int i = 0; i < kProcesses; ++i) {
    ring.push_back(Spawn({"ring", std::to_string(kProcesses), std::to_string(i), "1500"}));
  }
  for (auto& process : ring) keys.push_back(Field(*process, "KEY"));
  for (int i = 0; i < kProcesses; ++i) ring[i]->WriteLine("peer " + keys[(i + 1) % kProcesses]);
  for (auto& process : ring) {
    int rounds = 0;
    EXPECT_TRUE(absl::SimpleAtoi(Field(*process, "ROUNDS"), &rounds));
    EXPECT_GE(rounds, 1);
  }
  for (auto& process : ring) process->CloseStdin();
  for (auto& process : ring) EXPECT_EQ(process->Wait(), 0);
  EXPECT_EQ(FreeBytes(), before);
}

}  // namespace

// Process snapshots end to end (aclrtSnapShot*): the RUNNING -> LOCKED ->
// BACKED_UP state machine and its error codes, stage callbacks per device,
// runtime calls held while locked, and a restore that brings back the bytes
// another process wrote into the locked process's memory after the backup.

#include <unistd.h>

#include <atomic>
#include <cstdint>
#include <string>
#include <thread>
#include <vector>

#include "absl/synchronization/mutex.h"
#include "absl/time/clock.h"
#include "acl/acl.h"
#include "gtest/gtest.h"
#include "tests/e2e/daemon_environment.h"

namespace {

const auto* const kEnvironment =
    ::testing::AddGlobalTestEnvironment(new npud::testing::DaemonEnvironment);

using npud::testing::ChildProcess;
using npud::testing::DaemonEnvironment;

const int kPid = static_cast<int>(getpid());

TEST(SnapshotTest, StepsFollowTheStateMachine) {
  // Another process, or a reserved argument set: refused before any step.
  EXPECT_EQ(aclrtSnapShotProcessLock(kPid + 1, nullptr), ACL_ERROR_INVALID_PARAM);
  int reserved = 0;
  EXPECT_EQ(aclrtSnapShotProcessLock(kPid, &reserved), ACL_ERROR_INVALID_PARAM);
  aclrtSnapShotBackupArgs backup_args{};
  EXPECT_EQ(aclrtSnapShotProcessBackup(kPid, &backup_args), ACL_ERROR_INVALID_PARAM);
  aclrtSnapShotRestoreArgs restore_args{};
  EXPECT_EQ(aclrtSnapShotProcessRestore(kPid, &restore_args), ACL_ERROR_INVALID_PARAM);

  // RUNNING: only Lock.
  EXPECT_EQ(aclrtSnapShotProcessUnlock(kPid, nullptr), ACL_ERROR_SNAPSHOT_UNLOCK_FAILED);
  EXPECT_EQ(aclrtSnapShotProcessBackup(kPid, nullptr), ACL_ERROR_SNAPSHOT_BACKUP_FAILED);
  EXPECT_EQ(aclrtSnapShotProcessRestore(kPid, nullptr), ACL_ERROR_SNAPSHOT_RESTORE_FAILED);
  ASSERT_EQ(aclrtSnapShotProcessLock(kPid, nullptr), ACL_SUCCESS);
  // LOCKED: Backup or Unlock.
  EXPECT_EQ(aclrtSnapShotProcessLock(kPid, nullptr), ACL_ERROR_SNAPSHOT_LOCK_FAILED);
  EXPECT_EQ(aclrtSnapShotProcessRestore(kPid, nullptr), ACL_ERROR_SNAPSHOT_RESTORE_FAILED);
  ASSERT_EQ(aclrtSnapShotProcessBackup(kPid, nullptr), ACL_SUCCESS);
  // BACKED_UP: Restore or Unlock.
  EXPECT_EQ(aclrtSnapShotProcessBackup(kPid, nullptr), ACL_ERROR_SNAPSHOT_BACKUP_FAILED);
  EXPECT_EQ(aclrtSnapShotProcessLock(kPid, nullptr), ACL_ERROR_SNAPSHOT_LOCK_FAILED);
  ASSERT_EQ(aclrtSnapShotProcessRestore(kPid, nullptr), ACL_SUCCESS);
  // LOCKED again: the backup is used up.
  EXPECT_EQ(aclrtSnapShotProcessRestore(kPid, nullptr), ACL_ERROR_SNAPSHOT_RESTORE_FAILED);
  ASSERT_EQ(aclrtSnapShotProcessUnlock(kPid, nullptr), ACL_SUCCESS);
  EXPECT_EQ(aclrtSnapShotProcessUnlock(kPid, nullptr), ACL_ERROR_SNAPSHOT_UNLOCK_FAILED);

  // Unlock from BACKED_UP too.
  ASSERT_EQ(aclrtSnapShotProcessLock(kPid, nullptr), ACL_SUCCESS);
  ASSERT_EQ(aclrtSnapShotProcessBackup(kPid, nullptr), ACL_SUCCESS);
  EXPECT_EQ(aclrtSnapShotProcessUnlock(kPid, nullptr), ACL_SUCCESS);
}

// What the callbacks saw: the stage letter (args) and the device, in order.
absl::Mutex calls_mu;
std::string calls ABSL_GUARDED_BY(calls_mu);

uint32_t Note(int32_t device, void* args) {
  absl::MutexLock lock(&calls_mu);
  calls += *static_cast<const char*>(args);
  calls += std::to_string(device);
  calls += ' ';
  return 0;
}

uint32_t Refuse(int32_t, void*) { return 5; }

std::string TakeCalls() {
  absl::MutexLock lock(&calls_mu);
  std::string taken;
  taken.swap(calls);
  return taken;
}

TEST(SnapshotTest, CallbacksRunAroundEachStepForEachDeviceSet) {
  uint32_t devices = 0;
  ASSERT_EQ(aclrtGetDeviceCount(&devices), ACL_SUCCESS);
  ASSERT_GE(devices, 2u);
  ASSERT_EQ(aclrtSetDevice(1), ACL_SUCCESS);
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  static const char kLetters[] = "LBbRrU";
  for (int stage = ACL_RT_SNAPSHOT_LOCK_PRE; stage <= ACL_RT_SNAPSHOT_UNLOCK_POST; ++stage) {
    ASSERT_EQ(aclrtSnapShotCallbackRegister(static_cast<aclrtSnapShotStage>(stage), Note,
                                            const_cast<char*>(&kLetters[stage])),
              ACL_SUCCESS);
  }
  // Once per stage; a null function or a stage out of range is refused.
  EXPECT_EQ(aclrtSnapShotCallbackRegister(ACL_RT_SNAPSHOT_LOCK_PRE, Note, nullptr),
            ACL_ERROR_SNAPSHOT_REGISTER_CALLBACK_FAILED);
  EXPECT_EQ(aclrtSnapShotCallbackRegister(ACL_RT_SNAPSHOT_LOCK_PRE, nullptr, nullptr),
            ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(aclrtSnapShotCallbackRegister(static_cast<aclrtSnapShotStage>(6), Note, nullptr),
            ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(aclrtSnapShotCallbackUnregister(ACL_RT_SNAPSHOT_LOCK_PRE, Refuse),
            ACL_ERROR_RT_PARAM_INVALID);

  ASSERT_EQ(aclrtSnapShotProcessLock(kPid, nullptr), ACL_SUCCESS);
  ASSERT_EQ(aclrtSnapShotProcessBackup(kPid, nullptr), ACL_SUCCESS);
  ASSERT_EQ(aclrtSnapShotProcessRestore(kPid, nullptr), ACL_SUCCESS);
  ASSERT_EQ(aclrtSnapShotProcessUnlock(kPid, nullptr), ACL_SUCCESS);
  EXPECT_EQ(TakeCalls(), "L0 L1 B0 B1 b0 b1 R0 R1 r0 r1 U0 U1 ");

  // A callback that fails stops its step before the state changes.
  ASSERT_EQ(aclrtSnapShotCallbackRegister(ACL_RT_SNAPSHOT_BACKUP_PRE, Refuse, nullptr),
            ACL_SUCCESS);
  ASSERT_EQ(aclrtSnapShotProcessLock(kPid, nullptr), ACL_SUCCESS);
  EXPECT_EQ(aclrtSnapShotProcessBackup(kPid, nullptr), ACL_ERROR_SNAPSHOT_CALLBACK_FAILED);
  EXPECT_EQ(aclrtSnapShotProcessRestore(kPid, nullptr), ACL_ERROR_SNAPSHOT_RESTORE_FAILED);
  ASSERT_EQ(aclrtSnapShotProcessUnlock(kPid, nullptr), ACL_SUCCESS);
  EXPECT_EQ(TakeCalls(), "L0 L1 B0 B1 U0 U1 ");

  // Unregistered callbacks are not called any more.
  for (int stage = ACL_RT_SNAPSHOT_LOCK_PRE; stage <= ACL_RT_SNAPSHOT_UNLOCK_POST; ++stage) {
    EXPECT_EQ(aclrtSnapShotCallbackUnregister(static_cast<aclrtSnapShotStage>(stage), Note),
              ACL_SUCCESS);
  }
  EXPECT_EQ(aclrtSnapShotCallbackUnregister(ACL_RT_SNAPSHOT_BACKUP_PRE, Refuse), ACL_SUCCESS);
  ASSERT_EQ(aclrtSnapShotProcessLock(kPid, nullptr), ACL_SUCCESS);
  ASSERT_EQ(aclrtSnapShotProcessUnlock(kPid, nullptr), ACL_SUCCESS);
  EXPECT_EQ(TakeCalls(), "");
  EXPECT_EQ(aclrtResetDevice(1), ACL_SUCCESS);
}

TEST(SnapshotTest, LockHoldsRuntimeCallsUntilUnlock) {
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  aclrtContext context = nullptr;
  ASSERT_EQ(aclrtGetCurrentContext(&context), ACL_SUCCESS);
  ASSERT_EQ(aclrtSnapShotProcessLock(kPid, nullptr), ACL_SUCCESS);
  std::atomic<bool> returned{false};
  aclError code = ACL_ERROR_INTERNAL_ERROR;
  void* memory = nullptr;
  std::thread allocator([&] {
    // Not a held call.
    EXPECT_EQ(aclrtSetCurrentContext(context), ACL_SUCCESS);
    code = aclrtMalloc(&memory, 4096, ACL_MEM_MALLOC_HUGE_FIRST);
    returned = true;
  });
  // Queries go on meanwhile.
  int32_t device = -1;
  EXPECT_EQ(aclrtGetDevice(&device), ACL_SUCCESS);
  EXPECT_EQ(device, 0);
  absl::SleepFor(absl::Milliseconds(300));
  EXPECT_FALSE(returned.load()) << "aclrtMalloc ran while the process was locked";
  ASSERT_EQ(aclrtSnapShotProcessUnlock(kPid, nullptr), ACL_SUCCESS);
  allocator.join();
  EXPECT_EQ(code, ACL_SUCCESS);
  EXPECT_EQ(aclrtFree(memory), ACL_SUCCESS);
}

uint64_t SumOf(void* device_memory, size_t bytes) {
  std::vector<uint8_t> host(bytes);
  EXPECT_EQ(aclrtMemcpy(host.data(), bytes, device_memory, bytes, ACL_MEMCPY_DEVICE_TO_HOST),
            ACL_SUCCESS);
  uint64_t sum = 0;
  for (uint8_t byte : host) sum += byte;
  return sum;
}

// The word after `prefix` on the child's next line.
std::string Field(ChildProcess& child, const std::string& prefix) {
  const std::string line = child.ReadLine(absl::Seconds(30));
  EXPECT_EQ(line.rfind(prefix + " ", 0), 0u) << "expected '" << prefix << "', got '" << line << "'";
  return line.size() > prefix.size() ? line.substr(prefix.size() + 1) : "";
}

TEST(SnapshotTest, RestoreBringsBackTheBytesOfTheBackup) {
  if (DaemonEnvironment::daemon() == nullptr)
    GTEST_SKIP() << "needs a daemon another process reaches";
  constexpr size_t kBytes = 65536;
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  void* memory = nullptr;
  ASSERT_EQ(aclrtMalloc(&memory, kBytes, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemset(memory, kBytes, 0x11, kBytes), ACL_SUCCESS);
  char key[65] = {};
  ASSERT_EQ(aclrtIpcMemGetExportKey(memory, kBytes, key, sizeof(key),
                                    ACL_RT_IPC_MEM_EXPORT_FLAG_DISABLE_PID_VALIDATION),
            ACL_SUCCESS);
  // A process that is not locked writes into the memory.
  auto writer = ChildProcess::Spawn({ACL_TEST_CLIENT, "import", key, std::to_string(kBytes)},
                                    {"NPUD_ADDRESS=" + DaemonEnvironment::daemon()->address()});
  ASSERT_TRUE(writer.ok()) << writer.status();
  Field(**writer, "PID");
  (*writer)->WriteLine("go");
  ASSERT_EQ(Field(**writer, "CODE"), "0");

  ASSERT_EQ(aclrtSnapShotProcessLock(kPid, nullptr), ACL_SUCCESS);
  ASSERT_EQ(aclrtSnapShotProcessBackup(kPid, nullptr), ACL_SUCCESS);
  (*writer)->WriteLine("write 90");
  ASSERT_EQ(Field(**writer, "CODE"), "0");
  (*writer)->WriteLine("sum");
  EXPECT_EQ(Field(**writer, "SUM"), std::to_string(90 * kBytes));
  Field(**writer, "CODE");
  ASSERT_EQ(aclrtSnapShotProcessRestore(kPid, nullptr), ACL_SUCCESS);
  ASSERT_EQ(aclrtSnapShotProcessUnlock(kPid, nullptr), ACL_SUCCESS);
  EXPECT_EQ(SumOf(memory, kBytes), 0x11 * kBytes);

  // Without a restore, what was written stays.
  ASSERT_EQ(aclrtSnapShotProcessLock(kPid, nullptr), ACL_SUCCESS);
  ASSERT_EQ(aclrtSnapShotProcessBackup(kPid, nullptr), ACL_SUCCESS);
  (*writer)->WriteLine("write 77");
  ASSERT_EQ(Field(**writer, "CODE"), "0");
  ASSERT_EQ(aclrtSnapShotProcessUnlock(kPid, nullptr), ACL_SUCCESS);
  EXPECT_EQ(SumOf(memory, kBytes), 77 * kBytes);

  (*writer)->WriteLine("close");
  EXPECT_EQ(Field(**writer, "CODE"), "0");
  (*writer)->CloseStdin();
  EXPECT_EQ((*writer)->Wait(), 0);
  EXPECT_EQ(aclrtIpcMemClose(key), ACL_SUCCESS);
  EXPECT_EQ(aclrtFree(memory), ACL_SUCCESS);
}

}  // namespace

// Host callbacks end to end: aclrtLaunchCallback with its report thread,
// aclrtLaunchHostFunc with and without a subscribed thread, exception
// callbacks and task ids, against a real npud (as NPUD_TEST_TRANSPORT
// says). The callbacks run in this process while npud's stream waits.

#include <pthread.h>
#include <signal.h>

#include <atomic>
#include <cstdint>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "absl/synchronization/mutex.h"
#include "absl/synchronization/notification.h"
#include "absl/time/clock.h"
#include "acl/acl.h"
#include "gtest/gtest.h"
#include "tests/e2e/daemon_environment.h"
#include "tests/e2e/npud_process.h"

namespace {

using npud::testing::ChildProcess;
using npud::testing::DaemonEnvironment;

const auto* const kEnvironment = ::testing::AddGlobalTestEnvironment(new DaemonEnvironment);

uint64_t ThreadId(std::thread& thread) { return static_cast<uint64_t>(thread.native_handle()); }
uint64_t ThisThreadId() { return static_cast<uint64_t>(pthread_self()); }

// A thread that serves callbacks (aclrtProcessReport or
// aclrtProcessHostFunc) until it is destroyed.
class CallbackThread {
 public:
  explicit CallbackThread(bool host_func = false)
      : thread_([this, host_func] {
          while (!stop_.load()) {
            const aclError ret = host_func ? aclrtProcessHostFunc(20) : aclrtProcessReport(20);
            // Before the subscription (and after it ends) there is nothing
            // to serve yet; anything else is a failure.
            if (ret != ACL_SUCCESS && ret != ACL_ERROR_RT_REPORT_TIMEOUT &&
                ret != ACL_ERROR_RT_THREAD_SUBSCRIBE) {
              unexpected_.store(ret);
            }
          }
        }) {}
  ~CallbackThread() {
    stop_.store(true);
    thread_.join();
    EXPECT_EQ(unexpected_.load(), ACL_SUCCESS);
  }
  uint64_t id() { return ThreadId(thread_); }

 private:
  std::atomic<bool> stop_{false};
  std::atomic<aclError> unexpected_{ACL_SUCCESS};
  std::thread thread_;
};

// Something a callback did, seen by the test thread.
struct Record {
  absl::Mutex mu;
  std::vector<int> order;
  std::vector<uint64_t> threads;
  void Add(int index) {
    absl::MutexLock lock(&mu);
    order.push_back(index);
    threads.push_back(ThisThreadId());
  }
};

struct Indexed {
  Record* record;
  int index;
};

void RecordCallback(void* data) {
  auto* indexed = static_cast<Indexed*>(data);
  indexed->record->Add(indexed->index);
}

class HostCallbackTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    ASSERT_EQ(aclrtCreateStream(&stream_), ACL_SUCCESS);
  }
  void TearDown() override { EXPECT_EQ(aclrtDestroyStreamForce(stream_), ACL_SUCCESS); }

  aclrtStream stream_ = nullptr;
};

TEST_F(HostCallbackTest, CallbacksRunInOrderInTheSubscribedThread) {
  CallbackThread server;
  ASSERT_EQ(aclrtSubscribeReport(server.id(), stream_), ACL_SUCCESS);
  Record record;
  std::vector<Indexed> data;
  for (int i = 0; i < 20; ++i) data.push_back({&record, i});
  for (int i = 0; i < 20; ++i) {
    ASSERT_EQ(aclrtLaunchCallback(RecordCallback, &data[i],
                                  i % 2 == 0 ? ACL_CALLBACK_BLOCK : ACL_CALLBACK_NO_BLOCK, stream_),
              ACL_SUCCESS);
  }
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  // The last one does not block the stream: wait for it to have run.
  const absl::Time deadline = absl::Now() + absl::Seconds(10);
  for (;;) {
    absl::MutexLock lock(&record.mu);
    if (record.order.size() == 20 || absl::Now() > deadline) break;
    record.mu.AwaitWithTimeout(absl::Condition::kTrue, absl::Milliseconds(10));
  }
  absl::MutexLock lock(&record.mu);
  std::vector<int> expected;
  for (int i = 0; i < 20; ++i) expected.push_back(i);
  EXPECT_EQ(record.order, expected);
  for (uint64_t thread : record.threads) EXPECT_EQ(thread, server.id());
  EXPECT_EQ(aclrtUnSubscribeReport(server.id(), stream_), ACL_SUCCESS);
}

struct Sleeper {
  std::atomic<bool> done{false};
};

void SleepThenMark(void* data) {
  absl::SleepFor(absl::Milliseconds(150));
  static_cast<Sleeper*>(data)->done.store(true);
}

TEST_F(HostCallbackTest, ABlockingCallbackHoldsTheStreamUntilItReturns) {
  CallbackThread server;
  ASSERT_EQ(aclrtSubscribeReport(server.id(), stream_), ACL_SUCCESS);
  aclrtEvent event = nullptr;
  ASSERT_EQ(aclrtCreateEvent(&event), ACL_SUCCESS);
  Sleeper sleeper;
  ASSERT_EQ(aclrtLaunchCallback(SleepThenMark, &sleeper, ACL_CALLBACK_BLOCK, stream_), ACL_SUCCESS);
  ASSERT_EQ(aclrtRecordEvent(event, stream_), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeEvent(event), ACL_SUCCESS);
  // The event after the callback completed only once the callback had run.
  EXPECT_TRUE(sleeper.done.load());
  EXPECT_EQ(aclrtDestroyEvent(event), ACL_SUCCESS);
  EXPECT_EQ(aclrtUnSubscribeReport(server.id(), stream_), ACL_SUCCESS);
}

struct Gate {
  absl::Notification started;
  absl::Notification release;
  std::atomic<bool> released_in_time{false};
  absl::Notification ran;
};

void WaitForRelease(void* data) {
  auto* gate = static_cast<Gate*>(data);
  gate->started.Notify();
  gate->released_in_time.store(gate->release.WaitForNotificationWithTimeout(absl::Seconds(10)));
  gate->ran.Notify();
}

TEST_F(HostCallbackTest, ANonBlockingCallbackLetsTheStreamGoOn) {
  aclrtEvent event = nullptr;
  ASSERT_EQ(aclrtCreateEvent(&event), ACL_SUCCESS);
  Gate gate;
  {
    CallbackThread server;
    ASSERT_EQ(aclrtSubscribeReport(server.id(), stream_), ACL_SUCCESS);
    ASSERT_EQ(aclrtLaunchCallback(WaitForRelease, &gate, ACL_CALLBACK_NO_BLOCK, stream_),
              ACL_SUCCESS);
    ASSERT_EQ(aclrtRecordEvent(event, stream_), ACL_SUCCESS);
    // Completes while the callback still waits; if the stream waited for
    // the callback, this would take its whole ten seconds.
    ASSERT_EQ(aclrtSynchronizeEvent(event), ACL_SUCCESS);
    gate.release.Notify();
    ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
    // The announcement of a non-blocking callback may reach this process after
    // the synchronize returned (a loaded machine showed it): wait for the
    // callback itself before unsubscribing, so it neither goes unrun nor outlives
    // `gate`.
    EXPECT_TRUE(gate.ran.WaitForNotificationWithTimeout(absl::Seconds(10)));
    EXPECT_EQ(aclrtUnSubscribeReport(server.id(), stream_), ACL_SUCCESS);
  }  // The server thread has finished the callback.
  EXPECT_TRUE(gate.released_in_time.load());
  EXPECT_EQ(aclrtDestroyEvent(event), ACL_SUCCESS);
}

struct Seen {
  const uint8_t* host;
  size_t size;
  std::vector<uint8_t> bytes;
};

void CopyHostBytes(void* data) {
  auto* seen = static_cast<Seen*>(data);
  seen->bytes.assign(seen->host, seen->host + seen->size);
}

TEST_F(HostCallbackTest, ACallbackSeesTheWorkQueuedBeforeIt) {
  CallbackThread server;
  ASSERT_EQ(aclrtSubscribeReport(server.id(), stream_), ACL_SUCCESS);
  const size_t size = 1 << 20;
  void* device = nullptr;
  void* host = nullptr;
  ASSERT_EQ(aclrtMalloc(&device, size, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  ASSERT_EQ(aclrtMallocHost(&host, size), ACL_SUCCESS);
  std::memset(host, 0, size);
  ASSERT_EQ(aclrtMemsetAsync(device, size, 0x5A, size, stream_), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemcpyAsync(host, size, device, size, ACL_MEMCPY_DEVICE_TO_HOST, stream_),
            ACL_SUCCESS);
  Seen seen{static_cast<const uint8_t*>(host), size, {}};
  ASSERT_EQ(aclrtLaunchCallback(CopyHostBytes, &seen, ACL_CALLBACK_BLOCK, stream_), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  EXPECT_EQ(seen.bytes, std::vector<uint8_t>(size, 0x5A));
  EXPECT_EQ(aclrtUnSubscribeReport(server.id(), stream_), ACL_SUCCESS);
  EXPECT_EQ(aclrtFreeHost(host), ACL_SUCCESS);
  EXPECT_EQ(aclrtFree(device), ACL_SUCCESS);
}

// A blocking callback launched for a thread that unsubscribes (and stops
// serving) before the callback is due is dropped and answered: its stream
// goes on instead of waiting for ever.
TEST_F(HostCallbackTest, ACallbackWhoseThreadLeftIsDroppedAndTheStreamGoesOn) {
  auto server = std::make_unique<CallbackThread>();
  const uint64_t thread_id = server->id();
  ASSERT_EQ(aclrtSubscribeReport(thread_id, stream_), ACL_SUCCESS);
  Gate gate;
  Sleeper orphan;
  ASSERT_EQ(aclrtLaunchCallback(WaitForRelease, &gate, ACL_CALLBACK_BLOCK, stream_), ACL_SUCCESS);
  ASSERT_EQ(aclrtLaunchCallback(SleepThenMark, &orphan, ACL_CALLBACK_BLOCK, stream_), ACL_SUCCESS);
  // The thread is inside the first callback; the second is not due yet.
  ASSERT_TRUE(gate.started.WaitForNotificationWithTimeout(absl::Seconds(10)));
  std::thread release([&] {
    absl::SleepFor(absl::Milliseconds(100));
    EXPECT_EQ(aclrtUnSubscribeReport(thread_id, stream_), ACL_SUCCESS);
    gate.release.Notify();
  });
  server.reset();  // stops serving once the first callback has returned
  release.join();
  EXPECT_TRUE(gate.released_in_time.load());
  EXPECT_EQ(aclrtSynchronizeStreamWithTimeout(stream_, 10000), ACL_SUCCESS);
  EXPECT_FALSE(orphan.done.load());
}

TEST_F(HostCallbackTest, AHostFunctionWithoutASubscriptionRunsInARuntimeThread) {
  aclrtEvent event = nullptr;
  ASSERT_EQ(aclrtCreateEvent(&event), ACL_SUCCESS);
  Record record;
  Indexed first{&record, 1};
  Indexed second{&record, 2};
  Sleeper sleeper;
  ASSERT_EQ(aclrtLaunchHostFunc(stream_, RecordCallback, &first), ACL_SUCCESS);
  ASSERT_EQ(aclrtLaunchHostFunc(stream_, SleepThenMark, &sleeper), ACL_SUCCESS);
  ASSERT_EQ(aclrtLaunchHostFunc(stream_, RecordCallback, &second), ACL_SUCCESS);
  ASSERT_EQ(aclrtRecordEvent(event, stream_), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeEvent(event), ACL_SUCCESS);
  // Host functions block their stream.
  EXPECT_TRUE(sleeper.done.load());
  absl::MutexLock lock(&record.mu);
  EXPECT_EQ(record.order, (std::vector<int>{1, 2}));
  ASSERT_EQ(record.threads.size(), 2u);
  EXPECT_NE(record.threads[0], ThisThreadId());
  EXPECT_EQ(record.threads[0], record.threads[1]);
  // Such a stream cannot take a report thread too.
  EXPECT_EQ(aclrtSubscribeReport(ThisThreadId(), stream_), ACL_ERROR_RT_STREAM_SUBSCRIBE);
  EXPECT_EQ(aclrtDestroyEvent(event), ACL_SUCCESS);
}

TEST_F(HostCallbackTest, AHostFunctionRunsInItsSubscribedThread) {
  CallbackThread server(/*host_func=*/true);
  ASSERT_EQ(aclrtSubscribeHostFunc(server.id(), stream_), ACL_SUCCESS);
  Record record;
  Indexed one{&record, 7};
  ASSERT_EQ(aclrtLaunchHostFunc(stream_, RecordCallback, &one), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  {
    absl::MutexLock lock(&record.mu);
    EXPECT_EQ(record.order, std::vector<int>{7});
    EXPECT_EQ(record.threads, std::vector<uint64_t>{server.id()});
  }
  EXPECT_EQ(aclrtUnSubscribeHostFunc(server.id(), stream_), ACL_SUCCESS);
}

void Nothing(void*) {}

TEST_F(HostCallbackTest, BadArgumentsGetCannsCodes) {
  EXPECT_EQ(aclrtProcessReport(0), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtProcessReport(-2), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtProcessHostFunc(0), ACL_ERROR_INVALID_PARAM);
  // This thread serves no stream.
  EXPECT_EQ(aclrtProcessReport(10), ACL_ERROR_RT_THREAD_SUBSCRIBE);
  EXPECT_EQ(aclrtProcessHostFunc(10), ACL_ERROR_RT_THREAD_SUBSCRIBE);
  EXPECT_EQ(aclrtLaunchCallback(Nothing, nullptr, ACL_CALLBACK_BLOCK, stream_),
            ACL_ERROR_RT_STREAM_NO_CB_REG);
  EXPECT_EQ(aclrtUnSubscribeReport(ThisThreadId(), stream_), ACL_ERROR_RT_STREAM_SUBSCRIBE);

  ASSERT_EQ(aclrtSubscribeReport(ThisThreadId(), stream_), ACL_SUCCESS);
  EXPECT_EQ(aclrtProcessReport(30), ACL_ERROR_RT_REPORT_TIMEOUT);
  EXPECT_EQ(aclrtSubscribeReport(ThisThreadId() + 1, stream_), ACL_ERROR_RT_STREAM_SUBSCRIBE);
  EXPECT_EQ(aclrtLaunchCallback(nullptr, nullptr, ACL_CALLBACK_BLOCK, stream_),
            ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(aclrtLaunchCallback(Nothing, nullptr, static_cast<aclrtCallbackBlockType>(7), stream_),
            ACL_ERROR_INVALID_PARAM);
  // Report callbacks and the runtime's host function thread do not mix.
  EXPECT_EQ(aclrtLaunchHostFunc(stream_, Nothing, nullptr), ACL_ERROR_RT_STREAM_SUBSCRIBE);
  EXPECT_EQ(aclrtUnSubscribeReport(ThisThreadId() + 1, stream_), ACL_ERROR_RT_THREAD_SUBSCRIBE);
  EXPECT_EQ(aclrtUnSubscribeReport(ThisThreadId(), stream_), ACL_SUCCESS);

  EXPECT_EQ(aclrtLaunchHostFunc(stream_, nullptr, nullptr), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(aclrtSubscribeHostFunc(ThisThreadId(), nullptr), ACL_ERROR_INVALID_PARAM);
  aclrtStream destroyed = nullptr;
  ASSERT_EQ(aclrtCreateStream(&destroyed), ACL_SUCCESS);
  ASSERT_EQ(aclrtDestroyStream(destroyed), ACL_SUCCESS);
  EXPECT_EQ(aclrtSubscribeReport(ThisThreadId(), destroyed), ACL_ERROR_RT_INVALID_HANDLE);

  uint32_t devices = 0;
  ASSERT_EQ(aclrtGetDeviceCount(&devices), ACL_SUCCESS);
  if (devices > 1) {
    // A thread serves the streams of one device.
    ASSERT_EQ(aclrtSubscribeReport(ThisThreadId(), stream_), ACL_SUCCESS);
    ASSERT_EQ(aclrtSetDevice(1), ACL_SUCCESS);
    aclrtStream other = nullptr;
    ASSERT_EQ(aclrtCreateStream(&other), ACL_SUCCESS);
    EXPECT_EQ(aclrtSubscribeReport(ThisThreadId(), other), ACL_ERROR_RT_THREAD_SUBSCRIBE);
    EXPECT_EQ(aclrtDestroyStream(other), ACL_SUCCESS);
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    EXPECT_EQ(aclrtUnSubscribeReport(ThisThreadId(), stream_), ACL_SUCCESS);
  }
}

// Exception callbacks record here (they are plain function pointers).
struct Failures {
  absl::Mutex mu;
  std::vector<std::vector<uint32_t>> seen;  // task, stream, device, code
};
Failures& SeenFailures() {
  static auto* failures = new Failures();
  return *failures;
}

void RecordFailure(aclrtExceptionInfo* info) {
  Failures& failures = SeenFailures();
  absl::MutexLock lock(&failures.mu);
  failures.seen.push_back(
      {aclrtGetTaskIdFromExceptionInfo(info), aclrtGetStreamIdFromExceptionInfo(info),
       aclrtGetDeviceIdFromExceptionInfo(info), aclrtGetErrorCodeFromExceptionInfo(info)});
}

class FailingKernelTest : public HostCallbackTest {
 protected:
  void SetUp() override {
    HostCallbackTest::SetUp();
    ASSERT_EQ(aclrtBinaryLoadFromFile(E2E_KERNELS_PATH, nullptr, &binary_), ACL_SUCCESS);
    ASSERT_EQ(aclrtBinaryGetFunction(binary_, "trapping", &trapping_), ACL_SUCCESS);
  }
  void TearDown() override {
    EXPECT_EQ(aclrtBinaryUnLoad(binary_), ACL_SUCCESS);
    HostCallbackTest::TearDown();
  }
  aclError LaunchTrap() {
    return aclrtLaunchKernelWithHostArgs(trapping_, 4, stream_, nullptr, nullptr, 0, nullptr, 0);
  }

  aclrtBinHandle binary_ = nullptr;
  aclrtFuncHandle trapping_ = nullptr;
};

TEST_F(FailingKernelTest, TasksAreNumberedPerStream) {
  void* device = nullptr;
  ASSERT_EQ(aclrtMalloc(&device, 4096, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  uint32_t first = 0;
  uint32_t later = 0;
  ASSERT_EQ(aclrtMemsetAsync(device, 4096, 1, 4096, stream_), ACL_SUCCESS);
  ASSERT_EQ(aclrtGetThreadLastTaskId(&first), ACL_SUCCESS);
  EXPECT_GT(first, 0u);
  ASSERT_EQ(aclrtMemsetAsync(device, 4096, 2, 4096, stream_), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemsetAsync(device, 4096, 3, 4096, stream_), ACL_SUCCESS);
  ASSERT_EQ(aclrtGetThreadLastTaskId(&later), ACL_SUCCESS);
  EXPECT_EQ(later, first + 2);
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  EXPECT_EQ(aclrtGetThreadLastTaskId(nullptr), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtFree(device), ACL_SUCCESS);
}

TEST_F(FailingKernelTest, ExceptionCallbacksAreToldOfTheFailedTask) {
  SeenFailures().seen.clear();
  ASSERT_EQ(aclrtExceptionInfoCallbackRegister(RecordFailure), ACL_SUCCESS);
  ASSERT_EQ(LaunchTrap(), ACL_SUCCESS);
  uint32_t task = 0;
  ASSERT_EQ(aclrtGetThreadLastTaskId(&task), ACL_SUCCESS);
  const aclError sync = aclrtSynchronizeStream(stream_);
  EXPECT_EQ(sync, ACL_ERROR_RT_VECTOR_CORE_EXCEPTION);
  int32_t stream_id = 0;
  ASSERT_EQ(aclrtStreamGetId(stream_, &stream_id), ACL_SUCCESS);
  {
    // Told before the synchronize returned.
    absl::MutexLock lock(&SeenFailures().mu);
    ASSERT_EQ(SeenFailures().seen.size(), 1u);
    EXPECT_EQ(SeenFailures().seen[0], (std::vector<uint32_t>{task, static_cast<uint32_t>(stream_id),
                                                             0, static_cast<uint32_t>(sync)}));
  }
  ASSERT_EQ(aclrtExceptionInfoCallbackUnregister(RecordFailure), ACL_SUCCESS);
  ASSERT_EQ(LaunchTrap(), ACL_SUCCESS);
  EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_ERROR_RT_VECTOR_CORE_EXCEPTION);
  {
    absl::MutexLock lock(&SeenFailures().mu);
    EXPECT_EQ(SeenFailures().seen.size(), 1u);
  }
  EXPECT_EQ(aclrtExceptionInfoCallbackRegister(nullptr), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(aclrtGetTaskIdFromExceptionInfo(nullptr), 0xFFFFFFFFu);
  EXPECT_EQ(aclrtGetErrorCodeFromExceptionInfo(nullptr), 0xFFFFFFFFu);
}

// What a binary's exception callback saw of a failed kernel.
struct KernelFailure {
  absl::Mutex mu;
  int calls = 0;
  void* user_data = nullptr;
  void* args = nullptr;
  uint32_t args_size = 0;
  aclrtFuncHandle function = nullptr;
};

void RecordKernelFailure(aclrtExceptionInfo* info, void* user_data) {
  auto* seen = static_cast<KernelFailure*>(user_data);
  absl::MutexLock lock(&seen->mu);
  ++seen->calls;
  seen->user_data = user_data;
  EXPECT_EQ(aclrtGetArgsFromExceptionInfo(info, &seen->args, &seen->args_size), ACL_SUCCESS);
  EXPECT_EQ(aclrtGetFuncHandleFromExceptionInfo(info, &seen->function), ACL_SUCCESS);
}

TEST_F(FailingKernelTest, ExceptionInfoNamesTheKernelAndItsArguments) {
  aclrtFuncHandle poke = nullptr;
  aclrtFuncHandle spin = nullptr;
  ASSERT_EQ(aclrtBinaryGetFunction(binary_, "poke", &poke), ACL_SUCCESS);
  ASSERT_EQ(aclrtBinaryGetFunction(binary_, "spin", &spin), ACL_SUCCESS);
  KernelFailure seen;
  ASSERT_EQ(aclrtBinarySetExceptionCallback(binary_, RecordKernelFailure, &seen), ACL_SUCCESS);
  void* page = nullptr;
  ASSERT_EQ(aclrtMalloc(&page, 4096, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  struct {
    void* p;
    uint64_t offset;
  } good{page, 0}, bad{page, 1024};  // 1024 floats on: the guard page
  // Queued behind a spinning kernel, the pokes go to the kernel host as one
  // batch: the report must name the one that faulted.
  struct {
    void* flag;
    uint32_t ms;
  } wait{page, 50};
  ASSERT_EQ(
      aclrtLaunchKernelWithHostArgs(spin, 1, stream_, nullptr, &wait, sizeof(wait), nullptr, 0),
      ACL_SUCCESS);
  for (auto* args : {&good, &bad, &good}) {
    ASSERT_EQ(
        aclrtLaunchKernelWithHostArgs(poke, 1, stream_, nullptr, args, sizeof(*args), nullptr, 0),
        ACL_SUCCESS);
  }
  EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_ERROR_RT_VECTOR_CORE_EXCEPTION);
  void* args = nullptr;
  {
    absl::MutexLock lock(&seen.mu);
    ASSERT_EQ(seen.calls, 1);
    EXPECT_EQ(seen.user_data, &seen);
    EXPECT_EQ(seen.function, poke);
    ASSERT_EQ(seen.args_size, sizeof(bad));
    args = seen.args;
  }
  // The arguments are device memory, as on a device.
  decltype(bad) copy{};
  ASSERT_EQ(aclrtMemcpy(&copy, sizeof(copy), args, sizeof(copy), ACL_MEMCPY_DEVICE_TO_HOST),
            ACL_SUCCESS);
  EXPECT_EQ(copy.p, page);
  EXPECT_EQ(copy.offset, 1024u);

  // Other binaries' failures are not its business; null unregisters.
  aclrtBinHandle other = nullptr;
  ASSERT_EQ(aclrtBinaryLoadFromFile(E2E_KERNELS_PATH, nullptr, &other), ACL_SUCCESS);
  aclrtFuncHandle other_trap = nullptr;
  ASSERT_EQ(aclrtBinaryGetFunction(other, "trapping", &other_trap), ACL_SUCCESS);
  ASSERT_EQ(aclrtLaunchKernelWithHostArgs(other_trap, 2, stream_, nullptr, nullptr, 0, nullptr, 0),
            ACL_SUCCESS);
  EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_ERROR_RT_VECTOR_CORE_EXCEPTION);
  ASSERT_EQ(aclrtBinarySetExceptionCallback(binary_, nullptr, nullptr), ACL_SUCCESS);
  ASSERT_EQ(LaunchTrap(), ACL_SUCCESS);
  EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_ERROR_RT_VECTOR_CORE_EXCEPTION);
  {
    absl::MutexLock lock(&seen.mu);
    EXPECT_EQ(seen.calls, 1);
  }
  EXPECT_EQ(aclrtBinarySetExceptionCallback(nullptr, RecordKernelFailure, nullptr),
            ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtBinarySetExceptionCallback(reinterpret_cast<aclrtBinHandle>(0x42),
                                            RecordKernelFailure, nullptr),
            ACL_ERROR_RT_INVALID_HANDLE);
  void* none = nullptr;
  uint32_t size = 0;
  EXPECT_EQ(aclrtGetArgsFromExceptionInfo(nullptr, &none, &size), ACL_ERROR_INVALID_PARAM);
  aclrtFuncHandle function = nullptr;
  EXPECT_EQ(aclrtGetFuncHandleFromExceptionInfo(nullptr, &function), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtBinaryUnLoad(other), ACL_SUCCESS);
  EXPECT_EQ(aclrtFree(page), ACL_SUCCESS);
}

TEST_F(FailingKernelTest, CallbacksAfterAFailureAreDroppedOnAStoppedStream) {
  CallbackThread server;
  ASSERT_EQ(aclrtSubscribeReport(server.id(), stream_), ACL_SUCCESS);
  ASSERT_EQ(aclrtSetStreamFailureMode(stream_, ACL_STOP_ON_FAILURE), ACL_SUCCESS);
  Record record;
  Indexed dropped{&record, 1};
  Indexed later{&record, 2};
  ASSERT_EQ(LaunchTrap(), ACL_SUCCESS);
  ASSERT_EQ(aclrtLaunchCallback(RecordCallback, &dropped, ACL_CALLBACK_BLOCK, stream_),
            ACL_SUCCESS);
  EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_ERROR_RT_VECTOR_CORE_EXCEPTION);
  // Reported: the stream works again, and the next callback runs.
  ASSERT_EQ(aclrtLaunchCallback(RecordCallback, &later, ACL_CALLBACK_BLOCK, stream_), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  {
    absl::MutexLock lock(&record.mu);
    EXPECT_EQ(record.order, std::vector<int>{2});
  }
  EXPECT_EQ(aclrtUnSubscribeReport(server.id(), stream_), ACL_SUCCESS);
}

size_t FreeBytes() {
  size_t free = 0, total = 0;
  EXPECT_EQ(aclrtGetMemInfo(ACL_HBM_MEM, &free, &total), ACL_SUCCESS);
  return free;
}

TEST(HostCallbackProcessTest, AClientDyingWithACallbackPendingReleasesEverything) {
  if (DaemonEnvironment::daemon() == nullptr) GTEST_SKIP() << "needs a daemon of its own";
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  const size_t before = FreeBytes();
  const size_t bytes = 64 << 20;
  auto child = ChildProcess::Spawn({ACL_TEST_CLIENT, "pending-callback", std::to_string(bytes)},
                                   {"NPUD_ADDRESS=" + DaemonEnvironment::daemon()->address()});
  ASSERT_TRUE(child.ok()) << child.status();
  ASSERT_EQ((*child)->ReadLine(absl::Seconds(30)), "PENDING");
  EXPECT_LE(FreeBytes(), before - bytes);
  (*child)->Kill(SIGKILL);
  (*child)->Wait();
  // npud does not wait for a callback nobody will run.
  const absl::Time deadline = absl::Now() + absl::Seconds(20);
  while (FreeBytes() < before && absl::Now() < deadline) absl::SleepFor(absl::Milliseconds(20));
  EXPECT_EQ(FreeBytes(), before);
}

}  // namespace

// The ACL API end to end: this process is the client, a real npud (started
// per test binary run, on a unix socket or on TCP loopback, as
// NPUD_TEST_TRANSPORT says) is the device. Every test leaves the device as
// it found it: what it allocates it frees.

#include <signal.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "acl/acl.h"
#include "gtest/gtest.h"
#include "tests/e2e/daemon_environment.h"

namespace {

// AddressSanitizer installs SIGSEGV/SIGBUS handlers of its own.
constexpr bool kSanitizerOwnsFaultSignals = NPUD_ADDRESS_SANITIZER;

const auto* const kEnvironment =
    ::testing::AddGlobalTestEnvironment(new npud::testing::DaemonEnvironment);

std::vector<unsigned char> Pattern(size_t size, unsigned seed) {
  std::vector<unsigned char> bytes(size);
  for (size_t i = 0; i < size; ++i)
    bytes[i] = static_cast<unsigned char>(seed * 7 + i * 131 + (i >> 9));
  return bytes;
}

class AclTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    ASSERT_EQ(aclrtCreateStream(&stream_), ACL_SUCCESS);
  }
  void TearDown() override {
    for (void* p : device_) EXPECT_EQ(aclrtFree(p), ACL_SUCCESS);
    EXPECT_EQ(aclrtDestroyStream(stream_), ACL_SUCCESS);
  }
  void* Malloc(size_t size) {
    void* p = nullptr;
    EXPECT_EQ(aclrtMalloc(&p, size, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    device_.push_back(p);
    return p;
  }

  aclrtStream stream_ = nullptr;
  std::vector<void*> device_;
};

// --- The client process ------------------------------------------------------

// A program that talks to a daemon carries none of it: no fault handlers of
// the simulated cores, no in-process daemon library.
TEST_F(AclTest, ClientProcessKeepsDefaultSignalsAndNoDaemonCode) {
  if (npud::testing::InprocFromEnv()) {
    GTEST_SKIP() << "the inproc variant runs the devices (and their fault handlers) here";
  }
  void* dev = Malloc(4096);
  std::vector<char> host(4096, 1);
  ASSERT_EQ(aclrtMemcpy(dev, 4096, host.data(), 4096, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeDevice(), ACL_SUCCESS);
  for (int signal : {SIGSEGV, SIGBUS}) {
    if (kSanitizerOwnsFaultSignals) break;
    struct sigaction action {};
    ASSERT_EQ(sigaction(signal, nullptr, &action), 0);
    EXPECT_EQ(action.sa_handler, SIG_DFL) << "signal " << signal;
    EXPECT_EQ(action.sa_flags & SA_SIGINFO, 0) << "signal " << signal;
  }
  std::ifstream maps("/proc/self/maps");
  std::stringstream content;
  content << maps.rdbuf();
  EXPECT_EQ(content.str().find("libnpud_inproc"), std::string::npos);
}

// --- Copies ------------------------------------------------------------------

TEST_F(AclTest, SyncRoundTripAroundChunkBoundaries) {
  for (size_t size :
       {size_t{1}, size_t{4095}, size_t{1} << 20, (size_t{1} << 20) + 1, (size_t{5} << 20) + 7}) {
    SCOPED_TRACE(size);
    void* dev = Malloc(size);
    const auto in = Pattern(size, static_cast<unsigned>(size));
    std::vector<unsigned char> out(size, 0);
    ASSERT_EQ(aclrtMemcpy(dev, size, in.data(), size, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
    ASSERT_EQ(aclrtMemcpy(out.data(), size, dev, size, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
    EXPECT_EQ(out, in);
  }
}

TEST_F(AclTest, AsyncChainOnOneStream) {
  const size_t size = (3 << 20) + 5;
  void* a = Malloc(size);
  void* b = Malloc(size);
  auto in = Pattern(size, 3);
  std::vector<unsigned char> out(size, 0);
  ASSERT_EQ(aclrtMemcpyAsync(a, size, in.data(), size, ACL_MEMCPY_HOST_TO_DEVICE, stream_), 0);
  // The source may be reused at once: asynchronous copies take their bytes
  // at call time.
  std::fill(in.begin(), in.end(), 0);
  ASSERT_EQ(aclrtMemcpyAsync(b, size, a, size, ACL_MEMCPY_DEVICE_TO_DEVICE, stream_), 0);
  ASSERT_EQ(aclrtMemcpyAsync(out.data(), size, b, size, ACL_MEMCPY_DEVICE_TO_HOST, stream_), 0);
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  EXPECT_EQ(out, Pattern(size, 3));
}

TEST_F(AclTest, DefaultStreamAndDefaultKind) {
  const size_t size = 100000;
  void* dev = Malloc(size);
  const auto in = Pattern(size, 11);
  std::vector<unsigned char> out(size, 0);
  ASSERT_EQ(aclrtMemcpyAsync(dev, size, in.data(), size, ACL_MEMCPY_DEFAULT, nullptr), 0);
  ASSERT_EQ(aclrtMemcpyAsync(out.data(), size, dev, size, ACL_MEMCPY_DEFAULT, nullptr), 0);
  ASSERT_EQ(aclrtSynchronizeStream(nullptr), ACL_SUCCESS);
  EXPECT_EQ(out, in);
}

TEST_F(AclTest, DeviceToDeviceAcrossDevices) {
  const size_t size = 1 << 20;
  void* on0 = Malloc(size);
  ASSERT_EQ(aclrtSetDevice(1), ACL_SUCCESS);
  void* on1 = nullptr;
  ASSERT_EQ(aclrtMalloc(&on1, size, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  const auto in = Pattern(size, 5);
  std::vector<unsigned char> out(size, 0);
  ASSERT_EQ(aclrtMemcpy(on0, size, in.data(), size, ACL_MEMCPY_HOST_TO_DEVICE), 0);
  ASSERT_EQ(aclrtMemcpy(on1, size, on0, size, ACL_MEMCPY_DEVICE_TO_DEVICE), 0);
  ASSERT_EQ(aclrtMemcpy(out.data(), size, on1, size, ACL_MEMCPY_DEVICE_TO_HOST), 0);
  EXPECT_EQ(out, in);
  EXPECT_EQ(aclrtFree(on1), ACL_SUCCESS);
  EXPECT_EQ(aclrtResetDevice(1), ACL_SUCCESS);
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
}

TEST_F(AclTest, MemsetSyncAndAsync) {
  const size_t size = (2 << 20) + 3;
  void* dev = Malloc(size);
  std::vector<unsigned char> out(size);
  ASSERT_EQ(aclrtMemset(dev, size, 0x1AB, size), ACL_SUCCESS);  // Only the low byte counts.
  ASSERT_EQ(aclrtMemsetAsync(dev, size, 0x77, 1000, stream_), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemcpyAsync(out.data(), size, dev, size, ACL_MEMCPY_DEVICE_TO_HOST, stream_), 0);
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  for (size_t i = 0; i < size; ++i) ASSERT_EQ(out[i], i < 1000 ? 0x77 : 0xAB) << i;
}

TEST_F(AclTest, HostToHostThroughPinnedMemory) {
  void* pinned = nullptr;
  ASSERT_EQ(aclrtMallocHost(&pinned, 4096), ACL_SUCCESS);
  const auto in = Pattern(4096, 9);
  ASSERT_EQ(aclrtMemcpy(pinned, 4096, in.data(), 4096, ACL_MEMCPY_HOST_TO_HOST), ACL_SUCCESS);
  EXPECT_EQ(std::memcmp(pinned, in.data(), 4096), 0);
  EXPECT_EQ(aclrtFreeHost(pinned), ACL_SUCCESS);
}

TEST_F(AclTest, MemsetOfHostMemory) {
  // Synchronously any host memory, as CANN does; on a stream only memory
  // from aclrtMallocHost, which outlives the call.
  unsigned char on_stack[64];
  std::memset(on_stack, 1, sizeof(on_stack));
  ASSERT_EQ(aclrtMemset(on_stack, sizeof(on_stack), 0, 32), ACL_SUCCESS);
  EXPECT_EQ(on_stack[31], 0);
  EXPECT_EQ(on_stack[32], 1);
  EXPECT_EQ(aclrtMemsetAsync(on_stack, sizeof(on_stack), 0, 32, stream_),
            ACL_ERROR_RT_PARAM_INVALID);
  void* pinned = nullptr;
  ASSERT_EQ(aclrtMallocHost(&pinned, 4096), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemsetAsync(pinned, 4096, 0x5A, 4096, stream_), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  EXPECT_EQ(static_cast<unsigned char*>(pinned)[4095], 0x5A);
  EXPECT_EQ(aclrtFreeHost(pinned), ACL_SUCCESS);
}

// --- Events and streams --------------------------------------------------------

TEST_F(AclTest, EventsTimeAStream) {
  const size_t size = 64 << 20;
  void* a = Malloc(size);
  void* b = Malloc(size);
  aclrtEvent start = nullptr, end = nullptr;
  ASSERT_EQ(aclrtCreateEvent(&start), ACL_SUCCESS);
  ASSERT_EQ(aclrtCreateEvent(&end), ACL_SUCCESS);
  ASSERT_EQ(aclrtRecordEvent(start, stream_), ACL_SUCCESS);
  for (int i = 0; i < 4; ++i) {
    ASSERT_EQ(aclrtMemsetAsync(a, size, i, size, stream_), ACL_SUCCESS);
    ASSERT_EQ(aclrtMemcpyAsync(b, size, a, size, ACL_MEMCPY_DEVICE_TO_DEVICE, stream_), 0);
  }
  ASSERT_EQ(aclrtRecordEvent(end, stream_), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeEvent(end), ACL_SUCCESS);
  aclrtEventRecordedStatus status = ACL_EVENT_RECORDED_STATUS_NOT_READY;
  ASSERT_EQ(aclrtQueryEventStatus(start, &status), ACL_SUCCESS);
  EXPECT_EQ(status, ACL_EVENT_RECORDED_STATUS_COMPLETE);
  float ms = -1;
  ASSERT_EQ(aclrtEventElapsedTime(&ms, start, end), ACL_SUCCESS);
  EXPECT_GT(ms, 0.0f);
  uint64_t t0 = 0, t1 = 0;
  ASSERT_EQ(aclrtEventGetTimestamp(start, &t0), ACL_SUCCESS);
  ASSERT_EQ(aclrtEventGetTimestamp(end, &t1), ACL_SUCCESS);
  EXPECT_LT(t0, t1);
  EXPECT_NEAR(static_cast<double>(t1 - t0) / 1000.0, ms, 0.01);
  EXPECT_EQ(aclrtDestroyEvent(start), ACL_SUCCESS);
  EXPECT_EQ(aclrtDestroyEvent(end), ACL_SUCCESS);
}

TEST_F(AclTest, TwoStreamsOrderedByAnEvent) {
  // Stream 1 fills `a` slowly (several large passes); stream 2 must copy it
  // only after stream 1 recorded the event, so it sees the last pass.
  const size_t size = 96 << 20;
  void* a = Malloc(size);
  void* b = Malloc(size);
  aclrtStream second = nullptr;
  ASSERT_EQ(aclrtCreateStream(&second), ACL_SUCCESS);
  aclrtEvent done = nullptr;
  ASSERT_EQ(aclrtCreateEvent(&done), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemset(b, size, 0, size), ACL_SUCCESS);
  for (int pass = 1; pass <= 6; ++pass) {
    ASSERT_EQ(aclrtMemsetAsync(a, size, pass, size, stream_), ACL_SUCCESS);
  }
  ASSERT_EQ(aclrtRecordEvent(done, stream_), ACL_SUCCESS);
  ASSERT_EQ(aclrtStreamWaitEvent(second, done), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemcpyAsync(b, size, a, size, ACL_MEMCPY_DEVICE_TO_DEVICE, second), 0);
  ASSERT_EQ(aclrtSynchronizeStream(second), ACL_SUCCESS);
  std::vector<unsigned char> out(size);
  ASSERT_EQ(aclrtMemcpy(out.data(), size, b, size, ACL_MEMCPY_DEVICE_TO_HOST), 0);
  EXPECT_TRUE(std::all_of(out.begin(), out.end(), [](unsigned char c) { return c == 6; }));
  EXPECT_EQ(aclrtDestroyEvent(done), ACL_SUCCESS);
  EXPECT_EQ(aclrtDestroyStream(second), ACL_SUCCESS);
}

TEST_F(AclTest, CountNotifyOrdersStreamsByCount) {
  // Stream 1 counts up three times, each after a slow fill of `a`; stream 2
  // waits for a count of 3 before copying, so it sees the last fill.
  const size_t size = 64 << 20;
  void* a = Malloc(size);
  void* b = Malloc(size);
  aclrtStream second = nullptr;
  ASSERT_EQ(aclrtCreateStream(&second), ACL_SUCCESS);
  aclrtCntNotify counter = nullptr;
  ASSERT_EQ(aclrtCntNotifyCreate(&counter, 0), ACL_SUCCESS);
  uint32_t id = 0;
  EXPECT_EQ(aclrtCntNotifyGetId(counter, &id), ACL_SUCCESS);
  aclrtCntNotifyWaitInfo wait = {};
  wait.mode = ACL_RT_CNT_NOTIFY_WAIT_BIGGER_OR_EQUAL_MODE;
  wait.value = 3;
  wait.isClear = 1;
  ASSERT_EQ(aclrtCntNotifyWaitWithTimeout(counter, second, &wait), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemcpyAsync(b, size, a, size, ACL_MEMCPY_DEVICE_TO_DEVICE, second), 0);
  aclrtCntNotifyRecordInfo add = {};
  add.mode = ACL_RT_CNT_NOTIFY_RECORD_ADD_MODE;
  add.value = 1;
  for (int pass = 1; pass <= 3; ++pass) {
    ASSERT_EQ(aclrtMemsetAsync(a, size, pass, size, stream_), ACL_SUCCESS);
    ASSERT_EQ(aclrtCntNotifyRecord(counter, stream_, &add), ACL_SUCCESS);
  }
  ASSERT_EQ(aclrtSynchronizeStream(second), ACL_SUCCESS);
  std::vector<unsigned char> out(size);
  ASSERT_EQ(aclrtMemcpy(out.data(), size, b, size, ACL_MEMCPY_DEVICE_TO_HOST), 0);
  EXPECT_TRUE(std::all_of(out.begin(), out.end(), [](unsigned char c) { return c == 3; }));

  // The clearing wait reset the count: an equal-to-0 wait passes at once, a
  // wait for 1 times out and fails the stream at its synchronize.
  wait.mode = ACL_RT_CNT_NOTIFY_WAIT_EQUAL_MODE;
  wait.value = 0;
  wait.isClear = 0;
  ASSERT_EQ(aclrtCntNotifyWaitWithTimeout(counter, second, &wait), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(second), ACL_SUCCESS);
  wait.value = 1;
  wait.timeout = 20;
  ASSERT_EQ(aclrtCntNotifyWaitWithTimeout(counter, second, &wait), ACL_SUCCESS);
  EXPECT_EQ(aclrtSynchronizeStream(second), ACL_ERROR_RT_WAIT_TIMEOUT);

  add.mode = static_cast<aclrtCntNotifyRecordMode>(3);
  EXPECT_EQ(aclrtCntNotifyRecord(counter, stream_, &add), ACL_ERROR_RT_PARAM_INVALID);
  wait.mode = static_cast<aclrtCntNotifyWaitMode>(9);
  EXPECT_EQ(aclrtCntNotifyWaitWithTimeout(counter, second, &wait), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(aclrtCntNotifyRecord(counter, stream_, nullptr), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtCntNotifyReset(counter, stream_), ACL_SUCCESS);
  EXPECT_EQ(aclrtCntNotifyDestroy(counter), ACL_SUCCESS);
  EXPECT_EQ(aclrtCntNotifyDestroy(counter), ACL_ERROR_RT_INVALID_HANDLE);
  EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  EXPECT_EQ(aclrtDestroyStream(second), ACL_SUCCESS);
}

TEST_F(AclTest, EventStatusBeforeAndAfterRecord) {
  aclrtEvent plain = nullptr, ex = nullptr;
  ASSERT_EQ(aclrtCreateEvent(&plain), ACL_SUCCESS);
  ASSERT_EQ(aclrtCreateEventExWithFlag(&ex, ACL_EVENT_SYNC), ACL_SUCCESS);
  aclrtEventRecordedStatus status;
  ASSERT_EQ(aclrtQueryEventStatus(plain, &status), ACL_SUCCESS);
  EXPECT_EQ(status, ACL_EVENT_RECORDED_STATUS_NOT_READY);
  ASSERT_EQ(aclrtQueryEventStatus(ex, &status), ACL_SUCCESS);
  EXPECT_EQ(status, ACL_EVENT_RECORDED_STATUS_COMPLETE);
  // Never recorded: no timestamp (CANN answers with an internal error).
  float ms = 0;
  EXPECT_EQ(aclrtEventElapsedTime(&ms, plain, plain), ACL_ERROR_RT_INTERNAL_ERROR);
  // Synchronizing a never-recorded event returns at once.
  EXPECT_EQ(aclrtSynchronizeEvent(plain), ACL_SUCCESS);
  ASSERT_EQ(aclrtRecordEvent(plain, stream_), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeEvent(plain), ACL_SUCCESS);
  ASSERT_EQ(aclrtQueryEventStatus(plain, &status), ACL_SUCCESS);
  EXPECT_EQ(status, ACL_EVENT_RECORDED_STATUS_COMPLETE);
  // Reset makes it pending again; only plain events can be reset.
  ASSERT_EQ(aclrtResetEvent(plain, stream_), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  ASSERT_EQ(aclrtQueryEventStatus(plain, &status), ACL_SUCCESS);
  EXPECT_EQ(status, ACL_EVENT_RECORDED_STATUS_NOT_READY);
  EXPECT_EQ(aclrtResetEvent(ex, stream_), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
  EXPECT_EQ(aclrtDestroyEvent(plain), ACL_SUCCESS);
  EXPECT_EQ(aclrtDestroyEvent(ex), ACL_SUCCESS);
}

TEST_F(AclTest, StreamQueryAndSynchronizeDevice) {
  const size_t size = 64 << 20;
  void* a = Malloc(size);
  aclrtStreamStatus status = ACL_STREAM_STATUS_RESERVED;
  ASSERT_EQ(aclrtStreamQuery(stream_, &status), ACL_SUCCESS);
  EXPECT_EQ(status, ACL_STREAM_STATUS_COMPLETE);
  for (int i = 0; i < 8; ++i) ASSERT_EQ(aclrtMemsetAsync(a, size, i, size, stream_), 0);
  ASSERT_EQ(aclrtSynchronizeDevice(), ACL_SUCCESS);
  ASSERT_EQ(aclrtStreamQuery(stream_, &status), ACL_SUCCESS);
  EXPECT_EQ(status, ACL_STREAM_STATUS_COMPLETE);
}

TEST_F(AclTest, ContextsAndTheirDefaultStreams) {
  aclrtContext primary = nullptr;
  ASSERT_EQ(aclrtGetCurrentContext(&primary), ACL_SUCCESS);
  aclrtContext extra = nullptr;
  ASSERT_EQ(aclrtCreateContext(&extra, 0), ACL_SUCCESS);
  aclrtContext current = nullptr;
  ASSERT_EQ(aclrtGetCurrentContext(&current), ACL_SUCCESS);
  EXPECT_EQ(current, extra);
  aclrtStream default_stream = nullptr;
  ASSERT_EQ(aclrtCtxGetCurrentDefaultStream(&default_stream), ACL_SUCCESS);
  EXPECT_NE(default_stream, nullptr);
  EXPECT_EQ(aclrtSynchronizeStream(default_stream), ACL_SUCCESS);
  int32_t device = -1;
  ASSERT_EQ(aclrtGetDevice(&device), ACL_SUCCESS);
  EXPECT_EQ(device, 0);
  EXPECT_EQ(aclrtDestroyContext(primary), ACL_ERROR_RT_CONTEXT_NULL);
  ASSERT_EQ(aclrtDestroyContext(extra), ACL_SUCCESS);
  EXPECT_EQ(aclrtSetCurrentContext(extra), ACL_ERROR_RT_PARAM_INVALID);
  ASSERT_EQ(aclrtSetCurrentContext(primary), ACL_SUCCESS);
}

// What aclrtRegStreamStateCallback and aclrtRegDeviceStateCallback hear, in
// order, as "stream <handle> <state>" / "device <id> <state>".
std::vector<std::string>* StateLog() {
  static auto* log = new std::vector<std::string>();
  return log;
}

void OnStreamState(aclrtStream stream, aclrtStreamState state, void* args) {
  StateLog()->push_back(std::string(static_cast<const char*>(args)) + " stream " +
                        std::to_string(reinterpret_cast<uintptr_t>(stream)) + " " +
                        std::to_string(state));
}

void OnDeviceState(int32_t device, aclrtDeviceState state, void* args) {
  StateLog()->push_back(std::string(static_cast<const char*>(args)) + " device " +
                        std::to_string(device) + " " + std::to_string(state));
}

std::string Handle(const void* p) { return std::to_string(reinterpret_cast<uintptr_t>(p)); }

TEST_F(AclTest, StateCallbacksHearStreamsAndDevices) {
  char tag[] = "cb";
  StateLog()->clear();
  ASSERT_EQ(aclrtRegStreamStateCallback("npud-test", OnStreamState, tag), ACL_SUCCESS);
  ASSERT_EQ(aclrtRegDeviceStateCallback("npud-test", OnDeviceState, tag), ACL_SUCCESS);
  // Names are unique; nulls are refused.
  EXPECT_EQ(aclrtRegStreamStateCallback("npud-test", OnStreamState, tag),
            ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(aclrtRegStreamStateCallback(nullptr, OnStreamState, tag), ACL_ERROR_INVALID_PARAM);

  aclrtStream stream = nullptr;
  ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
  ASSERT_EQ(aclrtDestroyStream(stream), ACL_SUCCESS);
  aclrtContext primary = nullptr;
  ASSERT_EQ(aclrtGetCurrentContext(&primary), ACL_SUCCESS);
  aclrtContext extra = nullptr;
  ASSERT_EQ(aclrtCreateContext(&extra, 0), ACL_SUCCESS);
  aclrtStream extra_default = nullptr;
  ASSERT_EQ(aclrtCtxGetCurrentDefaultStream(&extra_default), ACL_SUCCESS);
  ASSERT_EQ(aclrtDestroyContext(extra), ACL_SUCCESS);
  ASSERT_EQ(aclrtSetCurrentContext(primary), ACL_SUCCESS);
  ASSERT_EQ(aclrtSetDevice(2), ACL_SUCCESS);
  aclrtStream device2_default = nullptr;
  ASSERT_EQ(aclrtCtxGetCurrentDefaultStream(&device2_default), ACL_SUCCESS);
  ASSERT_EQ(aclrtResetDevice(2), ACL_SUCCESS);
  ASSERT_EQ(aclrtSetCurrentContext(primary), ACL_SUCCESS);

  ASSERT_EQ(aclrtRegStreamStateCallback("npud-test", nullptr, nullptr), ACL_SUCCESS);
  ASSERT_EQ(aclrtRegDeviceStateCallback("npud-test", nullptr, nullptr), ACL_SUCCESS);
  EXPECT_EQ(aclrtRegDeviceStateCallback("npud-test", nullptr, nullptr), ACL_ERROR_RT_PARAM_INVALID);
  aclrtStream unheard = nullptr;
  ASSERT_EQ(aclrtCreateStream(&unheard), ACL_SUCCESS);
  ASSERT_EQ(aclrtDestroyStream(unheard), ACL_SUCCESS);

  const std::vector<std::string> expected = {
      "cb stream " + Handle(stream) + " 1",
      "cb stream " + Handle(stream) + " 2",
      "cb stream " + Handle(extra_default) + " 1",
      "cb stream " + Handle(extra_default) + " 2",
      "cb device 2 0",
      "cb stream " + Handle(device2_default) + " 1",
      "cb device 2 1",
      "cb device 2 2",
      "cb stream " + Handle(device2_default) + " 2",
      "cb device 2 3",
  };
  EXPECT_EQ(*StateLog(), expected);
}

// The user allocator API: descriptors registered per stream and read back
// with the callbacks that were set.
struct TestAllocator {
  int allocs = 0;
  int frees = 0;
};
void* TestAlloc(aclrtAllocator allocator, size_t size) {
  ++static_cast<TestAllocator*>(allocator)->allocs;
  return std::malloc(size);
}
void TestFree(aclrtAllocator allocator, aclrtAllocatorBlock block) {
  ++static_cast<TestAllocator*>(allocator)->frees;
  std::free(block);
}
void* TestAddr(aclrtAllocatorBlock block) { return block; }

TEST_F(AclTest, AllocatorsRegisterPerStream) {
  aclrtStream stream = nullptr;
  ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
  TestAllocator state;
  aclrtAllocatorDesc desc = aclrtAllocatorCreateDesc();
  ASSERT_NE(desc, nullptr);
  ASSERT_EQ(aclrtAllocatorSetObjToDesc(desc, &state), ACL_SUCCESS);
  ASSERT_EQ(aclrtAllocatorSetAllocFuncToDesc(desc, TestAlloc), ACL_SUCCESS);
  // Not complete yet: free and get-address are missing.
  EXPECT_EQ(aclrtAllocatorRegister(stream, desc), ACL_ERROR_RT_PARAM_INVALID);
  ASSERT_EQ(aclrtAllocatorSetFreeFuncToDesc(desc, TestFree), ACL_SUCCESS);
  ASSERT_EQ(aclrtAllocatorSetGetAddrFromBlockFuncToDesc(desc, TestAddr), ACL_SUCCESS);
  EXPECT_EQ(aclrtAllocatorRegister(nullptr, desc), ACL_ERROR_INVALID_PARAM);
  ASSERT_EQ(aclrtAllocatorRegister(stream, desc), ACL_SUCCESS);

  aclrtAllocatorDesc got_desc = nullptr;
  aclrtAllocator got_allocator = nullptr;
  aclrtAllocatorAllocFunc alloc = nullptr;
  aclrtAllocatorFreeFunc release = nullptr;
  aclrtAllocatorAllocAdviseFunc advise = nullptr;
  aclrtAllocatorGetAddrFromBlockFunc addr = nullptr;
  ASSERT_EQ(aclrtAllocatorGetByStream(stream, &got_desc, &got_allocator, &alloc, &release, &advise,
                                      &addr),
            ACL_SUCCESS);
  EXPECT_EQ(got_desc, desc);
  EXPECT_EQ(got_allocator, &state);
  EXPECT_EQ(advise, nullptr);
  ASSERT_EQ(alloc, &TestAlloc);
  void* block = alloc(got_allocator, 64);
  EXPECT_EQ(addr(block), block);
  release(got_allocator, block);
  EXPECT_EQ(state.allocs, 1);
  EXPECT_EQ(state.frees, 1);

  // The stream keeps its copy after the descriptor is destroyed.
  ASSERT_EQ(aclrtAllocatorDestroyDesc(desc), ACL_SUCCESS);
  EXPECT_EQ(aclrtAllocatorDestroyDesc(desc), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(aclrtAllocatorSetFreeFuncToDesc(desc, TestFree), ACL_ERROR_RT_PARAM_INVALID);
  ASSERT_EQ(aclrtAllocatorGetByStream(stream, nullptr, &got_allocator, nullptr, nullptr, nullptr,
                                      nullptr),
            ACL_SUCCESS);
  EXPECT_EQ(got_allocator, &state);
  ASSERT_EQ(aclrtAllocatorUnregister(stream), ACL_SUCCESS);
  EXPECT_EQ(aclrtAllocatorUnregister(stream), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(aclrtAllocatorGetByStream(stream, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr),
            ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(aclrtDestroyStream(stream), ACL_SUCCESS);
}

// aclrtMemsetD32(Async), the cache maintenance calls (checked no-ops) and
// the freeing calls that synchronize the device first.
TEST_F(AclTest, Memset32CacheOpsAndSynchronizedFrees) {
  aclrtStream stream = nullptr;
  ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
  constexpr size_t kWords = 1000;
  void* dev = nullptr;
  ASSERT_EQ(aclrtMalloc(&dev, kWords * 4, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemsetD32(dev, kWords * 4, 0xDEADBEEF, kWords), ACL_SUCCESS);
  ASSERT_EQ(
      aclrtMemsetD32Async(static_cast<uint32_t*>(dev) + 10, kWords * 4 - 40, 0x01020304, 5, stream),
      ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS);
  std::vector<uint32_t> words(kWords);
  ASSERT_EQ(aclrtMemcpy(words.data(), kWords * 4, dev, kWords * 4, ACL_MEMCPY_DEVICE_TO_HOST), 0);
  for (size_t i = 0; i < kWords; ++i) {
    ASSERT_EQ(words[i], i >= 10 && i < 15 ? 0x01020304u : 0xDEADBEEFu) << i;
  }
  EXPECT_EQ(aclrtMemsetD32(dev, 8, 1, 3), ACL_ERROR_RT_PARAM_INVALID) << "past memSize";
  EXPECT_EQ(aclrtMemsetD32(static_cast<char*>(dev) + 2, 64, 1, 4), ACL_ERROR_RT_PARAM_INVALID)
      << "unaligned";
  EXPECT_EQ(aclrtMemsetD32(words.data(), 64, 1, 4), ACL_ERROR_RT_PARAM_INVALID) << "host memory";
  EXPECT_EQ(aclrtMemsetD32(nullptr, 64, 1, 4), ACL_ERROR_INVALID_PARAM);

  EXPECT_EQ(aclrtMemFlush(dev, 64), ACL_SUCCESS);
  EXPECT_EQ(aclrtMemInvalidate(dev, 64), ACL_SUCCESS);
  EXPECT_EQ(aclrtCmoAsync(dev, 64, ACL_RT_CMO_TYPE_PREFETCH, stream), ACL_SUCCESS);
  EXPECT_EQ(aclrtCmoAsync(dev, 64, static_cast<aclrtCmoType>(9), stream),
            ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(aclrtMemFlush(words.data(), 64), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(aclrtMemFlush(dev, 0), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(aclrtDeviceL2CacheFlush(nullptr), ACL_SUCCESS);

  // The free waits for the work queued before it.
  ASSERT_EQ(aclrtMemsetD32Async(dev, kWords * 4, 7, kWords, stream), ACL_SUCCESS);
  EXPECT_EQ(aclrtFreeWithDevSync(dev), ACL_SUCCESS);
  EXPECT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS) << "the memset ran before the free";
  void* host = nullptr;
  ASSERT_EQ(aclrtMallocHost(&host, 4096), ACL_SUCCESS);
  EXPECT_EQ(aclrtFreeHostWithDevSync(host), ACL_SUCCESS);
  EXPECT_EQ(aclrtFreeWithDevSync(nullptr), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtDestroyStream(stream), ACL_SUCCESS);
}

// aclrtMemcpy2d(Async): a pitched sub-rectangle to the device and back,
// the contiguous case, bad pitches; aclrtPointerGetAttributes of device,
// pinned and plain host memory.
TEST_F(AclTest, Memcpy2dAndPointerAttributes) {
  constexpr size_t kWidth = 24, kHeight = 17, kHostPitch = 40, kDevPitch = 64;
  std::vector<uint8_t> host(kHostPitch * kHeight), back(kHostPitch * kHeight, 0xEE);
  for (size_t i = 0; i < host.size(); ++i) host[i] = static_cast<uint8_t>(i * 7 + 1);
  void* dev = nullptr;
  ASSERT_EQ(aclrtMalloc(&dev, kDevPitch * kHeight, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemset(dev, kDevPitch * kHeight, 0, kDevPitch * kHeight), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemcpy2d(dev, kDevPitch, host.data(), kHostPitch, kWidth, kHeight,
                          ACL_MEMCPY_HOST_TO_DEVICE),
            ACL_SUCCESS);
  // The device holds the rows at its pitch, zeros between them.
  std::vector<uint8_t> image(kDevPitch * kHeight);
  ASSERT_EQ(aclrtMemcpy(image.data(), image.size(), dev, image.size(), ACL_MEMCPY_DEVICE_TO_HOST),
            0);
  for (size_t r = 0; r < kHeight; ++r) {
    for (size_t c = 0; c < kDevPitch; ++c) {
      ASSERT_EQ(image[r * kDevPitch + c], c < kWidth ? host[r * kHostPitch + c] : 0)
          << r << "," << c;
    }
  }
  aclrtStream stream = nullptr;
  ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemcpy2dAsync(back.data(), kHostPitch, dev, kDevPitch, kWidth, kHeight,
                               ACL_MEMCPY_DEVICE_TO_HOST, stream),
            ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS);
  for (size_t r = 0; r < kHeight; ++r) {
    for (size_t c = 0; c < kHostPitch; ++c) {
      ASSERT_EQ(back[r * kHostPitch + c], c < kWidth ? host[r * kHostPitch + c] : 0xEE);
    }
  }
  // Contiguous rows: one copy.
  ASSERT_EQ(aclrtMemcpy2d(dev, 8, host.data(), 8, 8, 10, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemcpy(image.data(), 80, dev, 80, ACL_MEMCPY_DEVICE_TO_HOST), 0);
  EXPECT_EQ(std::memcmp(image.data(), host.data(), 80), 0);
  EXPECT_EQ(aclrtMemcpy2d(dev, 8, host.data(), 40, 16, 2, ACL_MEMCPY_HOST_TO_DEVICE),
            ACL_ERROR_RT_PARAM_INVALID)
      << "dpitch below the width";
  EXPECT_EQ(aclrtMemcpy2d(dev, 64, host.data(), 40, 8, 0, ACL_MEMCPY_HOST_TO_DEVICE),
            ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(aclrtMemcpy2d(nullptr, 64, host.data(), 40, 8, 1, ACL_MEMCPY_HOST_TO_DEVICE),
            ACL_ERROR_INVALID_PARAM);

  aclrtPtrAttributes attributes{};
  ASSERT_EQ(aclrtPointerGetAttributes(static_cast<char*>(dev) + 100, &attributes), ACL_SUCCESS);
  EXPECT_EQ(attributes.location.type, ACL_MEM_LOCATION_TYPE_DEVICE);
  EXPECT_EQ(attributes.location.id, 0u);
  void* pinned = nullptr;
  ASSERT_EQ(aclrtMallocHost(&pinned, 4096), ACL_SUCCESS);
  ASSERT_EQ(aclrtPointerGetAttributes(pinned, &attributes), ACL_SUCCESS);
  EXPECT_EQ(attributes.location.type, ACL_MEM_LOCATION_TYPE_HOST);
  ASSERT_EQ(aclrtPointerGetAttributes(host.data(), &attributes), ACL_SUCCESS);
  EXPECT_EQ(attributes.location.type, ACL_MEM_LOCATION_TYPE_UNREGISTERED);
  EXPECT_EQ(aclrtPointerGetAttributes(host.data(), nullptr), ACL_ERROR_INVALID_PARAM);
  ASSERT_EQ(aclrtSetDevice(1), ACL_SUCCESS);
  void* dev1 = nullptr;
  ASSERT_EQ(aclrtMalloc(&dev1, 4096, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  ASSERT_EQ(aclrtPointerGetAttributes(dev1, &attributes), ACL_SUCCESS);
  EXPECT_EQ(attributes.location.id, 1u);
  EXPECT_EQ(aclrtFree(dev1), ACL_SUCCESS);
  EXPECT_EQ(aclrtResetDevice(1), ACL_SUCCESS);
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  EXPECT_EQ(aclrtFreeHost(pinned), ACL_SUCCESS);
  EXPECT_EQ(aclrtFree(dev), ACL_SUCCESS);
  EXPECT_EQ(aclrtDestroyStream(stream), ACL_SUCCESS);
}

TEST_F(AclTest, MemInfoAccountsForAllocations) {
  size_t free0 = 0, total = 0;
  ASSERT_EQ(aclrtGetMemInfo(ACL_HBM_MEM, &free0, &total), ACL_SUCCESS);
  EXPECT_GT(total, size_t{0});
  EXPECT_LE(free0, total);
  const size_t size = 256 << 20;
  void* dev = nullptr;
  ASSERT_EQ(aclrtMalloc(&dev, size, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  size_t free1 = 0;
  ASSERT_EQ(aclrtGetMemInfo(ACL_HBM_MEM, &free1, &total), ACL_SUCCESS);
  EXPECT_EQ(free0 - free1, size);
  ASSERT_EQ(aclrtFree(dev), ACL_SUCCESS);
  size_t free2 = 0;
  ASSERT_EQ(aclrtGetMemInfo(ACL_HBM_MEM, &free2, &total), ACL_SUCCESS);
  EXPECT_EQ(free2, free0);
  EXPECT_EQ(aclrtGetMemInfo(static_cast<aclrtMemAttr>(18), &free2, &total),
            ACL_ERROR_RT_INVALID_MEMORY_TYPE);
}

TEST_F(AclTest, SynchronizeWithTimeoutExpires) {
  const size_t size = 128 << 20;
  void* a = Malloc(size);
  void* b = Malloc(size);
  for (int i = 0; i < 40; ++i) {
    ASSERT_EQ(aclrtMemcpyAsync(b, size, a, size, ACL_MEMCPY_DEVICE_TO_DEVICE, stream_), 0);
  }
  EXPECT_EQ(aclrtSynchronizeStreamWithTimeout(stream_, 1), ACL_ERROR_RT_STREAM_SYNC_TIMEOUT);
  EXPECT_EQ(aclrtSynchronizeStreamWithTimeout(stream_, -1), ACL_SUCCESS);
}

// --- Bad input -------------------------------------------------------------

TEST_F(AclTest, NullPointersAreInvalidParam) {
  EXPECT_EQ(aclrtMalloc(nullptr, 16, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_INVALID_PARAM);
  void* dev = Malloc(16);
  int host = 0;
  EXPECT_EQ(aclrtMemcpy(nullptr, 4, &host, 4, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtMemcpy(dev, 4, nullptr, 4, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtGetRunMode(nullptr), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtCreateStream(nullptr), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtFree(nullptr), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtRecordEvent(nullptr, stream_), ACL_ERROR_INVALID_PARAM);
  // A zero-byte copy succeeds before any check, as in CANN.
  EXPECT_EQ(aclrtMemcpy(nullptr, 0, nullptr, 0, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
}

TEST_F(AclTest, InvalidDeviceIds) {
  EXPECT_EQ(aclrtSetDevice(99), ACL_ERROR_RT_INVALID_DEVICEID);
  EXPECT_EQ(aclrtSetDevice(-1), ACL_ERROR_RT_INVALID_DEVICEID);
  aclrtContext context = nullptr;
  EXPECT_EQ(aclrtCreateContext(&context, 64), ACL_ERROR_RT_INVALID_DEVICEID);
  int64_t value = 0;
  EXPECT_EQ(aclrtGetDeviceInfo(99, ACL_DEV_ATTR_AICORE_CORE_NUM, &value),
            ACL_ERROR_RT_PARAM_INVALID);
  ASSERT_EQ(aclrtGetDeviceInfo(0, ACL_DEV_ATTR_VECTOR_CORE_NUM, &value), ACL_SUCCESS);
  EXPECT_EQ(value, 48);
  EXPECT_EQ(aclrtResetDevice(3), ACL_ERROR_RT_CONTEXT_RELEASE_ERROR);  // Never set.
}

TEST_F(AclTest, DestMaxSmallerThanCount) {
  void* dev = Malloc(64);
  char host[64] = {};
  EXPECT_EQ(aclrtMemcpy(dev, 32, host, 64, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(aclrtMemcpyAsync(dev, 32, host, 64, ACL_MEMCPY_HOST_TO_DEVICE, stream_),
            ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(aclrtMemset(dev, 32, 0, 64), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(aclrtMemsetAsync(dev, 32, 0, 64, stream_), ACL_ERROR_RT_PARAM_INVALID);
}

TEST_F(AclTest, MemcpyKindMustMatchThePointers) {
  void* dev = Malloc(64);
  char host[64] = {}, other[64] = {};
  // A side the kind calls device memory must be device memory.
  EXPECT_EQ(aclrtMemcpy(other, 64, host, 64, ACL_MEMCPY_HOST_TO_DEVICE),
            ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(aclrtMemcpy(host, 64, other, 64, ACL_MEMCPY_DEVICE_TO_HOST),
            ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(aclrtMemcpy(dev, 64, host, 64, ACL_MEMCPY_DEVICE_TO_DEVICE),
            ACL_ERROR_RT_PARAM_INVALID);
  // Kinds outside the enumeration CANN accepts for copies.
  EXPECT_EQ(aclrtMemcpy(dev, 64, host, 64, static_cast<aclrtMemcpyKind>(7)),
            ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtMemcpy(dev, 64, host, 64, static_cast<aclrtMemcpyKind>(99)),
            ACL_ERROR_INVALID_PARAM);
  // A range running past the end of the allocation.
  char big[128] = {};
  EXPECT_EQ(aclrtMemcpy(dev, 128, big, 128, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_RT_PARAM_INVALID);
}

TEST_F(AclTest, FreeErrors) {
  void* dev = nullptr;
  ASSERT_EQ(aclrtMalloc(&dev, 4096, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  EXPECT_EQ(aclrtFree(static_cast<char*>(dev) + 16), ACL_ERROR_RT_PARAM_INVALID);
  ASSERT_EQ(aclrtFree(dev), ACL_SUCCESS);
  EXPECT_EQ(aclrtFree(dev), ACL_ERROR_RT_PARAM_INVALID);  // Double free.
  int host = 0;
  EXPECT_EQ(aclrtFree(&host), ACL_ERROR_RT_PARAM_INVALID);  // Never device memory.
  EXPECT_EQ(aclrtFreeHost(&host), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(aclrtMalloc(&dev, 0, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_INVALID_PARAM);
}

TEST_F(AclTest, DestroyedStreamsAndEventsAreRejected) {
  aclrtStream gone = nullptr;
  ASSERT_EQ(aclrtCreateStream(&gone), ACL_SUCCESS);
  ASSERT_EQ(aclrtDestroyStream(gone), ACL_SUCCESS);
  EXPECT_EQ(aclrtSynchronizeStream(gone), ACL_ERROR_RT_INVALID_HANDLE);
  EXPECT_EQ(aclrtDestroyStream(gone), ACL_ERROR_RT_INVALID_HANDLE);
  aclrtEvent event = nullptr;
  ASSERT_EQ(aclrtCreateEvent(&event), ACL_SUCCESS);
  EXPECT_EQ(aclrtRecordEvent(event, gone), ACL_ERROR_RT_INVALID_HANDLE);
  ASSERT_EQ(aclrtDestroyEvent(event), ACL_SUCCESS);
  EXPECT_EQ(aclrtRecordEvent(event, stream_), ACL_ERROR_RT_INVALID_HANDLE);
  EXPECT_EQ(aclrtSynchronizeEvent(event), ACL_ERROR_RT_INVALID_HANDLE);
  // A stream handle where an event belongs, and a made-up pointer.
  EXPECT_EQ(aclrtRecordEvent(stream_, stream_), ACL_ERROR_RT_INVALID_HANDLE);
  int bogus = 0;
  EXPECT_EQ(aclrtSynchronizeStream(&bogus), ACL_ERROR_RT_INVALID_HANDLE);
}

TEST_F(AclTest, TimeoutValuesFollowCann) {
  EXPECT_EQ(aclrtSynchronizeStreamWithTimeout(stream_, 0), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(aclrtSynchronizeStreamWithTimeout(stream_, -2), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(aclrtSynchronizeDeviceWithTimeout(0), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(aclrtSynchronizeStreamWithTimeout(stream_, 100), ACL_SUCCESS);
}

TEST_F(AclTest, LastErrorIsPerThreadAndClearedByGet) {
  void* dev = Malloc(16);
  char host[32] = {};
  ASSERT_EQ(aclrtMemcpy(dev, 8, host, 16, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(aclrtPeekAtLastError(ACL_RT_THREAD_LEVEL), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(aclrtGetLastError(ACL_RT_THREAD_LEVEL), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(aclrtGetLastError(ACL_RT_THREAD_LEVEL), ACL_SUCCESS);
  const char* message = aclGetRecentErrMsg();
  ASSERT_NE(message, nullptr);
  EXPECT_NE(std::strstr(message, "aclrtMemcpy"), nullptr);
  // Argument checks of the ACL layer are not recorded as the last error.
  EXPECT_EQ(aclrtGetRunMode(nullptr), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtPeekAtLastError(ACL_RT_THREAD_LEVEL), ACL_SUCCESS);
}

TEST(AclMiscTest, Fp16AndDataTypes) {
  EXPECT_EQ(aclFloatToFloat16(1.0f), 0x3C00);
  EXPECT_EQ(aclFloatToFloat16(-2.5f), 0xC100);
  EXPECT_EQ(aclFloatToFloat16(1e9f), 0x7BFF);  // Saturates.
  EXPECT_EQ(aclFloat16ToFloat(0x3555), 0.333251953125f);
  EXPECT_EQ(aclFloat16ToFloat(0x7C00), 65536.0f);  // Exponent 31 read as normal.
  EXPECT_EQ(aclDataTypeSize(ACL_FLOAT16), 2u);
  EXPECT_EQ(aclDataTypeSize(ACL_COMPLEX128), 16u);
  EXPECT_EQ(aclDataTypeSize(ACL_STRING), 0u);
  EXPECT_EQ(aclDataTypeSize(ACL_FLOAT4_E2M1), 8u);
  const char* soc = aclrtGetSocName();
  ASSERT_NE(soc, nullptr);
  EXPECT_STREQ(soc, "Ascend910B1");
  int32_t compatible = -1;
  ASSERT_EQ(aclrtCheckArchCompatibility("Ascend910B3", &compatible), ACL_SUCCESS);
  EXPECT_EQ(compatible, 1);
  ASSERT_EQ(aclrtCheckArchCompatibility("Ascend310P3", &compatible), ACL_SUCCESS);
  EXPECT_EQ(compatible, 0);
}

TEST(AclMiscTest, ManyThreadsShareTheSession) {
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  std::vector<std::thread> threads;
  std::atomic<int> failures{0};
  for (int t = 0; t < 8; ++t) {
    threads.emplace_back([t, &failures] {
      // The current context is per thread: each thread sets its device.
      if (aclrtSetDevice(t % 2) != ACL_SUCCESS) return void(++failures);
      aclrtStream stream = nullptr;
      if (aclrtCreateStream(&stream) != ACL_SUCCESS) return void(++failures);
      const size_t size = 300000;
      void* dev = nullptr;
      if (aclrtMalloc(&dev, size, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS) {
        return void(++failures);
      }
      for (int round = 0; round < 25; ++round) {
        const auto in = Pattern(size, t * 100 + round);
        std::vector<unsigned char> out(size);
        aclrtMemcpyAsync(dev, size, in.data(), size, ACL_MEMCPY_HOST_TO_DEVICE, stream);
        aclrtMemcpyAsync(out.data(), size, dev, size, ACL_MEMCPY_DEVICE_TO_HOST, stream);
        if (aclrtSynchronizeStream(stream) != ACL_SUCCESS || out != in) ++failures;
      }
      aclrtFree(dev);
      aclrtDestroyStream(stream);
      aclrtResetDevice(t % 2);
    });
  }
  for (auto& thread : threads) thread.join();
  EXPECT_EQ(failures.load(), 0);
}

}  // namespace

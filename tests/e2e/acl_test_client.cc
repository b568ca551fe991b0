// acl_test_client: a separate client process for multi-process tests. The
// daemon comes from NPUD_ADDRESS. Scenarios (argv[1]):
//   flows             copy round trips on device 0; exit 0 if all bytes match
//   hold BYTES        allocate BYTES on device 0, fill them, print
//                     "ADDR <hex>"; then, for each "check" line on stdin,
//                     print "INTACT 1" if the bytes are unchanged (else
//                     "INTACT 0"); runs until stdin closes or it is killed
//   meminfo           print "FREE <bytes>" of device 0
//   poke ADDR         try to free and write another process's address;
//                     print the two error codes "CODES <free> <memcpy>"
//   before-init       use the runtime before aclInit, then the finalize
//                     sequence; print "CODES ..." of each step
//   trap KERNELS N    launch the trapping kernel of the kernel object
//                     KERNELS N times; print "CODES <sync>..." per launch
//   export BYTES FLAGS  allocate BYTES filled with 0x3C, share them with
//                     aclrtIpcMemGetExportKey(FLAGS); print "KEY <key>";
//                     then per stdin line: "allow PID", "sum" (print "SUM s"
//                     of the bytes), "close", "free" — each answered
//                     "CODE c" (or "SUM s")
//   import KEY BYTES  print "PID p", wait for "go", import KEY; print
//                     "CODE c"; then per stdin line: "write V" (memset V),
//                     "sum", "close" — answered "CODE c" / "SUM s";
//                     "read-later KERNELS MS" queues KERNELS' spin (MS ms)
//                     and then add_float doubling the imported floats into
//                     memory of its own; "read-result" waits for them and
//                     answers "SUM s" (of the bytes written) and "CODE c"
//   export-part BYTES  allocate BYTES twice ("shared" and "kept"), both
//                     filled with 0x3C; print "ADDR <shared hex> <kept hex>";
//                     then per stdin line: "export OFFSET SIZE" shares
//                     [shared + OFFSET, + SIZE) with any process (print
//                     "KEY k" or "FAILED c"); "check" prints "INTACT 1" if
//                     all of kept and every byte of shared outside the pages
//                     of accepted exports are unchanged (else "INTACT 0")
//   phys-export BYTES FLAGS, phys-import HANDLE BYTES
//                     the same with physical memory: aclrtMallocPhysical,
//                     mapped at reserved addresses, shared by handle;
//                     "close" unmaps and releases the addresses, "free"
//                     frees the handle (the importer's "close" does both)
//   phys-export-spin KERNELS MS
//                     phys-export of 4096 zero bytes, exported right behind
//                     the spin kernel of KERNELS, which writes 1 into them
//                     after MS ms; any process may import (nobody waits
//                     for the kernel, as in CANN's memory/8 sample)
//   ring N I MS       process I of N: share 1 MiB filled with pattern I,
//                     print "KEY k", read "peer KEY" (process I+1), import
//                     it and verify its bytes for MS ms; print "ROUNDS r"
//   event-producer BYTES  share BYTES and an IPC event; queue slow work, a
//                     value write of 77 into the shared word, and a record;
//                     print "KEYS <mem key> <event handle>"; wait for EOF
//   event-consumer MEMKEY EVKEY  wait on the event on a stream, then read the
//                     shared word on that stream; print "VALUE v"
//   strict            an asynchronous copy to an address outside any
//                     allocation, then a synchronize; print "CODES <copy>
//                     <sync>" (run with and without NPUD_STRICT=1)
//   copy-loop         print "READY", then copy 32 MiB to and from the device
//                     forever (pinned and pageable, synchronous and on a
//                     stream) until killed
//   add-loop KERNELS  print "READY", then launch the add_float kernel of
//                     KERNELS on fresh inputs and check its sums, and copy
//                     1 MiB there and back, until a line arrives on stdin
//                     (at least once); print "ROUNDS r BAD b" (b: wrong
//                     results or errors)
//   timeline KERNELS  the work a trace should show: pinned copies to the
//                     device and two add_float launches on stream 1, an
//                     event recorded there that stream 2 waits for before
//                     copying the sum back, a synchronous copy; print
//                     "TIMELINE OK" if the sums are right (run with
//                     NPUD_TRACE; the trace is written by aclFinalize)
//   pending-callback BYTES  allocate BYTES, queue a blocking host callback
//                     nobody serves and a memset behind it; print
//                     "PENDING", then wait to be killed
//   spin KERNELS MS   launch the spin kernel of KERNELS for MS ms, make sure
//                     npud has it, print "LAUNCHED", then wait to be killed
//   hog KERNELS BLOCKS K SECONDS  print "READY", then for SECONDS keep 4
//                     streams busy with BLOCKS-block launches of the burn
//                     kernel (K thousand rounds of work per block); print
//                     "HOG <launches>"
//   compile-hog THREADS SECONDS  print "READY", then for SECONDS compile
//                     programs of their own on THREADS threads; print
//                     "COMPILE-HOG <compiled> <refused> <failed>"
//   victim KERNELS SECONDS  print "READY", then for SECONDS launch the spin
//                     kernel (1 block, 0 ms) and synchronize, back to back;
//                     print "VICTIM <rounds> <p50 us> <p99 us> <max us>"
//   notify-waiter DEVICE FLAGS  create a notify on DEVICE, export it with
//                     FLAGS; print "KEY k"; then per stdin line: "allow PID"
//                     ("CODE c"), "wait" (queue aclrtWaitAndResetNotify and
//                     synchronize; "WOKEN c")
//   devices KERNELS   every device (of every daemon NPUD_ADDRESS names):
//                     print "DEVICES n", then per device "ADDR d <hex>" of a
//                     buffer there; copies there and back and an add_float
//                     launch on each, then copies between the first and the
//                     last device (synchronous, and on a stream of the
//                     last); print "CHECKS OK" or "FAIL <step> <code>"
//   notify-recorder KEY DEVICE  print "PID p", wait for "go", import KEY on
//                     DEVICE ("CODE c"); then per "record" line record it and
//                     synchronize ("CODE c")

#include <pthread.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <thread>
#include <vector>

#include "acl/acl.h"
#include "tests/e2e/acl_test_client_scenarios.h"

namespace npud::test_client {

bool OpenKernel(const char* kernels, const char* name, aclrtStream* stream,
                aclrtFuncHandle* function) {
  aclrtBinHandle binary = nullptr;
  return aclrtSetDevice(0) == ACL_SUCCESS && aclrtCreateStream(stream) == ACL_SUCCESS &&
         aclrtBinaryLoadFromFile(kernels, nullptr, &binary) == ACL_SUCCESS &&
         aclrtBinaryGetFunction(binary, name, function) == ACL_SUCCESS;
}

}  // namespace npud::test_client

namespace {

using npud::test_client::EventConsumer;
using npud::test_client::EventProducer;
using npud::test_client::Export;
using npud::test_client::ExportPart;
using npud::test_client::Import;
using npud::test_client::NotifyRecorder;
using npud::test_client::NotifyWaiter;
using npud::test_client::OpenKernel;
using npud::test_client::Ring;

void Fill(std::vector<unsigned char>& bytes, unsigned seed) {
  for (size_t i = 0; i < bytes.size(); ++i) bytes[i] = static_cast<unsigned char>(seed + i * 13);
}

int Flows() {
  if (aclrtSetDevice(0) != ACL_SUCCESS) return 2;
  aclrtStream stream = nullptr;
  if (aclrtCreateStream(&stream) != ACL_SUCCESS) return 3;
  const size_t size = (2 << 20) + 77;
  std::vector<unsigned char> in(size), out(size);
  void* dev = nullptr;
  if (aclrtMalloc(&dev, size, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS) return 4;
  for (unsigned round = 0; round < 20; ++round) {
    Fill(in, round + static_cast<unsigned>(getpid()));
    if (aclrtMemcpyAsync(dev, size, in.data(), size, ACL_MEMCPY_HOST_TO_DEVICE, stream) != 0 ||
        aclrtMemcpyAsync(out.data(), size, dev, size, ACL_MEMCPY_DEVICE_TO_HOST, stream) != 0 ||
        aclrtSynchronizeStream(stream) != ACL_SUCCESS) {
      return 5;
    }
    if (out != in) return 6;
  }
  aclrtFree(dev);
  aclrtDestroyStream(stream);
  return 0;
}

int Hold(size_t bytes) {
  if (aclrtSetDevice(0) != ACL_SUCCESS) return 2;
  void* dev = nullptr;
  if (aclrtMalloc(&dev, bytes, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS) return 3;
  if (aclrtMemset(dev, bytes, 0x3C, bytes) != ACL_SUCCESS) return 4;
  std::printf("ADDR %" PRIxPTR "\n", reinterpret_cast<uintptr_t>(dev));
  std::fflush(stdout);
  char line[64];
  std::vector<unsigned char> back(bytes);
  while (std::fgets(line, sizeof(line), stdin) != nullptr) {
    if (std::strncmp(line, "check", 5) != 0) continue;
    bool intact = aclrtMemcpy(back.data(), bytes, dev, bytes, ACL_MEMCPY_DEVICE_TO_HOST) == 0;
    for (size_t i = 0; intact && i < bytes; ++i) intact = back[i] == 0x3C;
    std::printf("INTACT %d\n", intact ? 1 : 0);
    std::fflush(stdout);
  }
  return 0;
}

int MemInfo() {
  if (aclrtSetDevice(0) != ACL_SUCCESS) return 2;
  size_t free_bytes = 0, total = 0;
  if (aclrtGetMemInfo(ACL_HBM_MEM, &free_bytes, &total) != ACL_SUCCESS) return 3;
  std::printf("FREE %zu\n", free_bytes);
  return 0;
}

int Poke(uintptr_t address) {
  if (aclrtSetDevice(0) != ACL_SUCCESS) return 2;
  void* pointer = reinterpret_cast<void*>(address);
  const aclError free_code = aclrtFree(pointer);
  int value = 7;
  const aclError copy_code =
      aclrtMemcpy(pointer, sizeof(value), &value, sizeof(value), ACL_MEMCPY_HOST_TO_DEVICE);
  std::printf("CODES %d %d\n", free_code, copy_code);
  return 0;
}

int BeforeInit() {
  // CANN's runtime calls work without aclInit.
  const aclError set = aclrtSetDevice(0);
  void* dev = nullptr;
  const aclError malloc_code = aclrtMalloc(&dev, 4096, ACL_MEM_MALLOC_HUGE_FIRST);
  int value = 5, back = 0;
  aclError copy = aclrtMemcpy(dev, sizeof(value), &value, sizeof(value), ACL_MEMCPY_HOST_TO_DEVICE);
  if (copy == ACL_SUCCESS) {
    copy = aclrtMemcpy(&back, sizeof(back), dev, sizeof(back), ACL_MEMCPY_DEVICE_TO_HOST);
  }
  const aclError free_code = aclrtFree(dev);
  // Finalize without init succeeds once, then reports a repeat.
  const aclError finalize1 = aclFinalize();
  const aclError finalize2 = aclFinalize();
  const aclError init1 = aclInit(nullptr);
  const aclError init2 = aclInit(nullptr);
  const aclError finalize3 = aclFinalize();
  std::printf("CODES %d %d %d %d %d %d %d %d %d value=%d\n", set, malloc_code, copy, free_code,
              finalize1, finalize2, init1, init2, finalize3, back);
  return 0;
}

// Sets device 0, creates a stream and finds kernel `name` of the kernel
// object `kernels`; false if any step fails.
int Trap(const char* kernels, int rounds) {
  aclrtStream stream = nullptr;
  aclrtFuncHandle function = nullptr;
  if (!OpenKernel(kernels, "trapping", &stream, &function)) return 3;
  std::printf("CODES");
  for (int i = 0; i < rounds; ++i) {
    if (aclrtLaunchKernelWithHostArgs(function, 4, stream, nullptr, nullptr, 0, nullptr, 0) != 0) {
      return 4;
    }
    std::printf(" %d", aclrtSynchronizeStream(stream));
  }
  std::printf("\n");
  return 0;
}

int Spin(const char* kernels, uint32_t ms) {
  aclrtStream stream = nullptr;
  aclrtFuncHandle function = nullptr;
  void* flag = nullptr;
  if (!OpenKernel(kernels, "spin", &stream, &function) ||
      aclrtMalloc(&flag, 4096, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS) {
    return 3;
  }
  struct {
    void* flag;
    uint32_t ms;
  } args{flag, ms};
  size_t free = 0, total = 0;
  // The memory query is synchronous: the launch queued before it is in npud.
  if (aclrtLaunchKernelWithHostArgs(function, 1, stream, nullptr, &args, sizeof(args), nullptr,
                                    0) != ACL_SUCCESS ||
      aclrtGetMemInfo(ACL_HBM_MEM, &free, &total) != ACL_SUCCESS) {
    return 4;
  }
  std::printf("LAUNCHED\n");
  std::fflush(stdout);
  pause();
  return 0;
}

void NeverReturns(void*) {}

// A blocking callback nobody serves: this thread is subscribed but never
// calls aclrtProcessReport, so the stream waits behind it for good.
int PendingCallback(size_t bytes) {
  void* device = nullptr;
  aclrtStream stream = nullptr;
  size_t free = 0, total = 0;
  if (aclrtSetDevice(0) != ACL_SUCCESS ||
      aclrtMalloc(&device, bytes, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS ||
      aclrtCreateStream(&stream) != ACL_SUCCESS ||
      aclrtSubscribeReport(static_cast<uint64_t>(pthread_self()), stream) != ACL_SUCCESS ||
      aclrtLaunchCallback(NeverReturns, nullptr, ACL_CALLBACK_BLOCK, stream) != ACL_SUCCESS ||
      aclrtMemsetAsync(device, bytes, 1, bytes, stream) != ACL_SUCCESS ||
      // Synchronous: what was queued before it is in npud.
      aclrtGetMemInfo(ACL_HBM_MEM, &free, &total) != ACL_SUCCESS) {
    return 3;
  }
  std::printf("PENDING\n");
  std::fflush(stdout);
  pause();
  return 0;
}

int AddLoop(const char* kernels) {
  aclrtStream stream = nullptr;
  aclrtFuncHandle function = nullptr;
  if (!OpenKernel(kernels, "add_float", &stream, &function)) return 3;
  constexpr uint32_t kCount = 1 << 18;  // 1 MiB of floats
  constexpr size_t kBytes = kCount * sizeof(float);
  void* x = nullptr;
  void* y = nullptr;
  void* z = nullptr;
  for (void** p : {&x, &y, &z}) {
    if (aclrtMalloc(p, kBytes, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS) return 4;
  }
  std::vector<float> a(kCount), b(kCount), c(kCount);
  std::printf("READY\n");
  std::fflush(stdout);
  std::atomic<bool> stop{false};
  std::thread watcher([&stop] {
    char line[64];
    if (std::fgets(line, sizeof(line), stdin) == nullptr) {
    }
    stop.store(true);
  });
  uint64_t rounds = 0, bad = 0;
  // At least one round, however soon the stop comes: a loaded machine may
  // not have scheduled this process before it.
  while (!stop.load() || rounds == 0) {
    for (uint32_t i = 0; i < kCount; ++i) {
      a[i] = static_cast<float>(i % 1000 + rounds);
      b[i] = static_cast<float>(rounds % 7);
    }
    struct {
      void* x;
      void* y;
      void* z;
      uint32_t n;
    } args{x, y, z, kCount};
    bool ok = aclrtMemcpy(x, kBytes, a.data(), kBytes, ACL_MEMCPY_HOST_TO_DEVICE) == 0 &&
              aclrtMemcpy(y, kBytes, b.data(), kBytes, ACL_MEMCPY_HOST_TO_DEVICE) == 0 &&
              aclrtLaunchKernelWithHostArgs(function, 8, stream, nullptr, &args, sizeof(args),
                                            nullptr, 0) == 0 &&
              aclrtSynchronizeStream(stream) == 0 &&
              aclrtMemcpy(c.data(), kBytes, z, kBytes, ACL_MEMCPY_DEVICE_TO_HOST) == 0;
    for (uint32_t i = 0; ok && i < kCount; ++i) ok = c[i] == a[i] + b[i];
    if (!ok) ++bad;
    ++rounds;
  }
  watcher.join();
  std::printf("ROUNDS %" PRIu64 " BAD %" PRIu64 "\n", rounds, bad);
  return 0;
}

int Devices(const char* kernels) {
  uint32_t count = 0;
  if (aclrtGetDeviceCount(&count) != ACL_SUCCESS || count == 0) return 2;
  std::printf("DEVICES %u\n", count);
  constexpr uint32_t kCount = 1 << 16;
  constexpr size_t kBytes = kCount * sizeof(float);
  aclrtBinHandle binary = nullptr;
  aclrtFuncHandle function = nullptr;
  if (aclrtSetDevice(0) != ACL_SUCCESS ||
      aclrtBinaryLoadFromFile(kernels, nullptr, &binary) != ACL_SUCCESS ||
      aclrtBinaryGetFunction(binary, "add_float", &function) != ACL_SUCCESS) {
    return 3;
  }
  auto fail = [](const char* step, uint32_t device, int code) {
    std::printf("FAIL %s on device %u: %d\n", step, device, code);
    return 1;
  };
  std::vector<void*> sums(count);
  std::vector<aclrtStream> streams(count);
  std::vector<float> a(kCount), b(kCount), c(kCount);
  for (uint32_t d = 0; d < count; ++d) {
    void* x = nullptr;
    void* y = nullptr;
    int code = aclrtSetDevice(static_cast<int32_t>(d));
    if (code != 0) return fail("set", d, code);
    for (void** p : {&x, &y, &sums[d]}) {
      if ((code = aclrtMalloc(p, kBytes, ACL_MEM_MALLOC_HUGE_FIRST)) != 0)
        return fail("malloc", d, code);
    }
    std::printf("ADDR %u %" PRIxPTR "\n", d, reinterpret_cast<uintptr_t>(sums[d]));
    if ((code = aclrtCreateStream(&streams[d])) != 0) return fail("stream", d, code);
    for (uint32_t i = 0; i < kCount; ++i) {
      a[i] = static_cast<float>(i % 1000 + d);
      b[i] = static_cast<float>(d + 1);
    }
    struct {
      void* x;
      void* y;
      void* z;
      uint32_t n;
    } args{x, y, sums[d], kCount};
    if ((code = aclrtMemcpy(x, kBytes, a.data(), kBytes, ACL_MEMCPY_HOST_TO_DEVICE)) != 0 ||
        (code = aclrtMemcpy(y, kBytes, b.data(), kBytes, ACL_MEMCPY_HOST_TO_DEVICE)) != 0) {
      return fail("copy in", d, code);
    }
    if ((code = aclrtLaunchKernelWithHostArgs(function, 4, streams[d], nullptr, &args, sizeof(args),
                                              nullptr, 0)) != 0 ||
        (code = aclrtSynchronizeStream(streams[d])) != 0) {
      return fail("kernel", d, code);
    }
    if ((code = aclrtMemcpy(c.data(), kBytes, sums[d], kBytes, ACL_MEMCPY_DEVICE_TO_HOST)) != 0) {
      return fail("copy out", d, code);
    }
    for (uint32_t i = 0; i < kCount; ++i) {
      if (c[i] != a[i] + b[i]) return fail("sum", d, static_cast<int>(i));
    }
  }
  // The first device's sums onto the last device, and back into a fresh
  // buffer of the first on a stream of the last.
  const uint32_t last = count - 1;
  void* copy = nullptr;
  void* back = nullptr;
  std::vector<float> expected(kCount), got(kCount);
  int code = aclrtSetDevice(0);
  if (code == 0) code = aclrtMalloc(&back, kBytes, ACL_MEM_MALLOC_HUGE_FIRST);
  if (code == 0)
    code = aclrtMemcpy(expected.data(), kBytes, sums[0], kBytes, ACL_MEMCPY_DEVICE_TO_HOST);
  if (code == 0) code = aclrtSetDevice(static_cast<int32_t>(last));
  if (code == 0) code = aclrtMalloc(&copy, kBytes, ACL_MEM_MALLOC_HUGE_FIRST);
  if (code == 0) code = aclrtMemcpy(copy, kBytes, sums[0], kBytes, ACL_MEMCPY_DEVICE_TO_DEVICE);
  if (code == 0) code = aclrtMemcpy(got.data(), kBytes, copy, kBytes, ACL_MEMCPY_DEVICE_TO_HOST);
  if (code != 0) return fail("copy across", last, code);
  if (got != expected) return fail("copy across", last, -1);
  code = aclrtMemcpyAsync(back, kBytes, copy, kBytes, ACL_MEMCPY_DEVICE_TO_DEVICE, streams[last]);
  if (code == 0) code = aclrtSynchronizeStream(streams[last]);
  std::fill(got.begin(), got.end(), 0.0f);
  if (code == 0) code = aclrtMemcpy(got.data(), kBytes, back, kBytes, ACL_MEMCPY_DEVICE_TO_HOST);
  if (code != 0) return fail("async copy across", last, code);
  if (got != expected) return fail("async copy across", last, -1);
  std::printf("CHECKS OK\n");
  return 0;
}

int Timeline(const char* kernels) {
  aclrtStream first = nullptr, second = nullptr;
  aclrtFuncHandle function = nullptr;
  aclrtEvent event = nullptr;
  if (!OpenKernel(kernels, "add_float", &first, &function) ||
      aclrtCreateStream(&second) != ACL_SUCCESS || aclrtCreateEvent(&event) != ACL_SUCCESS) {
    return 3;
  }
  constexpr uint32_t kCount = 1 << 18;
  constexpr size_t kBytes = kCount * sizeof(float);
  void* x = nullptr;
  void* y = nullptr;
  void* z = nullptr;
  void* host = nullptr;
  for (void** p : {&x, &y, &z}) {
    if (aclrtMalloc(p, kBytes, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS) return 4;
  }
  if (aclrtMallocHost(&host, 3 * kBytes) != ACL_SUCCESS) return 4;
  float* a = static_cast<float*>(host);
  float* b = a + kCount;
  float* c = b + kCount;
  for (uint32_t i = 0; i < kCount; ++i) {
    a[i] = static_cast<float>(i % 100);
    b[i] = 2.0f;
  }
  struct {
    void* x;
    void* y;
    void* z;
    uint32_t n;
  } args{x, y, z, kCount};
  bool ok = aclrtMemcpyAsync(x, kBytes, a, kBytes, ACL_MEMCPY_HOST_TO_DEVICE, first) == 0 &&
            aclrtMemcpyAsync(y, kBytes, b, kBytes, ACL_MEMCPY_HOST_TO_DEVICE, first) == 0 &&
            aclrtLaunchKernelWithHostArgs(function, 8, first, nullptr, &args, sizeof(args), nullptr,
                                          0) == 0 &&
            aclrtLaunchKernelWithHostArgs(function, 8, first, nullptr, &args, sizeof(args), nullptr,
                                          0) == 0 &&
            aclrtRecordEvent(event, first) == 0 && aclrtStreamWaitEvent(second, event) == 0 &&
            aclrtMemcpyAsync(c, kBytes, z, kBytes, ACL_MEMCPY_DEVICE_TO_HOST, second) == 0 &&
            aclrtSynchronizeStream(second) == 0 && aclrtSynchronizeStream(first) == 0;
  for (uint32_t i = 0; ok && i < kCount; ++i) ok = c[i] == a[i] + b[i];
  ok = ok && aclrtMemcpy(z, kBytes, a, kBytes, ACL_MEMCPY_HOST_TO_DEVICE) == 0;
  std::printf("TIMELINE %s\n", ok ? "OK" : "BAD");
  return 0;
}

int Strict() {
  aclrtStream stream = nullptr;
  void* dev = nullptr;
  if (aclrtSetDevice(0) != 0 || aclrtCreateStream(&stream) != 0 ||
      aclrtMalloc(&dev, 4096, ACL_MEM_MALLOC_HUGE_FIRST) != 0) {
    return 2;
  }
  char host[64] = {};
  // Inside the device's address range, outside the allocation.
  void* outside = static_cast<char*>(dev) + (1 << 20);
  const aclError copy = aclrtMemcpyAsync(outside, sizeof(host), host, sizeof(host),
                                         ACL_MEMCPY_HOST_TO_DEVICE, stream);
  const aclError sync = aclrtSynchronizeStream(stream);
  std::printf("CODES %d %d\n", copy, sync);
  return 0;
}

int CopyLoop() {
  constexpr size_t kBytes = 32 << 20;
  aclrtStream stream = nullptr;
  void* dev = nullptr;
  void* pinned = nullptr;
  if (aclrtSetDevice(0) != 0 || aclrtCreateStream(&stream) != 0 ||
      aclrtMalloc(&dev, kBytes, ACL_MEM_MALLOC_HUGE_FIRST) != 0 ||
      aclrtMallocHost(&pinned, kBytes) != 0) {
    return 2;
  }
  std::vector<unsigned char> pageable(kBytes, 7);
  std::printf("READY\n");
  std::fflush(stdout);
  for (;;) {
    aclrtMemcpy(dev, kBytes, pinned, kBytes, ACL_MEMCPY_HOST_TO_DEVICE);
    aclrtMemcpy(pageable.data(), kBytes, dev, kBytes, ACL_MEMCPY_DEVICE_TO_HOST);
    aclrtMemcpyAsync(pinned, kBytes, dev, kBytes, ACL_MEMCPY_DEVICE_TO_HOST, stream);
    aclrtMemcpyAsync(dev, kBytes, pageable.data(), kBytes, ACL_MEMCPY_HOST_TO_DEVICE, stream);
    aclrtSynchronizeStream(stream);
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) return 64;
  const std::string scenario = argv[1];
  if (scenario == "before-init") return BeforeInit();
  if (aclInit(nullptr) != ACL_SUCCESS) return 65;
  int rc = 64;
  if (scenario == "flows") rc = Flows();
  if (scenario == "set-device") {
    std::printf("CODE %d\n", aclrtSetDevice(0));
    rc = 0;
  }
  if (scenario == "hold" && argc > 2) rc = Hold(std::strtoull(argv[2], nullptr, 0));
  if (scenario == "meminfo") rc = MemInfo();
  if (scenario == "poke" && argc > 2) rc = Poke(std::strtoull(argv[2], nullptr, 16));
  if (scenario == "trap" && argc > 3) rc = Trap(argv[2], std::atoi(argv[3]));
  if (scenario == "add-loop" && argc > 2) rc = AddLoop(argv[2]);
  if (scenario == "timeline" && argc > 2) rc = Timeline(argv[2]);
  if (scenario == "devices" && argc > 2) rc = Devices(argv[2]);
  if (scenario == "spin" && argc > 3) rc = Spin(argv[2], std::strtoul(argv[3], nullptr, 0));
  if (scenario == "hog" && argc > 5) {
    rc = npud::test_client::Hog(argv[2], std::strtoul(argv[3], nullptr, 0),
                                std::strtoul(argv[4], nullptr, 0), std::atof(argv[5]));
  }
  if (scenario == "victim" && argc > 3) rc = npud::test_client::Victim(argv[2], std::atof(argv[3]));
  if (scenario == "compile-hog" && argc > 3) {
    rc = npud::test_client::CompileHog(std::atoi(argv[2]), std::atof(argv[3]));
  }
  const bool physical = scenario.rfind("phys-", 0) == 0;
  if ((scenario == "export" || scenario == "phys-export") && argc > 3) {
    rc = Export(std::strtoull(argv[2], nullptr, 0), std::strtoull(argv[3], nullptr, 0), physical);
  }
  if (scenario == "phys-export-spin" && argc > 3) {
    rc = Export(4096, 1, true, argv[2], std::strtoul(argv[3], nullptr, 0));
  }
  if ((scenario == "import" || scenario == "phys-import") && argc > 3) {
    rc = Import(argv[2], std::strtoull(argv[3], nullptr, 0), physical);
  }
  if (scenario == "export-part" && argc > 2) rc = ExportPart(std::strtoull(argv[2], nullptr, 0));
  if (scenario == "ring" && argc > 4) {
    rc = Ring(std::atoi(argv[2]), std::atoi(argv[3]), std::atoi(argv[4]));
  }
  if (scenario == "event-producer" && argc > 2)
    rc = EventProducer(std::strtoull(argv[2], nullptr, 0));
  if (scenario == "event-consumer" && argc > 3) rc = EventConsumer(argv[2], argv[3]);
  if (scenario == "pending-callback" && argc > 2) {
    rc = PendingCallback(std::strtoull(argv[2], nullptr, 0));
  }
  if (scenario == "strict") rc = Strict();
  if (scenario == "copy-loop") rc = CopyLoop();
  if (scenario == "notify-waiter" && argc > 3) {
    rc = NotifyWaiter(std::atoi(argv[2]), std::strtoull(argv[3], nullptr, 0));
  }
  if (scenario == "notify-recorder" && argc > 3) rc = NotifyRecorder(argv[2], std::atoi(argv[3]));
  aclFinalize();
  return rc;
}

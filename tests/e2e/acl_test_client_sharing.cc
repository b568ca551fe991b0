// acl_test_client's sharing scenarios (export, import, ring, IPC events and
// notifies): device memory, events and notifies shared between processes.

#include <unistd.h>

#include <algorithm>
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
namespace {

uint64_t Sum(const void* device, size_t bytes, aclError* code) {
  std::vector<unsigned char> host(bytes);
  *code = aclrtMemcpy(host.data(), bytes, device, bytes, ACL_MEMCPY_DEVICE_TO_HOST);
  uint64_t sum = 0;
  for (unsigned char c : host) sum += c;
  return sum;
}

// Device memory shared between processes, by IPC key (aclrtMalloc +
// aclrtIpcMem*) or as physical memory by shareable handle (aclrtMallocPhysical
// + aclrtMem*ShareableHandle, mapped with aclrtReserveMemAddress/aclrtMapMem).
class SharedBuffer {
 public:
  SharedBuffer(bool physical, size_t bytes) : physical_(physical), bytes_(bytes) {}
  void* device() const { return device_; }
  const std::string& key() const { return key_; }

  // Allocates, fills with `fill`, runs `then` on the memory and exports
  // with `flags`.
  aclError Export(uint64_t flags, int fill, const std::function<aclError(void*)>& then) {
    aclError code =
        physical_ ? Map(nullptr) : aclrtMalloc(&device_, bytes_, ACL_MEM_MALLOC_HUGE_FIRST);
    if (code == ACL_SUCCESS) code = aclrtMemset(device_, bytes_, fill, bytes_);
    if (code == ACL_SUCCESS && then) code = then(device_);
    if (code != ACL_SUCCESS) return code;
    if (physical_) {
      uint64_t shareable = 0;
      code = aclrtMemExportToShareableHandle(handle_, ACL_MEM_HANDLE_TYPE_NONE, flags, &shareable);
      key_ = std::to_string(shareable);
      return code;
    }
    char key[128] = {};
    code = aclrtIpcMemGetExportKey(device_, bytes_, key, sizeof(key), flags);
    key_ = key;
    return code;
  }
  aclError Import(const std::string& key) {
    key_ = key;
    if (!physical_) return aclrtIpcMemImportByKey(&device_, key.c_str(), 0);
    aclrtDrvMemHandle handle = nullptr;
    const aclError code =
        aclrtMemImportFromShareableHandle(std::strtoull(key.c_str(), nullptr, 10), 0, &handle);
    return code == ACL_SUCCESS ? Map(handle) : code;
  }
  aclError Allow(int32_t pid) {
    if (!physical_) return aclrtIpcMemSetImportPid(key_.c_str(), &pid, 1);
    return aclrtMemSetPidToShareableHandle(std::strtoull(key_.c_str(), nullptr, 10), &pid, 1);
  }
  // Stops using the memory (IPC close; unmap and release the addresses).
  aclError Close() {
    if (!physical_) return aclrtIpcMemClose(key_.c_str());
    aclError code = aclrtUnmapMem(device_);
    if (code == ACL_SUCCESS) code = aclrtReleaseMemAddress(device_);
    return code;
  }
  // Frees the allocation (the physical memory handle).
  aclError Free() { return physical_ ? aclrtFreePhysical(handle_) : aclrtFree(device_); }

 private:
  // Physical memory: allocates it unless `imported` is given, then reserves
  // addresses and maps it there.
  aclError Map(aclrtDrvMemHandle imported) {
    aclrtPhysicalMemProp prop = {};
    prop.handleType = ACL_MEM_HANDLE_TYPE_NONE;
    prop.allocationType = ACL_MEM_ALLOCATION_TYPE_PINNED;
    prop.location.type = ACL_MEM_LOCATION_TYPE_DEVICE;
    prop.location.id = 0;
    prop.memAttr = ACL_HBM_MEM_NORMAL;
    size_t granularity = 0;
    aclError code =
        aclrtMemGetAllocationGranularity(&prop, ACL_RT_MEM_ALLOC_GRANULARITY_MINIMUM, &granularity);
    if (code != ACL_SUCCESS) return code;
    const size_t size = (bytes_ + granularity - 1) / granularity * granularity;
    handle_ = imported;
    if (handle_ == nullptr && (code = aclrtMallocPhysical(&handle_, size, &prop, 0)) != 0)
      return code;
    if ((code = aclrtReserveMemAddress(&device_, size, 0, nullptr, 0)) != 0) return code;
    if ((code = aclrtMapMem(device_, size, 0, handle_, 0)) != 0) return code;
    aclrtMemAccessDesc access = {};
    access.flags = ACL_RT_MEM_ACCESS_FLAGS_READWRITE;
    access.location.type = ACL_MEM_LOCATION_TYPE_DEVICE;
    access.location.id = 0;
    return aclrtMemSetAccess(device_, size, &access, 1);
  }

  const bool physical_;
  const size_t bytes_;
  void* device_ = nullptr;
  aclrtDrvMemHandle handle_ = nullptr;
  std::string key_;
};

// `spin_kernels`: fills with zeros instead, then exports right behind the
// spin kernel writing 1 after `spin_ms`.
}  // namespace

int Export(size_t bytes, uint64_t flags, bool physical, const char* spin_kernels,
           uint32_t spin_ms) {
  if (aclrtSetDevice(0) != ACL_SUCCESS) return 2;
  SharedBuffer buffer(physical, bytes);
  aclrtStream stream = nullptr;
  aclrtFuncHandle spin = nullptr;
  if (spin_kernels != nullptr && !OpenKernel(spin_kernels, "spin", &stream, &spin)) return 3;
  auto launch_spin = [&](void* memory) {
    struct {
      void* flag;
      uint32_t ms;
    } args{memory, spin_ms};
    return aclrtLaunchKernelWithHostArgs(spin, 1, stream, nullptr, &args, sizeof(args), nullptr, 0);
  };
  const aclError exported = spin_kernels != nullptr ? buffer.Export(flags, 0, launch_spin)
                                                    : buffer.Export(flags, 0x3C, {});
  if (exported != ACL_SUCCESS) {
    std::printf("FAILED %d\n", exported);
    return 3;
  }
  std::printf("KEY %s\n", buffer.key().c_str());
  std::fflush(stdout);
  char line[256];
  while (std::fgets(line, sizeof(line), stdin) != nullptr) {
    int32_t pid = 0;
    aclError code = ACL_SUCCESS;
    if (std::sscanf(line, "allow %d", &pid) == 1) {
      code = buffer.Allow(pid);
    } else if (std::strncmp(line, "sum", 3) == 0) {
      const uint64_t sum = Sum(buffer.device(), bytes, &code);
      std::printf("SUM %llu\n", static_cast<unsigned long long>(sum));
      std::fflush(stdout);
      continue;
    } else if (std::strncmp(line, "close", 5) == 0) {
      code = buffer.Close();
    } else if (std::strncmp(line, "free", 4) == 0) {
      code = buffer.Free();
    }
    std::printf("CODE %d\n", code);
    std::fflush(stdout);
  }
  return 0;
}

namespace {

// The importer's "read-later": doubles the imported floats into memory of its
// own with e2e_kernels' add_float, queued behind their spin kernel.
class LateReader {
 public:
  aclError Launch(const char* kernels, uint32_t ms, void* imported, size_t bytes) {
    aclrtBinHandle binary = nullptr;
    aclrtFuncHandle spin = nullptr;
    aclrtFuncHandle add = nullptr;
    bytes_ = bytes;
    aclError code = aclrtCreateStream(&stream_);
    if (code == ACL_SUCCESS) code = aclrtBinaryLoadFromFile(kernels, nullptr, &binary);
    if (code == ACL_SUCCESS) code = aclrtBinaryGetFunction(binary, "spin", &spin);
    if (code == ACL_SUCCESS) code = aclrtBinaryGetFunction(binary, "add_float", &add);
    if (code == ACL_SUCCESS) code = aclrtMalloc(&flag_, 4, ACL_MEM_MALLOC_HUGE_FIRST);
    if (code == ACL_SUCCESS) code = aclrtMalloc(&own_, bytes, ACL_MEM_MALLOC_HUGE_FIRST);
    if (code != ACL_SUCCESS) return code;
    struct {
      void* flag;
      uint32_t ms;
    } spin_args{flag_, ms};
    code = aclrtLaunchKernelWithHostArgs(spin, 1, stream_, nullptr, &spin_args, sizeof(spin_args),
                                         nullptr, 0);
    struct {
      void* x;
      void* y;
      void* z;
      uint32_t n;
    } add_args{imported, imported, own_, static_cast<uint32_t>(bytes / sizeof(float))};
    if (code == ACL_SUCCESS) {
      code = aclrtLaunchKernelWithHostArgs(add, 1, stream_, nullptr, &add_args, sizeof(add_args),
                                           nullptr, 0);
    }
    return code;
  }
  // Waits for the launches; the byte sum of what add_float wrote.
  uint64_t Result(aclError* code) {
    *code = aclrtSynchronizeStream(stream_);
    if (*code != ACL_SUCCESS) return 0;
    return Sum(own_, bytes_, code);
  }

 private:
  aclrtStream stream_ = nullptr;
  void* flag_ = nullptr;
  void* own_ = nullptr;
  size_t bytes_ = 0;
};

}  // namespace

int Import(const char* key, size_t bytes, bool physical) {
  std::printf("PID %d\n", static_cast<int>(getpid()));
  std::fflush(stdout);
  char line[256];
  if (std::fgets(line, sizeof(line), stdin) == nullptr) return 2;
  if (aclrtSetDevice(0) != ACL_SUCCESS) return 3;
  SharedBuffer buffer(physical, bytes);
  std::printf("CODE %d\n", buffer.Import(key));
  std::fflush(stdout);
  LateReader reader;
  while (std::fgets(line, sizeof(line), stdin) != nullptr) {
    int value = 0;
    aclError code = ACL_SUCCESS;
    char kernels[200] = {};
    unsigned ms = 0;
    if (std::sscanf(line, "write %d", &value) == 1) {
      code = aclrtMemset(buffer.device(), bytes, value, bytes);
    } else if (std::sscanf(line, "read-later %199s %u", kernels, &ms) == 2) {
      code = reader.Launch(kernels, ms, buffer.device(), bytes);
    } else if (std::strncmp(line, "read-result", 11) == 0) {
      const uint64_t sum = reader.Result(&code);
      std::printf("SUM %llu\n", static_cast<unsigned long long>(sum));
    } else if (std::strncmp(line, "sum", 3) == 0) {
      const uint64_t sum = Sum(buffer.device(), bytes, &code);
      std::printf("SUM %llu\n", static_cast<unsigned long long>(code == 0 ? sum : 0));
      std::printf("CODE %d\n", code);
      std::fflush(stdout);
      continue;
    } else if (std::strncmp(line, "close", 5) == 0) {
      code = buffer.Close();
      if (code == ACL_SUCCESS && physical) code = buffer.Free();
    }
    std::printf("CODE %d\n", code);
    std::fflush(stdout);
  }
  return 0;
}

int ExportPart(size_t bytes) {
  constexpr uint64_t kPage = 4096;
  if (aclrtSetDevice(0) != ACL_SUCCESS) return 2;
  void* shared = nullptr;
  void* kept = nullptr;
  if (aclrtMalloc(&shared, bytes, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS ||
      aclrtMalloc(&kept, bytes, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS ||
      aclrtMemset(shared, bytes, 0x3C, bytes) != ACL_SUCCESS ||
      aclrtMemset(kept, bytes, 0x3C, bytes) != ACL_SUCCESS) {
    return 3;
  }
  std::printf("ADDR %" PRIxPTR " %" PRIxPTR "\n", reinterpret_cast<uintptr_t>(shared),
              reinterpret_cast<uintptr_t>(kept));
  std::fflush(stdout);
  // The bytes of `shared` an importer's kernels may reach: the pages of the
  // exports npud accepted.
  std::vector<bool> reachable(bytes, false);
  char line[256];
  while (std::fgets(line, sizeof(line), stdin) != nullptr) {
    size_t offset = 0, size = 0;
    if (std::sscanf(line, "export %zu %zu", &offset, &size) == 2) {
      char key[128] = {};
      const aclError code =
          aclrtIpcMemGetExportKey(static_cast<char*>(shared) + offset, size, key, sizeof(key), 1);
      if (code == ACL_SUCCESS) {
        const size_t end = std::min(bytes, (offset + size + kPage - 1) / kPage * kPage);
        for (size_t i = offset / kPage * kPage; i < end; ++i) reachable[i] = true;
        std::printf("KEY %s\n", key);
      } else {
        std::printf("FAILED %d\n", code);
      }
    } else if (std::strncmp(line, "check", 5) == 0) {
      std::vector<unsigned char> back(bytes), kept_back(bytes);
      bool intact =
          aclrtMemcpy(back.data(), bytes, shared, bytes, ACL_MEMCPY_DEVICE_TO_HOST) == 0 &&
          aclrtMemcpy(kept_back.data(), bytes, kept, bytes, ACL_MEMCPY_DEVICE_TO_HOST) == 0;
      for (size_t i = 0; intact && i < bytes; ++i) {
        intact = kept_back[i] == 0x3C && (reachable[i] || back[i] == 0x3C);
      }
      std::printf("INTACT %d\n", intact ? 1 : 0);
    }
    std::fflush(stdout);
  }
  return 0;
}

namespace {

unsigned char RingByte(int process, size_t i) {
  return static_cast<unsigned char>(process * 37 + i * 11 + (i >> 10));
}

}  // namespace

int Ring(int count, int index, int ms) {
  if (aclrtSetDevice(0) != ACL_SUCCESS) return 2;
  constexpr size_t kBytes = 1 << 20;
  std::vector<unsigned char> mine(kBytes), seen(kBytes);
  for (size_t i = 0; i < kBytes; ++i) mine[i] = RingByte(index, i);
  void* dev = nullptr;
  void* scratch = nullptr;
  if (aclrtMalloc(&dev, kBytes, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS ||
      aclrtMalloc(&scratch, kBytes, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS ||
      aclrtMemcpy(dev, kBytes, mine.data(), kBytes, ACL_MEMCPY_HOST_TO_DEVICE) != ACL_SUCCESS) {
    return 3;
  }
  char key[128] = {};
  if (aclrtIpcMemGetExportKey(dev, kBytes, key, sizeof(key), 1) != ACL_SUCCESS) return 4;
  std::printf("KEY %s\n", key);
  std::fflush(stdout);
  char line[256], peer_key[128];
  if (std::fgets(line, sizeof(line), stdin) == nullptr ||
      std::sscanf(line, "peer %127s", peer_key) != 1) {
    return 5;
  }
  void* peer = nullptr;
  if (aclrtIpcMemImportByKey(&peer, peer_key, 0) != ACL_SUCCESS) return 6;
  const int peer_index = (index + 1) % count;
  aclrtStream stream = nullptr;
  if (aclrtCreateStream(&stream) != ACL_SUCCESS) return 7;
  int rounds = 0;
  const auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(ms);
  while (rounds == 0 || std::chrono::steady_clock::now() < until) {
    // Through the device (peer -> own scratch) and back to the host.
    if (aclrtMemcpyAsync(scratch, kBytes, peer, kBytes, ACL_MEMCPY_DEVICE_TO_DEVICE, stream) != 0 ||
        aclrtMemcpyAsync(seen.data(), kBytes, scratch, kBytes, ACL_MEMCPY_DEVICE_TO_HOST, stream) !=
            0 ||
        aclrtSynchronizeStream(stream) != ACL_SUCCESS) {
      return 8;
    }
    for (size_t i = 0; i < kBytes; ++i) {
      if (seen[i] != RingByte(peer_index, i)) return 9;
    }
    ++rounds;
  }
  std::printf("ROUNDS %d\n", rounds);
  std::fflush(stdout);
  // Stay until told, so the peer of the previous process stays shared.
  while (std::fgets(line, sizeof(line), stdin) != nullptr) {
  }
  aclrtIpcMemClose(peer_key);
  aclrtIpcMemClose(key);
  return 0;
}

int EventProducer(size_t bytes) {
  if (aclrtSetDevice(0) != ACL_SUCCESS) return 2;
  aclrtStream stream = nullptr;
  void* shared = nullptr;
  void* big = nullptr;
  aclrtEvent event = nullptr;
  const size_t big_bytes = 256 << 20;
  if (aclrtCreateStream(&stream) != 0 ||
      aclrtMalloc(&shared, bytes, ACL_MEM_MALLOC_HUGE_FIRST) != 0 ||
      aclrtMalloc(&big, big_bytes, ACL_MEM_MALLOC_HUGE_FIRST) != 0 ||
      aclrtMemset(shared, bytes, 0, bytes) != 0 ||
      aclrtCreateEventExWithFlag(&event, ACL_EVENT_IPC) != 0) {
    return 3;
  }
  // Slow work first, so a consumer that did not wait would read 0.
  for (int i = 0; i < 8; ++i) aclrtMemsetAsync(big, big_bytes, i, big_bytes, stream);
  aclrtValueWrite(shared, 77, 0, stream);
  aclrtRecordEvent(event, stream);
  char key[128] = {};
  aclrtIpcEventHandle handle;
  if (aclrtIpcMemGetExportKey(shared, bytes, key, sizeof(key), 1) != ACL_SUCCESS ||
      aclrtIpcGetEventHandle(event, &handle) != ACL_SUCCESS) {
    return 4;
  }
  std::printf("KEYS %s %s\n", key, handle.reserved);
  std::fflush(stdout);
  char line[64];
  while (std::fgets(line, sizeof(line), stdin) != nullptr) {
  }
  return aclrtSynchronizeStream(stream) == ACL_SUCCESS ? 0 : 5;
}

int EventConsumer(const char* memory_key, const char* event_key) {
  if (aclrtSetDevice(0) != ACL_SUCCESS) return 2;
  aclrtStream stream = nullptr;
  void* shared = nullptr;
  aclrtEvent event = nullptr;
  aclrtIpcEventHandle handle{};
  std::strncpy(handle.reserved, event_key, sizeof(handle.reserved) - 1);
  if (aclrtCreateStream(&stream) != 0 || aclrtIpcMemImportByKey(&shared, memory_key, 0) != 0 ||
      aclrtIpcOpenEventHandle(handle, &event) != 0) {
    return 3;
  }
  uint64_t value = 0;
  if (aclrtStreamWaitEvent(stream, event) != 0 ||
      aclrtMemcpyAsync(&value, sizeof(value), shared, sizeof(value), ACL_MEMCPY_DEVICE_TO_HOST,
                       stream) != 0 ||
      aclrtSynchronizeStream(stream) != 0) {
    return 4;
  }
  std::printf("VALUE %llu\n", static_cast<unsigned long long>(value));
  return 0;
}

int NotifyWaiter(int32_t device, uint64_t flags) {
  aclrtStream stream = nullptr;
  aclrtNotify notify = nullptr;
  if (aclrtSetDevice(device) != 0 || aclrtCreateStream(&stream) != 0 ||
      aclrtCreateNotify(&notify, 0) != 0) {
    return 2;
  }
  char key[128] = {};
  if (aclrtNotifyGetExportKey(notify, key, sizeof(key), flags) != ACL_SUCCESS) return 3;
  std::printf("KEY %s\n", key);
  std::fflush(stdout);
  char line[256];
  while (std::fgets(line, sizeof(line), stdin) != nullptr) {
    int32_t pid = 0;
    if (std::sscanf(line, "allow %d", &pid) == 1) {
      std::printf("CODE %d\n", aclrtNotifySetImportPid(notify, &pid, 1));
    } else if (std::strncmp(line, "wait", 4) == 0) {
      aclError code = aclrtWaitAndResetNotify(notify, stream, 0);
      if (code == ACL_SUCCESS) code = aclrtSynchronizeStream(stream);
      std::printf("WOKEN %d\n", code);
    }
    std::fflush(stdout);
  }
  return 0;
}

int NotifyRecorder(const char* key, int32_t device) {
  std::printf("PID %d\n", static_cast<int>(getpid()));
  std::fflush(stdout);
  char line[256];
  if (std::fgets(line, sizeof(line), stdin) == nullptr) return 2;
  aclrtStream stream = nullptr;
  if (aclrtSetDevice(device) != 0 || aclrtCreateStream(&stream) != 0) return 3;
  aclrtNotify notify = nullptr;
  std::printf("CODE %d\n", aclrtNotifyImportByKey(&notify, key, 0));
  std::fflush(stdout);
  while (std::fgets(line, sizeof(line), stdin) != nullptr) {
    if (std::strncmp(line, "record", 6) != 0) continue;
    aclError code = aclrtRecordNotify(notify, stream);
    if (code == ACL_SUCCESS) code = aclrtSynchronizeStream(stream);
    std::printf("CODE %d\n", code);
    std::fflush(stdout);
  }
  return 0;
}

}  // namespace npud::test_client

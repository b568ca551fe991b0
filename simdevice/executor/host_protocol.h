// host_protocol.h
//
// The messages between npud and a kernel host (npud-kernel-host), one per
// frame of common/frame_io.h over a private socket pair. Both ends are the
// same build on the same machine, so fields are native-endian PODs and
// length-prefixed strings; what the host sends is still untrusted (it runs
// client code): every read is bounds-checked and a malformed message ends
// the host.
//
// npud → host
//   kInit    cores, ub bytes, address ranges to reserve; the device memory
//            files ride along (one per device, in device order)
//   kModule  a kernel binary's label; its memory file rides along
//   kStart   load the modules, lock down, answer kReady
//   kMap     map [address, size) from a device file (device index) or from
//            the file that rides along (index -1), at `offset`; the range is
//            reserved device memory or the pages of a device variable
//   kUnmap   make [address, size) inaccessible, answer kUnmapped(token)
//   kLaunch  run a batch of kernel launches, answer kDone(id) with the
//            launches' times (and their blocks' where a launch asked)
// host → npud
//   kReady   per module: its error or its kernels and device variables
//   kUnmapped, kDone

#ifndef NPUD_SIMDEVICE_EXECUTOR_HOST_PROTOCOL_H_
#define NPUD_SIMDEVICE_EXECUTOR_HOST_PROTOCOL_H_

#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "absl/strings/string_view.h"

namespace npud::sim::host {

enum class Op : uint32_t {
  kInit = 1,
  kModule = 2,
  kStart = 3,
  kMap = 4,
  kUnmap = 5,
  kLaunch = 6,
  kReady = 101,
  kUnmapped = 102,
  kDone = 103,
};

// Launches one kLaunch message carries at most.
constexpr uint32_t kMaxBatchLaunches = 256;
// Block times one kDone carries at most (about 1.8 MB); a batch that ran
// more blocks than that reports the first ones.
constexpr uint32_t kMaxBlockTimes = 1 << 16;

// Appends fields to a message.
class Writer {
 public:
  explicit Writer(Op op) { Put(static_cast<uint32_t>(op)); }
  template <typename T>
  Writer& Put(T value) {
    static_assert(std::is_trivially_copyable_v<T>);
    bytes_.append(reinterpret_cast<const char*>(&value), sizeof(value));
    return *this;
  }
  Writer& PutString(absl::string_view text) {
    Put(static_cast<uint64_t>(text.size()));
    bytes_.append(text.data(), text.size());
    return *this;
  }
  const std::string& bytes() const { return bytes_; }

 private:
  std::string bytes_;
};

// Reads fields back; once a read runs past the end, every later read fails
// too and ok() is false.
class Reader {
 public:
  explicit Reader(absl::string_view bytes) : rest_(bytes) {}
  template <typename T>
  bool Get(T* value) {
    static_assert(std::is_trivially_copyable_v<T>);
    if (!ok_ || rest_.size() < sizeof(T)) return ok_ = false;
    std::memcpy(value, rest_.data(), sizeof(T));
    rest_.remove_prefix(sizeof(T));
    return true;
  }
  bool GetString(std::string* text) {
    uint64_t size = 0;
    if (!Get(&size) || rest_.size() < size) return ok_ = false;
    text->assign(rest_.data(), size);
    rest_.remove_prefix(size);
    return true;
  }
  Op op() {
    uint32_t op = 0;
    Get(&op);
    return static_cast<Op>(op);
  }
  bool ok() const { return ok_; }

 private:
  absl::string_view rest_;
  bool ok_ = true;
};

// One kernel as the host found it in a module.
struct KernelEntryInfo {
  std::string name;
  uint32_t args_size = 0;
  uint32_t kernel_type = 0;
  std::vector<std::pair<uint32_t, uint32_t>> params;  // (offset, size)
  uint64_t code_offset = 0;                           // in the object's file
  uint64_t code_size = 0;
};

// One device variable as the host found it in a module: where its pages are
// in the host (npud may map device memory there) and its initial bytes.
struct VariableEntryInfo {
  std::string name;
  uint64_t address = 0;
  uint64_t size = 0;
  std::string initial;
};

}  // namespace npud::sim::host

#endif  // NPUD_SIMDEVICE_EXECUTOR_HOST_PROTOCOL_H_

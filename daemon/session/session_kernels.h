// session_kernels.h
//
// SessionKernels: where one session's kernel binaries are loaded and its
// launches run.
//
// Hosted (npud): binaries are kept as memory files npud never maps
// executable; the session's kernel host (sim::KernelHost) loads them. A
// host cannot open files once sandboxed, so loading a binary starts a new
// host with every binary of the session — which also tells npud what
// kernels the new binary holds — and the old host finishes the launches it
// was given, then goes. A host that died (a kernel ended it, or ran past
// its timeout) is replaced at the next launch. Before a launch is sent, the
// host is made to see exactly the memory the session may touch (its
// allocations, its IPC imports, its mapped virtual addresses), and the
// launch pins that memory until it has run: an exporter that frees memory
// while an importer's kernel is still queued does not pull it from under
// the kernel.
//
// In process (the in-process transport, tests): binaries are dlopen()ed and
// run on this process's AI cores.
//
// Hosts are bounded: a few per session (loading binary after binary while
// old hosts still run long launches is refused past max_per_session, with
// 207005), max_total for npud, and a session starts them at a bounded rate
// (past a burst, each start waits its turn). A host's private memory counts
// toward the session's memory limit for as long as it runs.
//
// Device variables (`__gm__` variables of kernel sources) live in device
// memory of the session, one block per binary that the session allocates at
// load (PlaceVariables); the pages of each variable in the host (or, in
// process, in the loaded module) are mapped onto that memory, so kernels and
// aclrtMemcpyToSymbol see the same bytes, also across host restarts.
//
// Thread-safe.

#ifndef NPUD_DAEMON_SESSION_SESSION_KERNELS_H_
#define NPUD_DAEMON_SESSION_SESSION_KERNELS_H_

#include <sys/types.h>

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"
#include "common/unique_fd.h"
#include "daemon/session/allocation_ledger.h"
#include "simdevice/device_set.h"
#include "simdevice/executor/host_output.h"
#include "simdevice/executor/kernel_host.h"
#include "simdevice/kernel_launch.h"
#include "simdevice/kernel_module.h"
#include "simdevice/stream.h"
#include "simdevice/task.h"

namespace npud::daemon {

struct KernelHostOptions {
  // npud-kernel-host; empty: kernels run in this process.
  std::string binary;
  // Private memory of one host (RLIMIT_DATA; lower when the session may
  // hold less).
  uint64_t data_limit_bytes = 4ull << 30;
  // AI-core threads of one host; 0: one per simulated core.
  int max_threads = 0;
  // The session's share of the AI cores (the CPUs) when sessions contend:
  // relative, 1 for everyone by default (sim/executor/host_cpu_share.h).
  double cpu_weight = 1;
  // Where hosts get CPU groups of their own (npud outside the root CPU
  // cgroup); null: autogroups carry the weights.
  std::shared_ptr<sim::HostCpuGroups> cpu_groups;
  sim::KernelSandbox sandbox = sim::KernelSandbox::kStrict;
  // Who hosts run as when npud runs as root (strict sandbox).
  uid_t uid = 65534;
  gid_t gid = 65534;
  // Non-empty: hosts cannot get the sandbox npud was asked for here, and
  // loading binaries is refused for this reason.
  std::string refused;
  // Kernel hosts one session may have alive at once (the current one and
  // older ones finishing the launches they were given).
  int max_per_session = 4;
  // Kernel hosts of all sessions together; 0: no limit.
  int max_total = 64;
};

// A device variable of a binary: its bytes when the binary was loaded.
struct BinaryVariable {
  std::string name;
  uint64_t size = 0;
  std::string initial;
};

// A kernel binary as a session holds it.
struct LoadedBinary {
  std::string label;
  // Entries are only set for binaries loaded in process.
  std::vector<sim::KernelInfo> kernels;
  std::vector<BinaryVariable> variables;
  std::shared_ptr<const sim::KernelModule> module;  // in process
  UniqueFd file;                                    // hosted
};

class SessionKernels {
 public:
  // Host starts a session may make at once, and then per second.
  static constexpr double kHostStartBurst = 16;
  static constexpr double kHostStartsPerSecond = 50;

  // `devices` and `memory` must outlive this object.
  SessionKernels(uint64_t session_id, KernelHostOptions options, sim::DeviceSet* devices,
                 const AllocationLedger* memory)
      : session_id_(session_id),
        options_(std::move(options)),
        devices_(devices),
        memory_(memory),
        start_tokens_(kHostStartBurst) {}

  bool hosted() const { return !options_.binary.empty(); }

  // Loads `bytes` as binary `binary_id`. kRtParamInvalid for bytes that are
  // not a kernel object or that the kernel host cannot load (or that end it).
  absl::StatusOr<std::shared_ptr<const LoadedBinary>> Load(uint64_t binary_id,
                                                           absl::string_view bytes,
                                                           absl::string_view label)
      ABSL_LOCKS_EXCLUDED(mu_);
  // Forgets the binary; launches already made keep what they need. Returns
  // the device memory that was the binary's (PlaceVariables, SetImage), for
  // the caller to free.
  std::vector<uint64_t> Unload(uint64_t binary_id) ABSL_LOCKS_EXCLUDED(mu_);

  // The binary's device variables live in device memory from now on: at
  // `address` of `device_id` (memory of the session), each at the next page
  // (VariableOffsets), holding their bytes already. Kernels see them there.
  absl::Status PlaceVariables(uint64_t binary_id, const LoadedBinary& binary, int device_id,
                              uint64_t address) ABSL_LOCKS_EXCLUDED(mu_);
  // Offsets of the variables of `binary` in its block of device memory, and
  // the block's size.
  static std::vector<uint64_t> VariableOffsets(const LoadedBinary& binary, uint64_t* total);

  // The copy of the binary's bytes in device memory (aclrtBinaryGetDevAddress):
  // (address, size), or nullopt before SetImage.
  std::optional<std::pair<uint64_t, uint64_t>> Image(uint64_t binary_id) const
      ABSL_LOCKS_EXCLUDED(mu_);
  void SetImage(uint64_t binary_id, uint64_t address, uint64_t size) ABSL_LOCKS_EXCLUDED(mu_);
  // The bytes of the binary.
  static absl::StatusOr<std::string> ReadBytes(const LoadedBinary& binary);

  // The task of a launch of kernel `spec.kernel` of binary `binary_id`
  // (spec.module is ignored and may be empty when hosted) on a stream in
  // `mode`.
  absl::StatusOr<std::unique_ptr<sim::Task>> MakeLaunch(uint64_t binary_id,
                                                        const LoadedBinary& binary,
                                                        sim::LaunchSpec spec, sim::FailureMode mode)
      ABSL_LOCKS_EXCLUDED(mu_);

  // aclrtSetOpExecuteTimeOut: launches made from now on fail when they run
  // longer (hosted only). Zero or infinite: no limit.
  void SetExecuteTimeout(absl::Duration timeout) ABSL_LOCKS_EXCLUDED(mu_);

  // The current kernel host's pid, or 0 (for the admin view and tests).
  int64_t host_pid() const ABSL_LOCKS_EXCLUDED(mu_);

 private:
  // Starts a host with every binary in binaries_; replaces host_ on success.
  absl::Status StartHost(std::vector<sim::DescribedBinary>* described)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  // What the session may touch, as grants for its host, and the device
  // memory behind the variables of its binaries at their pages in the host.
  std::vector<sim::HostGrant> Grants() const ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  // Pins of the memory Grants() gives the host.
  std::shared_ptr<const void> GrantedMemory() const;
  // Fails (207005) while the session or npud has as many hosts as it may;
  // waits while the session starts hosts faster than it may.
  absl::Status MayStartHost() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);

  // Device memory that belongs to one binary.
  struct BinaryMemory {
    int device_id = 0;
    uint64_t variables = 0;  // 0: none placed
    uint64_t image = 0;      // 0: no copy yet
    uint64_t image_size = 0;
  };

  const uint64_t session_id_;
  const KernelHostOptions options_;
  sim::DeviceSet* const devices_;
  const AllocationLedger* const memory_;

  mutable absl::Mutex mu_;
  // Hosted binaries by id, in load order (a host's binary indices).
  std::map<uint64_t, std::shared_ptr<const LoadedBinary>> binaries_ ABSL_GUARDED_BY(mu_);
  std::shared_ptr<sim::KernelHost> host_ ABSL_GUARDED_BY(mu_);
  // Every host this session started that may still be alive.
  std::vector<std::weak_ptr<sim::KernelHost>> hosts_ ABSL_GUARDED_BY(mu_);
  // Host starts the session may make now (a bucket refilled over time).
  double start_tokens_ ABSL_GUARDED_BY(mu_);
  absl::Time refilled_ ABSL_GUARDED_BY(mu_) = absl::Now();
  // What kernels of all its hosts write, as much as npud logs for it.
  const std::shared_ptr<sim::OutputBudget> output_budget_ = sim::OutputBudget::ForSession();
  // The binaries host_ was started with, by id: their index in it.
  std::map<uint64_t, uint32_t> host_index_ ABSL_GUARDED_BY(mu_);
  // What host_ was last synced against, and the pins of the memory behind
  // it that the launches in flight hold (each until it has run).
  uint64_t synced_ledger_ ABSL_GUARDED_BY(mu_) = ~0ull;
  uint64_t synced_vmm_ ABSL_GUARDED_BY(mu_) = ~0ull;
  std::weak_ptr<const void> granted_ ABSL_GUARDED_BY(mu_);
  absl::Duration timeout_ ABSL_GUARDED_BY(mu_) = absl::Minutes(1);
  std::map<uint64_t, BinaryMemory> binary_memory_ ABSL_GUARDED_BY(mu_);
  // Where host_ keeps each binary's device variables: (address, bytes) of
  // their pages, in the binary's order.
  std::map<uint64_t, std::vector<std::pair<uint64_t, uint64_t>>> host_variables_
      ABSL_GUARDED_BY(mu_);
};

}  // namespace npud::daemon

#endif  // NPUD_DAEMON_SESSION_SESSION_KERNELS_H_

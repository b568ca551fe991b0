// kernel_host.h
//
// KernelHost: npud's end of one kernel host process (npud-kernel-host, see
// kernel_host_main.cc) — the sandboxed process one session's kernels run
// in. npud never loads or runs client code itself.
//
// A host is started with the session's kernel binaries (it cannot open
// files once sandboxed, so a newly loaded binary means a new host; see
// daemon/session/session_kernels.h) and reports what kernels they hold. It
// sees only the memory npud maps into it (SyncGrants), each grant one
// memory file that holds nothing but that memory, at the same addresses as
// in npud. Unmapping a grant (SyncGrants, Revoke) returns once the host has
// confirmed it and npud has checked through /proc that the host neither
// maps that memory outside its grants nor holds a descriptor of it — or
// once the host has been killed for failing that. A launch ends with the
// blocks' result, or with the device exception of its kernel type when the
// host dies under it (exit, abort, a signal) or it runs past its timeout
// (the host is then killed: every launch in it fails).
//
// Everything the host says is checked against what npud asked for: a
// completion for a launch that is not in flight, an acknowledgement of an
// unmap npud did not request (or out of order), an error code a host never
// produces, or a malformed message kills the host. What kernels write to
// stdout and stderr reaches npud's log through HostOutput only.
//
// Thread-safe. Done callbacks run on the host's reader thread and must not
// block or drop the last reference to the host.

#ifndef NPUD_SIMDEVICE_EXECUTOR_KERNEL_HOST_H_
#define NPUD_SIMDEVICE_EXECUTOR_KERNEL_HOST_H_

#include <sys/types.h>

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"
#include "absl/types/span.h"
#include "common/unique_fd.h"
#include "simdevice/executor/host_cpu_groups.h"
#include "simdevice/executor/host_inspection.h"
#include "simdevice/executor/host_output.h"
#include "simdevice/executor/host_protocol.h"
#include "simdevice/kernel_blocks.h"

namespace npud::sim {

// How a kernel host is confined beyond its seccomp filter.
enum class KernelSandbox {
  // Namespaces of its own, an unprivileged uid, a file system holding only
  // the session's binaries (host_namespaces.h).
  kStrict,
  // The seccomp filter and limits alone: module constructors can read what
  // npud's user can read. Only where the operator accepts it.
  kWeak,
};

struct KernelHostConfig {
  std::string binary;  // npud-kernel-host
  uint64_t session_id = 0;
  int cores = 1;
  uint64_t ub_bytes = 0;
  uint64_t data_limit_bytes = 4ull << 30;
  KernelSandbox sandbox = KernelSandbox::kStrict;
  // Who the host runs as when npud runs as root (strict sandbox).
  uid_t uid = 65534;
  gid_t gid = 65534;
  // The host's share of the CPUs against other hosts (host_cpu_share.h).
  double cpu_weight = 1;
  // Non-null: the host gets a CPU group of its own there, weighted
  // cpu_weight, instead of an autogroup weight (host_cpu_groups.h).
  std::shared_ptr<HostCpuGroups> cpu_groups;
  // Address ranges the host reserves (device memory, virtual addresses).
  std::vector<std::pair<uint64_t, uint64_t>> reservations;
  // How long an unmap may take before the host is killed instead.
  absl::Duration unmap_timeout = absl::Seconds(5);
  // The session's budget for kernel output in npud's log; null: a new one.
  std::shared_ptr<OutputBudget> output_budget;
  // Told the host's private resident memory from time to time (0 once it
  // has ended); false means it is past what the session may hold, and the
  // host is killed. Null: not counted.
  std::function<bool(uint64_t bytes)> charge_memory;
};

// A kernel binary as the host gets it.
struct HostedBinary {
  std::string label;
  int fd = -1;  // a memory file holding the object; not owned
};

struct DescribedBinary {
  std::string error;  // empty: loaded
  std::vector<host::KernelEntryInfo> kernels;
  std::vector<host::VariableEntryInfo> variables;
};

// Memory a host may see: [address, address + size) is [offset, offset +
// size) of the memory file `fd`, which holds only memory the session may
// touch (one allocation, one physical memory handle, one host window).
struct HostGrant {
  uint64_t address = 0;
  uint64_t size = 0;
  int fd = -1;  // not owned; only read while mapping
  uint64_t offset = 0;
  // Identifies the memory behind the range, so an address reused for other
  // memory is seen as different.
  uintptr_t source = 0;

  bool SameAs(const HostGrant& o) const {
    return size == o.size && offset == o.offset && source == o.source;
  }
};

struct HostedLaunch {
  uint32_t binary = 0;     // index into the binaries the host was started with
  uint64_t binary_id = 0;  // npud's id of that binary (for reports; not sent)
  uint32_t kernel = 0;
  uint32_t block_dim = 1;
  uint64_t ub_bytes = 0;
  int device_id = 0;
  uint64_t stream_id = 0;
  std::string args;
  std::vector<std::pair<uint32_t, uint32_t>> placeholders;
  // The host reports when and where each block ran (set when the batch is
  // sent).
  bool time_blocks = false;
  // For reports when the host dies under the launch.
  std::string kernel_name;
  uint32_t kernel_type = 0;
  absl::Duration timeout = absl::InfiniteDuration();
};

class KernelHost {
 public:
  // Starts a host with `binaries`; *described gets one entry per binary.
  // Fails when the host cannot be started or died while loading (e.g. a
  // binary's constructor ended it).
  static absl::StatusOr<std::shared_ptr<KernelHost>> Start(const KernelHostConfig& config,
                                                           absl::Span<const HostedBinary> binaries,
                                                           std::vector<DescribedBinary>* described);
  // Whether kernel hosts get the strict sandbox on this machine: starts one
  // that only tries (npud asks once, at start). The error says what failed.
  static absl::Status ProbeStrictSandbox(const std::string& binary, uid_t uid, gid_t gid);

  // Kills the host; launches still in it fail.
  ~KernelHost();
  KernelHost(const KernelHost&) = delete;
  KernelHost& operator=(const KernelHost&) = delete;

  // Makes the host see exactly `grants` (sorted or not): maps what is new,
  // unmaps what went.
  void SyncGrants(const std::vector<HostGrant>& grants) ABSL_LOCKS_EXCLUDED(grant_mu_, mu_);
  // Unmaps every grant overlapping [address, address + size).
  void Revoke(uint64_t address, uint64_t size) ABSL_LOCKS_EXCLUDED(grant_mu_, mu_);

  // Runs `launches` (one stream's, in order) and calls `done` with the
  // first failure and the printf output of all of them; with
  // `stop_on_failure` the launches after a failure do not run. Each launch
  // may take its timeout (the batch: the sum).
  using Done = std::function<void(BlockRunResult result)>;
  void Launch(absl::Span<const HostedLaunch> launches, bool stop_on_failure, Done done)
      ABSL_LOCKS_EXCLUDED(mu_);

  bool alive() const ABSL_LOCKS_EXCLUDED(mu_);
  pid_t pid() const { return pid_; }

 private:
  struct Pending {
    Done done;
    std::string kernel_name;
    uint32_t kernel_type = 0;
    absl::Time deadline = absl::InfiniteFuture();
    bool timed_out = false;
  };
  struct Mapped {
    HostGrant grant;  // its fd is not valid past mapping
    FileIdentity file;
  };

  KernelHost(const KernelHostConfig& config, pid_t pid, UniqueFd pidfd, UniqueFd channel,
             UniqueFd output);

  // The loading handshake: init, modules, start, ready.
  absl::Status Load(absl::Span<const HostedBinary> binaries,
                    std::vector<DescribedBinary>* described);
  absl::Status Send(const host::Writer& message, absl::Span<const int> fds = {})
      ABSL_LOCKS_EXCLUDED(write_mu_);
  void MapLocked(const HostGrant& grant) ABSL_EXCLUSIVE_LOCKS_REQUIRED(grant_mu_, mu_);
  // Unmaps the grants at `addresses`, waits for the host to confirm and
  // checks that it did (or kills it). Releases mu_ while waiting.
  void UnmapLocked(const std::vector<uint64_t>& addresses)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(grant_mu_, mu_);
  // Why the host still reaches any of `files` beyond its grants, or OK.
  absl::Status CheckWithdrawn(const std::vector<FileIdentity>& files) const
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  // Kills the host and waits until it has been reaped.
  void KillAndWait(const std::string& why) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  void Kill(const std::string& why) ABSL_LOCKS_EXCLUDED(mu_);
  void SignalKill();
  void ReadLoop() ABSL_LOCKS_EXCLUDED(mu_);
  void WatchLoop() ABSL_LOCKS_EXCLUDED(mu_);
  void OutputLoop();
  // Counts the host's private memory against the session (charge_memory).
  void ChargeMemory();
  // The reader saw the end: the process is gone. Fails what was pending.
  void Ended() ABSL_LOCKS_EXCLUDED(mu_);

  const KernelHostConfig config_;
  const pid_t pid_;
  const UniqueFd pidfd_;
  const UniqueFd channel_;
  const UniqueFd output_;
  // Serializes changes of the grants (map, unmap and their check).
  absl::Mutex grant_mu_ ABSL_ACQUIRED_BEFORE(mu_);
  absl::Mutex write_mu_ ABSL_ACQUIRED_AFTER(mu_);

  mutable absl::Mutex mu_;
  bool dead_ ABSL_GUARDED_BY(mu_) = false;
  bool stopping_ ABSL_GUARDED_BY(mu_) = false;
  std::string death_ ABSL_GUARDED_BY(mu_);  // how the process ended
  std::map<uint64_t, Mapped> mapped_ ABSL_GUARDED_BY(mu_);
  // Unmap tokens: the next to send, and the last the host confirmed (in
  // order, never ahead of what was sent).
  uint64_t next_token_ ABSL_GUARDED_BY(mu_) = 1;
  uint64_t acked_token_ ABSL_GUARDED_BY(mu_) = 0;
  uint64_t next_launch_ ABSL_GUARDED_BY(mu_) = 1;
  absl::flat_hash_map<uint64_t, Pending> pending_ ABSL_GUARDED_BY(mu_);

  std::thread reader_;
  std::thread watchdog_;
  std::thread output_reader_;
};

}  // namespace npud::sim

#endif  // NPUD_SIMDEVICE_EXECUTOR_KERNEL_HOST_H_

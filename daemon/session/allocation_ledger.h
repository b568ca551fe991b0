// allocation_ledger.h
//
// AllocationLedger: the device memory one session may touch, and the rule
// that decides it. A session may name
//   * memory it allocated (aclrtMalloc),
//   * memory another session shared and it imported (IPC keys), and
//   * device virtual addresses it reserved and mapped (VMM, host windows).
// Any other address — another session's allocation, freed memory, garbage —
// is answered as if there were no allocation at all (kRtParamInvalid), so a
// client learns nothing about other clients' memory; attempts are logged.
//
// Thread-safe.

#ifndef NPUD_DAEMON_SESSION_ALLOCATION_LEDGER_H_
#define NPUD_DAEMON_SESSION_ALLOCATION_LEDGER_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"
#include "daemon/ipc_registry.h"
#include "daemon/session/session_limits.h"
#include "simdevice/device_set.h"

namespace npud::daemon {

class AllocationLedger {
 public:
  // `devices` must outlive the ledger. Allocations and imports are charged
  // to a quota of `memory_limit` bytes (0: none), shared with the session's
  // physical memory handles (quota()).
  AllocationLedger(uint64_t session_id, int64_t pid, sim::DeviceSet* devices,
                   uint64_t memory_limit = 0)
      : session_id_(session_id),
        pid_(pid),
        devices_(devices),
        quota_(std::make_shared<MemoryQuota>(memory_limit)) {}
  // Frees what is left (ReleaseAll).
  ~AllocationLedger();
  AllocationLedger(const AllocationLedger&) = delete;
  AllocationLedger& operator=(const AllocationLedger&) = delete;

  // aclrtMalloc on `device_id`; returns the address.
  absl::StatusOr<uint64_t> Allocate(int device_id, uint64_t size) ABSL_LOCKS_EXCLUDED(mu_);
  // aclrtFree of an address Allocate() returned (kRtParamInvalid otherwise).
  // Queued work that pinned the memory keeps it until it has run.
  absl::Status Free(uint64_t address) ABSL_LOCKS_EXCLUDED(mu_);

  // Memory imported under `key` (IPC); replaces an earlier import of it.
  // kRtMemoryAllocation past the memory limit.
  absl::Status AddImport(const std::string& key, std::shared_ptr<SharedMemory> memory)
      ABSL_LOCKS_EXCLUDED(mu_);
  // False if `key` was not imported.
  bool CloseImport(const std::string& key) ABSL_LOCKS_EXCLUDED(mu_);

  // Pins [address, address + size) if it lies in memory the session may
  // touch (its own, imported or mapped).
  absl::StatusOr<sim::DeviceRange> Access(uint64_t address, uint64_t size) const
      ABSL_LOCKS_EXCLUDED(mu_);
  // Like Access, but only memory the session allocated or mapped itself
  // (what it may share with others).
  absl::StatusOr<sim::DeviceRange> Owned(uint64_t address, uint64_t size) const
      ABSL_LOCKS_EXCLUDED(mu_);

  // Drops the imports and frees every allocation; returns the bytes freed.
  uint64_t ReleaseAll() ABSL_LOCKS_EXCLUDED(mu_);

  // Device memory the session may touch (allocations and imports; mapped
  // virtual addresses are the VirtualAddressSpace's to list), and a number
  // that changes whenever that list does.
  struct Touchable {
    int device_id;
    uint64_t address;
    uint64_t size;
  };
  std::vector<Touchable> Touchables() const ABSL_LOCKS_EXCLUDED(mu_);
  // Only the session's own allocations.
  std::vector<Touchable> Allocations() const ABSL_LOCKS_EXCLUDED(mu_);
  uint64_t version() const ABSL_LOCKS_EXCLUDED(mu_);

  // The session's device memory against its limit.
  const std::shared_ptr<MemoryQuota>& quota() const { return quota_; }

  struct Usage {
    // Allocated bytes by device id, now and at their peak.
    absl::flat_hash_map<int, uint64_t> bytes_by_device;
    absl::flat_hash_map<int, uint64_t> peak_by_device;
    size_t allocations = 0;
    size_t imports = 0;
  };
  Usage usage() const ABSL_LOCKS_EXCLUDED(mu_);

 private:
  struct Allocation {
    int device_id;
    uint64_t size;
  };

  std::vector<Touchable> AllocationsLocked() const ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);

  const uint64_t session_id_;
  const int64_t pid_;
  sim::DeviceSet* const devices_;
  const std::shared_ptr<MemoryQuota> quota_;
  mutable absl::Mutex mu_;
  absl::flat_hash_map<uint64_t, Allocation> allocations_ ABSL_GUARDED_BY(mu_);
  absl::flat_hash_map<std::string, std::shared_ptr<SharedMemory>> imports_ ABSL_GUARDED_BY(mu_);
  uint64_t version_ ABSL_GUARDED_BY(mu_) = 0;
  // Allocated bytes by device id, now and at their peak.
  absl::flat_hash_map<int, uint64_t> allocated_ ABSL_GUARDED_BY(mu_);
  absl::flat_hash_map<int, uint64_t> peak_ ABSL_GUARDED_BY(mu_);
};

}  // namespace npud::daemon

#endif  // NPUD_DAEMON_SESSION_ALLOCATION_LEDGER_H_

// ipc_registry.h
//
// IpcRegistry: what sessions share with each other — device memory, events
// and notifies exported under keys, and physical memory under numeric
// handles, that any session of this daemon can import.
//
// Lifetimes: an export pins its allocation. The exporter may free the
// memory or close the key; importers keep using what they imported until
// they close it, and the memory is released when the last reference goes.
// When the exporting session ends (exit, crash, lost connection) its
// exports are revoked: the keys vanish and importers get
// ACL_ERROR_RT_IPC_ERROR on later use, instead of touching memory that may
// be handed to someone else.
//
// Thread-safe.

#ifndef NPUD_DAEMON_IPC_REGISTRY_H_
#define NPUD_DAEMON_IPC_REGISTRY_H_

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"
#include "daemon/drain_fence.h"
#include "simdevice/device_range.h"
#include "simdevice/event.h"
#include "simdevice/notify.h"
#include "simdevice/physical_memory.h"

namespace npud::daemon {

// Device memory shared under one key. Importers hold it.
class SharedMemory {
 public:
  // `range` pins what is shared.
  SharedMemory(uint64_t owner, sim::DeviceRange range)
      : owner_(owner),
        device_id_(range.device_id),
        address_(range.address),
        size_(range.size),
        fd_(range.fd),
        fd_offset_(range.fd < 0 ? 0 : range.FileOffsetOf(range.address)),
        pin_(std::move(range.pin)) {}

  uint64_t owner() const { return owner_; }
  int device_id() const { return device_id_; }
  uint64_t address() const { return address_; }
  uint64_t size() const { return size_; }
  bool Contains(uint64_t address, uint64_t size) const {
    return address >= address_ && size <= address_ + size_ - address && address < address_ + size_;
  }

  // Pins [address, address + size), which must lie inside; IPC error once
  // revoked.
  absl::StatusOr<sim::DeviceRange> Range(uint64_t address, uint64_t size) const
      ABSL_LOCKS_EXCLUDED(mu_);
  // Drops the pin: the exporter is gone.
  void Revoke() ABSL_LOCKS_EXCLUDED(mu_);

 private:
  const uint64_t owner_;
  const int device_id_;
  const uint64_t address_;
  const uint64_t size_;
  // The memory file behind the shared range and where the range starts in
  // it (see DeviceRange).
  const int fd_;
  const uint64_t fd_offset_;
  mutable absl::Mutex mu_;
  std::shared_ptr<const void> pin_ ABSL_GUARDED_BY(mu_);  // null once revoked
};

// A process as IPC allow-lists name it: a pid and the pid namespace it
// means something in. "" is npud's own, for pids the kernel vouches for
// (local protocol); a client that only claims its pid (gRPC, TCP) is in
// "claimed:<host>". An allow-list entry matches only processes of the
// namespace its exporter is in, so a claimed pid never matches a local
// process.
struct IpcPid {
  IpcPid(int64_t pid, std::string space = "") : pid(pid), space(std::move(space)) {}
  int64_t pid;
  std::string space;
};

class IpcRegistry {
 public:
  explicit IpcRegistry(uint64_t instance_id) : instance_id_(instance_id) {}

  // Exports memory of session `owner`; returns the key. With `check_pid`
  // only pids added by SetImportPids (in the exporter's namespace `space`)
  // may import.
  std::string ExportMemory(uint64_t owner, sim::DeviceRange range, bool check_pid)
      ABSL_LOCKS_EXCLUDED(mu_);
  absl::Status SetImportPids(uint64_t owner, const std::string& key,
                             const std::vector<int64_t>& pids, const std::string& space = "")
      ABSL_LOCKS_EXCLUDED(mu_);
  // The memory under `key`, if `importer` may import it.
  absl::StatusOr<std::shared_ptr<SharedMemory>> ImportMemory(const std::string& key,
                                                             const IpcPid& importer)
      ABSL_LOCKS_EXCLUDED(mu_);

  std::string ExportEvent(uint64_t owner, std::shared_ptr<sim::Event> event)
      ABSL_LOCKS_EXCLUDED(mu_);
  absl::StatusOr<std::shared_ptr<sim::Event>> OpenEvent(const std::string& key)
      ABSL_LOCKS_EXCLUDED(mu_);

  // Notifies are exported once (the key is stable) and carry their own
  // allow-list, set through the notify rather than the key.
  std::string ExportNotify(uint64_t owner, std::shared_ptr<sim::Notify> notify, bool check_pid)
      ABSL_LOCKS_EXCLUDED(mu_);
  absl::Status SetNotifyPids(uint64_t owner, const std::shared_ptr<sim::Notify>& notify,
                             const std::vector<int64_t>& pids, const std::string& space = "")
      ABSL_LOCKS_EXCLUDED(mu_);
  absl::StatusOr<std::shared_ptr<sim::Notify>> ImportNotify(const std::string& key,
                                                            const IpcPid& importer)
      ABSL_LOCKS_EXCLUDED(mu_);

  // Physical memory shared under a numeric handle
  // (aclrtMemExportToShareableHandle); exporting the same memory again
  // returns the same handle. Importers hold the memory itself, so it stays
  // valid for them after the exporter frees its handle; when the exporting
  // session ends the memory is revoked (see PhysicalMemory::Revoke).
  // `fence`: the exporter's work queued before this export (the newest
  // export's counts).
  uint64_t ExportPhysical(uint64_t owner, std::shared_ptr<sim::PhysicalMemory> memory,
                          bool check_pid, std::shared_ptr<DrainFence> fence = nullptr)
      ABSL_LOCKS_EXCLUDED(mu_);
  absl::Status SetPhysicalPids(uint64_t owner, uint64_t handle, const std::vector<int64_t>& pids,
                               const std::string& space = "") ABSL_LOCKS_EXCLUDED(mu_);
  absl::StatusOr<std::shared_ptr<sim::PhysicalMemory>> ImportPhysical(uint64_t handle,
                                                                      const IpcPid& importer)
      ABSL_LOCKS_EXCLUDED(mu_);
  // The fence of the export under `handle`, or null.
  std::shared_ptr<DrainFence> PhysicalFence(uint64_t handle) const ABSL_LOCKS_EXCLUDED(mu_);
  // The exporter freed `memory`: its handle takes no new imports.
  void UnexportPhysical(uint64_t owner, const sim::PhysicalMemory* memory) ABSL_LOCKS_EXCLUDED(mu_);

  // The exporter stops exporting `key` (importers keep their access until
  // the exporter ends).
  // NotFound if `owner` exports no such key.
  absl::Status Unexport(uint64_t owner, const std::string& key) ABSL_LOCKS_EXCLUDED(mu_);
  // Session `owner` is gone: its exports are withdrawn and revoked.
  void RevokeAll(uint64_t owner) ABSL_LOCKS_EXCLUDED(mu_);

  // For the admin view: keys each session exports.
  size_t exports_of(uint64_t owner) const ABSL_LOCKS_EXCLUDED(mu_);

 private:
  // Entries (namespace, pid).
  using AllowList = absl::flat_hash_set<std::pair<std::string, int64_t>>;

  struct MemoryExport {
    std::shared_ptr<SharedMemory> memory;
    bool check_pid;
    AllowList pids;
  };
  struct EventExport {
    uint64_t owner;
    std::shared_ptr<sim::Event> event;
  };
  struct PhysicalExport {
    uint64_t owner;
    std::shared_ptr<sim::PhysicalMemory> memory;
    bool check_pid;
    AllowList pids;
    std::shared_ptr<DrainFence> fence;
  };
  struct NotifyExport {
    uint64_t owner;
    std::shared_ptr<sim::Notify> notify;
    bool check_pid;
    AllowList pids;
  };

  static void Allow(AllowList& list, const std::vector<int64_t>& pids, const std::string& space);
  static bool Allowed(const AllowList& list, const IpcPid& importer);

  std::string NewKey(const char* kind) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);

  const uint64_t instance_id_;
  mutable absl::Mutex mu_;
  uint64_t next_ ABSL_GUARDED_BY(mu_) = 1;
  absl::flat_hash_map<std::string, MemoryExport> memory_ ABSL_GUARDED_BY(mu_);
  absl::flat_hash_map<std::string, EventExport> events_ ABSL_GUARDED_BY(mu_);
  absl::flat_hash_map<std::string, NotifyExport> notifies_ ABSL_GUARDED_BY(mu_);
  absl::flat_hash_map<uint64_t, PhysicalExport> physical_ ABSL_GUARDED_BY(mu_);
  // Memory its exporter stopped exporting, by exporter: importers may still
  // hold it and lose it when the exporter ends.
  absl::flat_hash_map<uint64_t, std::vector<std::weak_ptr<SharedMemory>>> withdrawn_
      ABSL_GUARDED_BY(mu_);
};

}  // namespace npud::daemon

#endif  // NPUD_DAEMON_IPC_REGISTRY_H_

// object_registry.h
//
// ObjectRegistry: the contexts, streams and events this process created, and
// which devices it has set. The daemon knows the same streams and events by
// the same ids; this table lets the client validate handles and resolve the
// default stream without asking it.
//
// Thread-safe.

#ifndef NPUD_CLIENT_CORE_OBJECT_REGISTRY_H_
#define NPUD_CLIENT_CORE_OBJECT_REGISTRY_H_

#include <array>
#include <atomic>
#include <cstdint>
#include <functional>
#include <optional>
#include <utility>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"

namespace npud::client {

struct ContextRecord {
  int32_t device = 0;
  uint64_t default_stream = 0;
  // The device's primary context, created by aclrtSetDevice.
  bool primary = false;
  // aclrtCtxSetSysParamOpt's values by aclSysParamOpt (nullopt: not set).
  std::array<std::optional<int64_t>, 4> sys_params{};
};

struct StreamRecord {
  int32_t device = 0;
  uint64_t context = 0;
  bool is_default = false;
  bool stop_on_failure = false;
  // As created (priority clamped to [0, 7]; ACL_STREAM_* flags), and the
  // attributes aclrtSetStreamAttribute keeps.
  uint32_t priority = 0;
  uint32_t flags = 0;
  uint32_t user_tag = 0;
  uint32_t cache_op_info = 0;
  // aclrtSetStreamOverflowSwitch (ACL_STREAM_ATTR_FLOAT_OVERFLOW_CHECK).
  uint32_t overflow_switch = 0;
  // Open aclrtNonBlockingLaunchBegin sections.
  uint32_t nonblocking_depth = 0;
};

struct EventRecord {
  int32_t device = 0;
  uint32_t flags = 0;
  // Made by aclrtCreateEventExWithFlag ("new mode": no reset, complete
  // before its first record).
  bool ex_mode = false;
  // The id aclrtGetEventId reports, given at the first record (0: never
  // recorded).
  uint32_t hardware_id = 0;
  // The record and wait flags (ACL_EVENT_RECORD_* / ACL_EVENT_WAIT_*) the
  // event's first record and first wait fixed; -1 before them.
  int record_flag = -1;
  int wait_flag = -1;
};

// Physical memory (aclrtDrvMemHandle), allocated or imported.
struct PhysicalRecord {
  int32_t device = 0;
  uint64_t size = 0;
  // aclrtPhysicalMemProp as given to aclrtMallocPhysical (defaults for
  // imported memory).
  uint32_t handle_type = 0;
  uint32_t allocation_type = 0;
  uint32_t mem_attr = 0;
};

// What remains of `limit` (0: none, which counts as CANN's 65536) objects
// when `held` are in use.
uint32_t AvailableObjects(uint32_t limit, size_t held);

class ObjectRegistry {
 public:
  // A fresh id, unique among every object of this process.
  uint64_t MintId() { return next_id_++; }

  void AddContext(uint64_t id, ContextRecord record) ABSL_LOCKS_EXCLUDED(mu_);
  void AddStream(uint64_t id, StreamRecord record) ABSL_LOCKS_EXCLUDED(mu_);
  void AddEvent(uint64_t id, EventRecord record) ABSL_LOCKS_EXCLUDED(mu_);
  // Notifies are known by their device.
  void AddNotify(uint64_t id, int32_t device) ABSL_LOCKS_EXCLUDED(mu_);
  std::optional<int32_t> FindNotify(uint64_t id) const ABSL_LOCKS_EXCLUDED(mu_);
  bool RemoveNotify(uint64_t id) ABSL_LOCKS_EXCLUDED(mu_);
  void AddPhysical(uint64_t id, PhysicalRecord record) ABSL_LOCKS_EXCLUDED(mu_);
  std::optional<PhysicalRecord> FindPhysical(uint64_t id) const ABSL_LOCKS_EXCLUDED(mu_);
  bool RemovePhysical(uint64_t id) ABSL_LOCKS_EXCLUDED(mu_);

  std::optional<ContextRecord> FindContext(uint64_t id) const ABSL_LOCKS_EXCLUDED(mu_);
  std::optional<StreamRecord> FindStream(uint64_t id) const ABSL_LOCKS_EXCLUDED(mu_);
  std::optional<EventRecord> FindEvent(uint64_t id) const ABSL_LOCKS_EXCLUDED(mu_);

  // Removes a context and returns the ids of the streams that belonged to it
  // (removed too).
  std::vector<uint64_t> RemoveContext(uint64_t id) ABSL_LOCKS_EXCLUDED(mu_);
  bool RemoveStream(uint64_t id) ABSL_LOCKS_EXCLUDED(mu_);
  void SetStopOnFailure(uint64_t stream, bool stop) ABSL_LOCKS_EXCLUDED(mu_);
  // Applies `update` to the stream's record (no-op for an unknown stream).
  void UpdateStream(uint64_t stream, const std::function<void(StreamRecord&)>& update)
      ABSL_LOCKS_EXCLUDED(mu_);
  // The event's hardware id, given now (from a per-device counter) if the
  // event has none; 0 for an unknown event.
  uint32_t EventHardwareId(uint64_t event) ABSL_LOCKS_EXCLUDED(mu_);
  // The record (or with `wait`, the wait) flag the event's first record
  // (wait) fixed; fixes `flag` if there was none. -1 for an unknown event.
  int PinEventFlag(uint64_t event, bool wait, uint32_t flag) ABSL_LOCKS_EXCLUDED(mu_);
  // The number of streams (default ones too) and events the process holds.
  size_t StreamCount() const ABSL_LOCKS_EXCLUDED(mu_);
  size_t EventCount() const ABSL_LOCKS_EXCLUDED(mu_);
  void SetContextSysParam(uint64_t context, int opt, int64_t value) ABSL_LOCKS_EXCLUDED(mu_);
  bool RemoveEvent(uint64_t id) ABSL_LOCKS_EXCLUDED(mu_);
  // The ids of the streams (default ones too) on `device`.
  std::vector<uint64_t> StreamsOf(int32_t device) const ABSL_LOCKS_EXCLUDED(mu_);
  // aclrtDeviceEnablePeerAccess / Disable from `device` to `peer`.
  void SetPeerAccess(int32_t device, int32_t peer, bool enabled) ABSL_LOCKS_EXCLUDED(mu_);
  bool PeerAccessEnabled(int32_t device, int32_t peer) const ABSL_LOCKS_EXCLUDED(mu_);
  // Whether some thread's aclrtSetDevice holds `device` (its primary
  // context is active).
  bool DeviceOpen(int32_t device) const ABSL_LOCKS_EXCLUDED(mu_);
  // The devices DeviceOpen is true of, in ascending order.
  std::vector<int32_t> OpenDevices() const ABSL_LOCKS_EXCLUDED(mu_);
  // Removes every context, stream and event of a device (and its peer
  // access).
  void RemoveDevice(int32_t device) ABSL_LOCKS_EXCLUDED(mu_);
  void Clear() ABSL_LOCKS_EXCLUDED(mu_);

  // aclrtSetDevice bookkeeping. OpenDevice returns the primary context id if
  // the device already has one (0 otherwise); CloseDevice returns true when
  // the device should be released (count reached 0, or `force`).
  uint64_t OpenDevice(int32_t device) ABSL_LOCKS_EXCLUDED(mu_);
  void SetPrimaryContext(int32_t device, uint64_t context) ABSL_LOCKS_EXCLUDED(mu_);
  absl::StatusOr<bool> CloseDevice(int32_t device, bool force) ABSL_LOCKS_EXCLUDED(mu_);

 private:
  struct DeviceState {
    int open_count = 0;
    uint64_t primary_context = 0;
  };

  std::atomic<uint64_t> next_id_{1};
  mutable absl::Mutex mu_;
  absl::flat_hash_map<uint64_t, ContextRecord> contexts_ ABSL_GUARDED_BY(mu_);
  absl::flat_hash_map<uint64_t, StreamRecord> streams_ ABSL_GUARDED_BY(mu_);
  absl::flat_hash_map<uint64_t, EventRecord> events_ ABSL_GUARDED_BY(mu_);
  absl::flat_hash_map<uint64_t, int32_t> notifies_ ABSL_GUARDED_BY(mu_);
  absl::flat_hash_map<uint64_t, PhysicalRecord> physical_ ABSL_GUARDED_BY(mu_);
  absl::flat_hash_map<int32_t, DeviceState> devices_ ABSL_GUARDED_BY(mu_);
  absl::flat_hash_set<std::pair<int32_t, int32_t>> peer_access_ ABSL_GUARDED_BY(mu_);
  absl::flat_hash_map<int32_t, uint32_t> event_ids_ ABSL_GUARDED_BY(mu_);
};

}  // namespace npud::client

#endif  // NPUD_CLIENT_CORE_OBJECT_REGISTRY_H_

// call_router.h
//
// CallRouter: which daemon serves a call when NPUD_ADDRESS names several.
//
// The program sees the devices of all daemons as one list, in the order of
// NPUD_ADDRESS; each daemon numbers its own from 0. A call names its daemon
// by what it touches:
//   * a device id, which is rewritten to the daemon's own numbering;
//   * an object the client minted (stream, event, notify, physical memory
//     handle, model, host callback), remembered when the call that creates
//     it is routed and forgotten when the call that destroys it is;
//   * a device address: daemons started with different --address_slot hand
//     out disjoint ones, so the address says whose it is.
// A call that touches two daemons is refused with ACL_ERROR_RT_FEATURE_NOT_
// SUPPORT (callers that can do better, such as copies between devices of two
// daemons, handle those before routing); a call that touches nothing goes to
// the daemon the caller names (the one of the current device).
//
// Fields are found by name through protobuf reflection, so a call added to
// calls.proto is routed without an edit here as long as it keeps the naming
// conventions of the file (device_id, stream_id, *event_id, notify_id,
// handle_id, model_id, callback_id, and the address fields in
// call_router.cc). call_router_test checks every call against them.
//
// Thread-safe.

#ifndef NPUD_CLIENT_CORE_CALL_ROUTER_H_
#define NPUD_CLIENT_CORE_CALL_ROUTER_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_map.h"
#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"
#include "google/protobuf/descriptor.h"
#include "npud/v1/calls.pb.h"

namespace npud::client {

class CallRouter {
 public:
  // What the client knows of one daemon from its HelloReply.
  struct DaemonLayout {
    // Where it listens, for messages.
    std::string name;
    int32_t device_count = 0;
    // [base, base + size) ranges of its device and reserved addresses.
    std::vector<std::pair<uint64_t, uint64_t>> address_ranges;
  };

  // Refuses daemons whose address ranges overlap (started in the same
  // --address_slot), since their pointers could not be told apart.
  static absl::StatusOr<std::unique_ptr<CallRouter>> Create(std::vector<DaemonLayout> daemons);

  // The daemon that serves `call`, or `fallback` when the call names none.
  // Rewrites the call's device ids to that daemon's numbering, and records
  // (forgets) the objects it creates (destroys).
  absl::StatusOr<size_t> Route(v1::Call& call, size_t fallback) ABSL_LOCKS_EXCLUDED(mu_);
  // The daemon of stream `stream_id` (0: none) and device `address`, for
  // copies that pick their session before they build their calls.
  absl::StatusOr<size_t> RouteCopy(uint64_t stream_id, uint64_t address, size_t fallback) const
      ABSL_LOCKS_EXCLUDED(mu_);
  // Calls every daemon must see: kernel binaries, the execute timeout and
  // process snapshots.
  static bool IsBroadcast(const v1::Call& call);
  // Whether a field of a call's op names a daemon (for call_router_test).
  static bool IsRoutingField(const google::protobuf::FieldDescriptor& field);
  // Rewrites the device ids in a reply of `daemon` to the program's numbering.
  void GlobalizeReply(size_t daemon, v1::Reply& reply) const;

  size_t daemon_count() const { return daemons_.size(); }
  const std::string& name(size_t daemon) const { return daemons_[daemon].name; }
  // The daemon whose device or reserved addresses hold `address`.
  std::optional<size_t> DaemonOfAddress(uint64_t address) const;
  // The daemon of program device `device` and its id there.
  std::optional<std::pair<size_t, int32_t>> LocalDevice(int32_t device) const;
  // The program's id of device `local` of `daemon`.
  int32_t GlobalDevice(size_t daemon, int32_t local) const;

 private:
  // Kinds of client-minted ids; each kind has its own counter.
  enum class IdKind { kObject, kModel, kCallback };
  using IdKey = std::pair<IdKind, uint64_t>;
  struct Daemon {
    std::string name;
    int32_t first_device;
    int32_t device_count;
    std::vector<std::pair<uint64_t, uint64_t>> address_ranges;
  };

  static std::optional<IdKind> IdKindOf(const google::protobuf::FieldDescriptor& field);

  explicit CallRouter(std::vector<Daemon> daemons) : daemons_(std::move(daemons)) {}
  // One daemon for all `votes`, or an error naming the two that differ.
  absl::StatusOr<size_t> Decide(const std::vector<size_t>& votes, size_t fallback,
                                const std::string& what) const;

  const std::vector<Daemon> daemons_;
  mutable absl::Mutex mu_;
  absl::flat_hash_map<IdKey, size_t> owners_ ABSL_GUARDED_BY(mu_);
};

}  // namespace npud::client

#endif  // NPUD_CLIENT_CORE_CALL_ROUTER_H_

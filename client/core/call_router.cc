#include "client/core/call_router.h"

#include <algorithm>

#include "absl/strings/str_format.h"
#include "common/acl_status.h"
#include "google/protobuf/descriptor.h"
#include "google/protobuf/message.h"

namespace npud::client {
namespace {

using google::protobuf::FieldDescriptor;
using google::protobuf::Message;

// Fields holding a device address. RandomParam's address (a parameter in
// device memory) is not looked at: the result address beside it decides.
constexpr absl::string_view kAddressFields[] = {
    "address", "dst", "src", "device_address", "result", "counter", "args_address", "hint"};

bool IsAddressField(const FieldDescriptor& field) {
  return field.cpp_type() == FieldDescriptor::CPPTYPE_UINT64 && !field.is_repeated() &&
         std::find(std::begin(kAddressFields), std::end(kAddressFields), field.name()) !=
             std::end(kAddressFields);
}

bool IsDeviceField(const FieldDescriptor& field) {
  return field.name() == "device_id" && field.cpp_type() == FieldDescriptor::CPPTYPE_INT32 &&
         !field.is_repeated();
}

// Calls after which their objects no longer exist.
bool Destroys(v1::Call::OpCase op) {
  switch (op) {
    case v1::Call::kDestroyStream:
    case v1::Call::kDestroyEvent:
    case v1::Call::kDestroyNotify:
    case v1::Call::kDestroyCountNotify:
    case v1::Call::kFreePhysical:
    case v1::Call::kModelDestroy:
    case v1::Call::kHostCallbackDone:
      return true;
    default:
      return false;
  }
}

// The op message of `call`, or null if none is set.
Message* MutableOp(v1::Call& call) {
  const auto* oneof = v1::Call::descriptor()->FindOneofByName("op");
  const FieldDescriptor* field = call.GetReflection()->GetOneofFieldDescriptor(call, oneof);
  return field == nullptr ? nullptr : call.GetReflection()->MutableMessage(&call, field);
}

}  // namespace

std::optional<CallRouter::IdKind> CallRouter::IdKindOf(const FieldDescriptor& field) {
  if (field.cpp_type() != FieldDescriptor::CPPTYPE_UINT64 || field.is_repeated()) {
    return std::nullopt;
  }
  const std::string& name = field.name();
  // Streams, events, notifies and physical handles share one counter
  // (ObjectRegistry::MintId); models and host callbacks have their own.
  if (name == "stream_id" || name == "event_id" || name == "start_event_id" ||
      name == "end_event_id" || name == "notify_id" || name == "handle_id") {
    return IdKind::kObject;
  }
  if (name == "model_id") return IdKind::kModel;
  if (name == "callback_id") return IdKind::kCallback;
  return std::nullopt;
}

bool CallRouter::IsRoutingField(const FieldDescriptor& field) {
  return IsDeviceField(field) || IsAddressField(field) || IdKindOf(field).has_value();
}

absl::StatusOr<std::unique_ptr<CallRouter>> CallRouter::Create(std::vector<DaemonLayout> layouts) {
  std::vector<Daemon> daemons;
  int32_t first_device = 0;
  for (DaemonLayout& layout : layouts) {
    for (const Daemon& other : daemons) {
      for (const auto& [base, size] : layout.address_ranges) {
        for (const auto& [other_base, other_size] : other.address_ranges) {
          if (base < other_base + other_size && other_base < base + size) {
            return absl::FailedPreconditionError(absl::StrFormat(
                "npud at %s and npud at %s hand out overlapping device addresses ([%#x, %#x) "
                "and [%#x, %#x)): start each daemon with its own --address_slot",
                other.name, layout.name, other_base, other_base + other_size, base, base + size));
          }
        }
      }
    }
    daemons.push_back(Daemon{std::move(layout.name), first_device, layout.device_count,
                             std::move(layout.address_ranges)});
    first_device += daemons.back().device_count;
  }
  return std::unique_ptr<CallRouter>(new CallRouter(std::move(daemons)));
}

absl::StatusOr<size_t> CallRouter::Route(v1::Call& call, size_t fallback) {
  Message* op = MutableOp(call);
  if (op == nullptr) return fallback;
  const auto* reflection = op->GetReflection();
  const auto* descriptor = op->GetDescriptor();
  std::vector<size_t> votes;
  std::vector<std::pair<const FieldDescriptor*, int32_t>> device_fields;
  std::vector<IdKey> new_ids;
  std::vector<IdKey> known_ids;
  absl::MutexLock lock(&mu_);
  for (int i = 0; i < descriptor->field_count(); ++i) {
    const FieldDescriptor& field = *descriptor->field(i);
    if (IsDeviceField(field)) {
      // An invalid id stays as it is; the daemon that gets it refuses it.
      if (auto local = LocalDevice(reflection->GetInt32(*op, &field))) {
        votes.push_back(local->first);
        device_fields.emplace_back(&field, local->second);
      }
    } else if (auto kind = IdKindOf(field)) {
      const uint64_t id = reflection->GetUInt64(*op, &field);
      if (id == 0) continue;  // "none", as stream_id 0
      const IdKey key{*kind, id};
      if (auto it = owners_.find(key); it != owners_.end()) {
        votes.push_back(it->second);
        known_ids.push_back(key);
      } else {
        new_ids.push_back(key);
      }
    } else if (IsAddressField(field)) {
      const uint64_t address = reflection->GetUInt64(*op, &field);
      if (auto daemon = DaemonOfAddress(address)) votes.push_back(*daemon);
    }
  }
  absl::StatusOr<size_t> daemon = Decide(votes, fallback, descriptor->name());
  if (!daemon.ok()) return daemon;
  for (const IdKey& key : new_ids) owners_[key] = *daemon;
  if (Destroys(call.op_case())) {
    for (const IdKey& key : known_ids) owners_.erase(key);
  }
  for (const auto& [field, local] : device_fields) reflection->SetInt32(op, field, local);
  return daemon;
}

absl::StatusOr<size_t> CallRouter::RouteCopy(uint64_t stream_id, uint64_t address,
                                             size_t fallback) const {
  std::vector<size_t> votes;
  if (auto daemon = DaemonOfAddress(address)) votes.push_back(*daemon);
  if (stream_id != 0) {
    absl::MutexLock lock(&mu_);
    if (auto it = owners_.find(IdKey{IdKind::kObject, stream_id}); it != owners_.end()) {
      votes.push_back(it->second);
    }
  }
  return Decide(votes, fallback, "copy");
}

absl::StatusOr<size_t> CallRouter::Decide(const std::vector<size_t>& votes, size_t fallback,
                                          const std::string& what) const {
  if (votes.empty()) return fallback;
  for (size_t vote : votes) {
    if (vote != votes.front()) {
      return AclError(kRtFeatureNotSupport,
                      absl::StrFormat("%s touches devices of two daemons (npud at %s and at %s); "
                                      "npud orders work within one daemon only",
                                      what, daemons_[votes.front()].name, daemons_[vote].name));
    }
  }
  return votes.front();
}

bool CallRouter::IsBroadcast(const v1::Call& call) {
  switch (call.op_case()) {
    case v1::Call::kLoadBinary:
    case v1::Call::kUnloadBinary:
    case v1::Call::kSetExecuteTimeout:
    case v1::Call::kSnapshot:
      return true;
    default:
      return false;
  }
}

void CallRouter::GlobalizeReply(size_t daemon, v1::Reply& reply) const {
  const int32_t offset = daemons_[daemon].first_device;
  if (offset == 0) return;
  const auto* oneof = v1::Reply::descriptor()->FindOneofByName("result");
  const FieldDescriptor* field = reply.GetReflection()->GetOneofFieldDescriptor(reply, oneof);
  if (field == nullptr) return;
  Message* result = reply.GetReflection()->MutableMessage(&reply, field);
  const auto* descriptor = result->GetDescriptor();
  for (int i = 0; i < descriptor->field_count(); ++i) {
    const FieldDescriptor& device = *descriptor->field(i);
    if (!IsDeviceField(device)) continue;
    const int32_t local = result->GetReflection()->GetInt32(*result, &device);
    result->GetReflection()->SetInt32(result, &device, local + offset);
  }
}

std::optional<size_t> CallRouter::DaemonOfAddress(uint64_t address) const {
  if (address == 0) return std::nullopt;
  for (size_t daemon = 0; daemon < daemons_.size(); ++daemon) {
    for (const auto& [base, size] : daemons_[daemon].address_ranges) {
      if (address >= base && address - base < size) return daemon;
    }
  }
  return std::nullopt;
}

std::optional<std::pair<size_t, int32_t>> CallRouter::LocalDevice(int32_t device) const {
  for (size_t daemon = 0; daemon < daemons_.size(); ++daemon) {
    const Daemon& d = daemons_[daemon];
    if (device >= d.first_device && device - d.first_device < d.device_count) {
      return std::pair<size_t, int32_t>{daemon, device - d.first_device};
    }
  }
  return std::nullopt;
}

int32_t CallRouter::GlobalDevice(size_t daemon, int32_t local) const {
  return daemons_[daemon].first_device + local;
}

}  // namespace npud::client

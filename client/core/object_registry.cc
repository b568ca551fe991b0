#include "client/core/object_registry.h"

#include <algorithm>

#include "absl/strings/str_format.h"
#include "common/acl_status.h"

namespace npud::client {
namespace {

template <typename Map>
auto FindIn(const Map& map, uint64_t id) -> std::optional<typename Map::mapped_type> {
  auto it = map.find(id);
  if (it == map.end()) return std::nullopt;
  return it->second;
}

}  // namespace

uint32_t AvailableObjects(uint32_t limit, size_t held) {
  const size_t total = limit != 0 ? limit : 65536;
  return static_cast<uint32_t>(held >= total ? 0 : total - held);
}

void ObjectRegistry::AddContext(uint64_t id, ContextRecord record) {
  absl::MutexLock lock(&mu_);
  contexts_[id] = record;
}

void ObjectRegistry::AddStream(uint64_t id, StreamRecord record) {
  absl::MutexLock lock(&mu_);
  streams_[id] = record;
}

void ObjectRegistry::AddEvent(uint64_t id, EventRecord record) {
  absl::MutexLock lock(&mu_);
  events_[id] = record;
}

void ObjectRegistry::AddNotify(uint64_t id, int32_t device) {
  absl::MutexLock lock(&mu_);
  notifies_[id] = device;
}

std::optional<int32_t> ObjectRegistry::FindNotify(uint64_t id) const {
  absl::ReaderMutexLock lock(&mu_);
  return FindIn(notifies_, id);
}

bool ObjectRegistry::RemoveNotify(uint64_t id) {
  absl::MutexLock lock(&mu_);
  return notifies_.erase(id) > 0;
}

void ObjectRegistry::AddPhysical(uint64_t id, PhysicalRecord record) {
  absl::MutexLock lock(&mu_);
  physical_[id] = record;
}

std::optional<PhysicalRecord> ObjectRegistry::FindPhysical(uint64_t id) const {
  absl::ReaderMutexLock lock(&mu_);
  return FindIn(physical_, id);
}

bool ObjectRegistry::RemovePhysical(uint64_t id) {
  absl::MutexLock lock(&mu_);
  return physical_.erase(id) > 0;
}

std::optional<ContextRecord> ObjectRegistry::FindContext(uint64_t id) const {
  absl::ReaderMutexLock lock(&mu_);
  return FindIn(contexts_, id);
}

std::optional<StreamRecord> ObjectRegistry::FindStream(uint64_t id) const {
  absl::ReaderMutexLock lock(&mu_);
  return FindIn(streams_, id);
}

std::optional<EventRecord> ObjectRegistry::FindEvent(uint64_t id) const {
  absl::ReaderMutexLock lock(&mu_);
  return FindIn(events_, id);
}

std::vector<uint64_t> ObjectRegistry::RemoveContext(uint64_t id) {
  std::vector<uint64_t> streams;
  absl::MutexLock lock(&mu_);
  if (contexts_.erase(id) == 0) return streams;
  for (auto it = streams_.begin(); it != streams_.end();) {
    if (it->second.context == id) {
      streams.push_back(it->first);
      streams_.erase(it++);
    } else {
      ++it;
    }
  }
  for (auto& [device, state] : devices_) {
    if (state.primary_context == id) state.primary_context = 0;
  }
  return streams;
}

bool ObjectRegistry::RemoveStream(uint64_t id) {
  absl::MutexLock lock(&mu_);
  return streams_.erase(id) > 0;
}

void ObjectRegistry::SetStopOnFailure(uint64_t stream, bool stop) {
  absl::MutexLock lock(&mu_);
  if (auto it = streams_.find(stream); it != streams_.end()) it->second.stop_on_failure = stop;
}

void ObjectRegistry::UpdateStream(uint64_t stream,
                                  const std::function<void(StreamRecord&)>& update) {
  absl::MutexLock lock(&mu_);
  if (auto it = streams_.find(stream); it != streams_.end()) update(it->second);
}

uint32_t ObjectRegistry::EventHardwareId(uint64_t event) {
  absl::MutexLock lock(&mu_);
  auto it = events_.find(event);
  if (it == events_.end()) return 0;
  if (it->second.hardware_id == 0) it->second.hardware_id = ++event_ids_[it->second.device];
  return it->second.hardware_id;
}

int ObjectRegistry::PinEventFlag(uint64_t event, bool wait, uint32_t flag) {
  absl::MutexLock lock(&mu_);
  auto it = events_.find(event);
  if (it == events_.end()) return -1;
  int& pinned = wait ? it->second.wait_flag : it->second.record_flag;
  if (pinned < 0) pinned = static_cast<int>(flag);
  return pinned;
}

size_t ObjectRegistry::StreamCount() const {
  absl::ReaderMutexLock lock(&mu_);
  return streams_.size();
}

size_t ObjectRegistry::EventCount() const {
  absl::ReaderMutexLock lock(&mu_);
  return events_.size();
}

void ObjectRegistry::SetContextSysParam(uint64_t context, int opt, int64_t value) {
  absl::MutexLock lock(&mu_);
  if (auto it = contexts_.find(context); it != contexts_.end()) {
    it->second.sys_params[opt] = value;
  }
}

bool ObjectRegistry::RemoveEvent(uint64_t id) {
  absl::MutexLock lock(&mu_);
  return events_.erase(id) > 0;
}

std::vector<uint64_t> ObjectRegistry::StreamsOf(int32_t device) const {
  absl::MutexLock lock(&mu_);
  std::vector<uint64_t> ids;
  for (const auto& [id, stream] : streams_) {
    if (stream.device == device) ids.push_back(id);
  }
  std::sort(ids.begin(), ids.end());
  return ids;
}

void ObjectRegistry::SetPeerAccess(int32_t device, int32_t peer, bool enabled) {
  absl::MutexLock lock(&mu_);
  if (enabled) {
    peer_access_.insert({device, peer});
  } else {
    peer_access_.erase({device, peer});
  }
}

bool ObjectRegistry::PeerAccessEnabled(int32_t device, int32_t peer) const {
  absl::ReaderMutexLock lock(&mu_);
  return peer_access_.contains({device, peer});
}

bool ObjectRegistry::DeviceOpen(int32_t device) const {
  absl::ReaderMutexLock lock(&mu_);
  auto it = devices_.find(device);
  return it != devices_.end() && it->second.open_count > 0;
}

std::vector<int32_t> ObjectRegistry::OpenDevices() const {
  std::vector<int32_t> open;
  absl::ReaderMutexLock lock(&mu_);
  for (const auto& [device, record] : devices_) {
    if (record.open_count > 0) open.push_back(device);
  }
  std::sort(open.begin(), open.end());
  return open;
}

void ObjectRegistry::RemoveDevice(int32_t device) {
  absl::MutexLock lock(&mu_);
  absl::erase_if(peer_access_, [device](const auto& pair) { return pair.first == device; });
  absl::erase_if(contexts_, [device](const auto& kv) { return kv.second.device == device; });
  absl::erase_if(streams_, [device](const auto& kv) { return kv.second.device == device; });
  absl::erase_if(events_, [device](const auto& kv) { return kv.second.device == device; });
  absl::erase_if(notifies_, [device](const auto& kv) { return kv.second == device; });
  devices_.erase(device);
}

void ObjectRegistry::Clear() {
  absl::MutexLock lock(&mu_);
  contexts_.clear();
  streams_.clear();
  events_.clear();
  notifies_.clear();
  physical_.clear();
  devices_.clear();
  peer_access_.clear();
}

uint64_t ObjectRegistry::OpenDevice(int32_t device) {
  absl::MutexLock lock(&mu_);
  DeviceState& state = devices_[device];
  ++state.open_count;
  return state.primary_context;
}

void ObjectRegistry::SetPrimaryContext(int32_t device, uint64_t context) {
  absl::MutexLock lock(&mu_);
  devices_[device].primary_context = context;
}

absl::StatusOr<bool> ObjectRegistry::CloseDevice(int32_t device, bool force) {
  absl::MutexLock lock(&mu_);
  auto it = devices_.find(device);
  if (it == devices_.end() || it->second.open_count == 0) {
    return AclError(
        kRtContextReleaseError,
        absl::StrFormat("device %d has not been set or has already been reset", device));
  }
  if (force) it->second.open_count = 0;
  if (it->second.open_count > 0) --it->second.open_count;
  return it->second.open_count == 0;
}

}  // namespace npud::client

#include "daemon/tdt_queues.h"

#include <algorithm>
#include <tuple>
#include <utility>

#include "absl/strings/str_format.h"
#include "common/acl_status.h"
#include "spdlog/spdlog.h"

namespace npud::daemon {
namespace {

constexpr int32_t kRouteUnbound = 0;
constexpr int32_t kRouteBound = 1;

uint64_t BytesOf(const TdtQueues::Message& message) {
  return message.data.size() + message.user_data.size();
}

}  // namespace

absl::StatusOr<uint32_t> TdtQueues::Create(uint64_t session, int device_id, const std::string& name,
                                           uint32_t depth) {
  if (depth < kMinDepth || depth > kMaxDepth) {
    return AclError(kRtParamInvalid, absl::StrFormat("a queue's depth is %u to %u, not %u",
                                                     kMinDepth, kMaxDepth, depth));
  }
  if (name.size() > kMaxNameLength || name.find('\0') != std::string::npos) {
    return AclError(kRtParamInvalid,
                    absl::StrFormat("a queue name has at most %d characters", kMaxNameLength));
  }
  absl::MutexLock lock(&mu_);
  if (session_queues_[session] >= kMaxSessionQueues) {
    return AclError(kRtResourceAllocFail,
                    absl::StrFormat("a session has at most %d queues", kMaxSessionQueues));
  }
  if (!name.empty()) {
    for (const auto& [key, queue] : queues_) {
      if (key.first == device_id && queue.name == name) {
        return AclError(kAclInvalidParam,
                        absl::StrFormat("device %d already has a queue named '%s' (id %u)",
                                        device_id, name, key.second));
      }
    }
  }
  // The next free id below kMaxQueueId, round robin, so a destroyed id is
  // not handed out again at once.
  uint32_t& next = next_id_[device_id];
  for (uint32_t tries = 0; tries < kMaxQueueId; ++tries) {
    const uint32_t id = next;
    next = (next + 1) % kMaxQueueId;
    if (queues_.contains(Key{device_id, id})) continue;
    Queue& queue = queues_[Key{device_id, id}];
    queue.owner = session;
    queue.name = name;
    queue.depth = depth;
    ++session_queues_[session];
    return id;
  }
  return AclError(kRtResourceAllocFail,
                  absl::StrFormat("device %d has %u queues, all it can", device_id, kMaxQueueId));
}

absl::StatusOr<TdtQueues::Queue*> TdtQueues::Find(uint64_t session, int device_id,
                                                  uint32_t queue_id) {
  auto it = queues_.find(Key{device_id, queue_id});
  // Another session's queue is as unknown to this one as a missing one.
  if (it == queues_.end() || it->second.owner != session) {
    return AclError(kRtParamInvalid, absl::StrFormat("device %d has no queue %u of this process",
                                                     device_id, queue_id));
  }
  return &it->second;
}

absl::StatusOr<const TdtQueues::Queue*> TdtQueues::Find(uint64_t session, int device_id,
                                                        uint32_t queue_id) const {
  auto it = queues_.find(Key{device_id, queue_id});
  if (it == queues_.end() || it->second.owner != session) {
    return AclError(kRtParamInvalid, absl::StrFormat("device %d has no queue %u of this process",
                                                     device_id, queue_id));
  }
  return &it->second;
}

void TdtQueues::Account(uint64_t session, int64_t bytes) {
  uint64_t& total = session_bytes_[session];
  total = static_cast<uint64_t>(static_cast<int64_t>(total) + bytes);
}

absl::Status TdtQueues::Destroy(uint64_t session, int device_id, uint32_t queue_id) {
  absl::MutexLock lock(&mu_);
  auto queue = Find(session, device_id, queue_id);
  if (!queue.ok()) return queue.status();
  for (const auto& [device, src, dst] : routes_) {
    if (device == device_id && (src == queue_id || dst == queue_id)) {
      return AclError(kAclFailure, absl::StrFormat("queue %u has routes bound (%u -> %u): unbind "
                                                   "them first",
                                                   queue_id, src, dst));
    }
  }
  int64_t bytes = 0;
  for (const Message& message : (*queue)->messages) bytes += static_cast<int64_t>(BytesOf(message));
  Account(session, -bytes);
  --session_queues_[session];
  queues_.erase(Key{device_id, queue_id});
  return absl::OkStatus();
}

std::vector<uint32_t> TdtQueues::RouteTargets(int device_id, uint32_t src) const {
  std::vector<uint32_t> targets;
  for (const auto& [device, from, to] : routes_) {
    if (device == device_id && from == src) targets.push_back(to);
  }
  return targets;
}

void TdtQueues::Forward(int device_id, uint32_t src) {
  const std::vector<uint32_t> targets = RouteTargets(device_id, src);
  if (targets.empty()) return;
  Queue& from = queues_[Key{device_id, src}];
  while (!from.messages.empty()) {
    // Routes never chain (Bind refuses it), so targets do not forward on.
    // A plain loop, not std::all_of: the thread-safety analysis cannot see
    // that a lambda runs under mu_.
    for (uint32_t dst : targets) {
      const Queue& to = queues_[Key{device_id, dst}];
      if (to.messages.size() >= to.depth) return;
    }
    Message message = std::move(from.messages.front());
    from.messages.pop_front();
    const int64_t bytes = static_cast<int64_t>(BytesOf(message));
    Account(from.owner, -bytes);
    for (size_t i = 0; i < targets.size(); ++i) {
      Queue& to = queues_[Key{device_id, targets[i]}];
      Account(to.owner, bytes);
      to.messages.push_back(i + 1 == targets.size() ? std::move(message) : message);
    }
  }
}

absl::Status TdtQueues::Enqueue(uint64_t session, int device_id, uint32_t queue_id,
                                Message message) {
  if (message.user_data.size() > kMaxUserDataBytes) {
    return AclError(kAclInvalidParam, absl::StrFormat("user data of %d bytes (at most %d)",
                                                      message.user_data.size(), kMaxUserDataBytes));
  }
  absl::MutexLock lock(&mu_);
  auto queue = Find(session, device_id, queue_id);
  if (!queue.ok()) return queue.status();
  const uint64_t bytes = BytesOf(message);
  if (session_bytes_[session] + bytes > kMaxSessionBytes) {
    return AclError(kRtQueueFull, absl::StrFormat("the process's queues hold %d bytes, at most %d",
                                                  session_bytes_[session], kMaxSessionBytes));
  }
  if ((*queue)->messages.size() >= (*queue)->depth) {
    return AclError(kRtQueueFull,
                    absl::StrFormat("queue %u is full (%u messages)", queue_id, (*queue)->depth));
  }
  Account(session, static_cast<int64_t>(bytes));
  (*queue)->messages.push_back(std::move(message));
  Forward(device_id, queue_id);
  return absl::OkStatus();
}

absl::StatusOr<TdtQueues::Message> TdtQueues::Dequeue(uint64_t session, int device_id,
                                                      uint32_t queue_id, uint64_t max_bytes,
                                                      uint64_t* too_large) {
  absl::MutexLock lock(&mu_);
  auto queue = Find(session, device_id, queue_id);
  if (!queue.ok()) return queue.status();
  std::deque<Message>& messages = (*queue)->messages;
  if (messages.empty()) {
    return AclError(kRtQueueEmpty, absl::StrFormat("queue %u is empty", queue_id));
  }
  if (max_bytes != 0 && messages.front().data.size() > max_bytes) {
    *too_large = messages.front().data.size();
    return AclError(kRtParamInvalid,
                    absl::StrFormat("the next message of queue %u has %d bytes, more than the %d "
                                    "given",
                                    queue_id, messages.front().data.size(), max_bytes));
  }
  Message message = std::move(messages.front());
  messages.pop_front();
  Account(session, -static_cast<int64_t>(BytesOf(message)));
  // Room now: whatever routes hold back for this queue may move on.
  for (const auto& [device, src, dst] : std::vector(routes_)) {
    if (device == device_id && dst == queue_id) Forward(device_id, src);
  }
  return message;
}

absl::StatusOr<uint64_t> TdtQueues::Size(uint64_t session, int device_id, uint32_t queue_id) const {
  absl::ReaderMutexLock lock(&mu_);
  auto queue = Find(session, device_id, queue_id);
  if (!queue.ok()) return queue.status();
  return (*queue)->messages.size();
}

absl::Status TdtQueues::Reset(uint64_t session, int device_id, uint32_t queue_id) {
  absl::MutexLock lock(&mu_);
  auto queue = Find(session, device_id, queue_id);
  if (!queue.ok()) return queue.status();
  int64_t bytes = 0;
  for (const Message& message : (*queue)->messages) bytes += static_cast<int64_t>(BytesOf(message));
  Account(session, -bytes);
  (*queue)->messages.clear();
  return absl::OkStatus();
}

absl::StatusOr<std::vector<TdtQueues::Route>> TdtQueues::Bind(uint64_t session, int device_id,
                                                              const std::vector<Route>& routes,
                                                              bool unbind) {
  if (routes.empty()) return AclError(kAclFailure, "no routes to bind");
  absl::MutexLock lock(&mu_);
  std::vector<Route> result = routes;
  bool all_bound = true;
  for (Route& route : result) {
    auto bound =
        std::find(routes_.begin(), routes_.end(), std::make_tuple(device_id, route.src, route.dst));
    if (unbind) {
      if (bound != routes_.end()) routes_.erase(bound);
      route.status = kRouteUnbound;
      continue;
    }
    const bool ends_exist =
        Find(session, device_id, route.src).ok() && Find(session, device_id, route.dst).ok();
    // No chains: the source may not receive from a route, the destination
    // may not feed one (so forwarding never cascades or cycles).
    const bool chains = std::any_of(routes_.begin(), routes_.end(), [&](const auto& other) {
      const auto& [device, src, dst] = other;
      return device == device_id && (dst == route.src || src == route.dst);
    });
    if (bound != routes_.end()) {
      route.status = kRouteBound;
    } else if (ends_exist && route.src != route.dst && !chains) {
      routes_.emplace_back(device_id, route.src, route.dst);
      route.status = kRouteBound;
      Forward(device_id, route.src);
    } else {
      spdlog::warn("tdt: route {} -> {} on device {} not bound ({})", route.src, route.dst,
                   device_id,
                   !ends_exist              ? "no such queue"
                   : route.src == route.dst ? "a loop"
                                            : "a chain");
      route.status = kRouteUnbound;
      all_bound = false;
    }
  }
  if (!all_bound) {
    return AclError(kAclFailure, "some routes could not be bound (the log says why)");
  }
  return result;
}

absl::StatusOr<std::vector<TdtQueues::Route>> TdtQueues::Query(uint64_t session, int device_id,
                                                               int32_t mode, uint32_t src,
                                                               uint32_t dst) const {
  switch (static_cast<QueryMode>(mode)) {
    case QueryMode::kSrc:
    case QueryMode::kDst:
    case QueryMode::kSrcAndDst:
    case QueryMode::kAbnormal:
      break;
    default:
      return AclError(kAclInvalidParam, absl::StrFormat("%d is not a route query mode", mode));
  }
  absl::ReaderMutexLock lock(&mu_);
  std::vector<Route> found;
  // Routes never go abnormal here: the queues they join live as long as
  // the routes do.
  if (static_cast<QueryMode>(mode) == QueryMode::kAbnormal) return found;
  for (const auto& [device, from, to] : routes_) {
    if (device != device_id || !Find(session, device_id, from).ok()) continue;
    const bool match = (mode == 0 && from == src) || (mode == 1 && to == dst) ||
                       (mode == 2 && from == src && to == dst);
    if (match) found.push_back(Route{from, to, kRouteBound});
  }
  return found;
}

void TdtQueues::ReleaseSession(uint64_t session) {
  absl::MutexLock lock(&mu_);
  size_t released = 0;
  for (auto it = queues_.begin(); it != queues_.end();) {
    if (it->second.owner != session) {
      ++it;
      continue;
    }
    const Key key = it->first;
    routes_.erase(std::remove_if(routes_.begin(), routes_.end(),
                                 [&](const auto& route) {
                                   const auto& [device, src, dst] = route;
                                   return device == key.first &&
                                          (src == key.second || dst == key.second);
                                 }),
                  routes_.end());
    queues_.erase(it++);
    ++released;
  }
  session_bytes_.erase(session);
  session_queues_.erase(session);
  if (released > 0) spdlog::info("session {}: released {} TDT queue(s)", session, released);
}

}  // namespace npud::daemon

#include "client/core/state_callbacks.h"

#include <utility>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/strings/str_cat.h"
#include "absl/synchronization/mutex.h"
#include "client/core/client_log.h"
#include "client/core/handles.h"
#include "common/acl_status.h"

namespace npud::client {
namespace {

template <typename Fn>
class StateCallbackRegistry {
 public:
  absl::Status Register(const std::string& name, Fn fn) {
    if (name.empty()) return AclError(kRtParamInvalid, "the registration name is empty");
    absl::MutexLock lock(&mu_);
    auto it = entries_.begin();
    while (it != entries_.end() && it->first != name) ++it;
    if (!fn) {
      if (it == entries_.end()) {
        return AclError(kRtParamInvalid, absl::StrCat("no callback is registered as '", name, "'"));
      }
      entries_.erase(it);
      return absl::OkStatus();
    }
    if (it != entries_.end()) {
      return AclError(kRtParamInvalid, absl::StrCat("a callback is already registered as '", name,
                                                    "' (unregister it first)"));
    }
    entries_.emplace_back(name, std::move(fn));
    return absl::OkStatus();
  }

  // Copies, so that a callback may register or unregister.
  std::vector<Fn> Callbacks() const {
    absl::MutexLock lock(&mu_);
    std::vector<Fn> fns;
    for (const auto& [name, fn] : entries_) fns.push_back(fn);
    return fns;
  }

 private:
  mutable absl::Mutex mu_;
  std::vector<std::pair<std::string, Fn>> entries_ ABSL_GUARDED_BY(mu_);
};

// Never destroyed: streams may go in static destructors of the application.
StateCallbackRegistry<StreamStateFn>& Streams() {
  static auto* registry = new StateCallbackRegistry<StreamStateFn>();
  return *registry;
}
StateCallbackRegistry<DeviceStateFn>& Devices() {
  static auto* registry = new StateCallbackRegistry<DeviceStateFn>();
  return *registry;
}

}  // namespace

absl::Status RegisterStreamStateCallback(const std::string& name, StreamStateFn fn) {
  return Streams().Register(name, std::move(fn));
}

absl::Status RegisterDeviceStateCallback(const std::string& name, DeviceStateFn fn) {
  return Devices().Register(name, std::move(fn));
}

void NotifyStreamState(uint64_t stream_id, int state) {
  for (const StreamStateFn& fn : Streams().Callbacks()) {
    fn(MakeHandle(HandleKind::kStream, stream_id), state);
  }
}

void NotifyDeviceState(int32_t device, int state) {
  for (const DeviceStateFn& fn : Devices().Callbacks()) fn(device, state);
}

}  // namespace npud::client

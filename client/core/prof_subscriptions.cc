#include "client/core/prof_subscriptions.h"

#include <unistd.h>

#include "absl/strings/str_cat.h"
#include "client/core/profiler.h"
#include "common/acl_status.h"
#include "common/status_macros.h"

namespace npud::client {
namespace {

constexpr int32_t kMetricsNone = 0xFF;  // ACL_AICORE_NONE

}  // namespace

ProfSubscriptions& ProfSubscriptions::Get() {
  static ProfSubscriptions* subscriptions = new ProfSubscriptions;  // used until exit
  return *subscriptions;
}

void ProfSubscriptions::RegisterModel(uint32_t model, uint32_t device) {
  absl::MutexLock lock(&mu_);
  devices_[model] = device;
}

void ProfSubscriptions::UnregisterModel(uint32_t model) {
  absl::MutexLock lock(&mu_);
  devices_.erase(model);
}

absl::Status ProfSubscriptions::Subscribe(uint32_t model, const aclprofSubscribeConfig* config) {
  uint32_t device = 0;
  {
    absl::MutexLock lock(&mu_);
    auto it = devices_.find(model);
    if (it == devices_.end()) {
      return AclError(kAclInvalidModelId, absl::StrCat("model ", model, " was not loaded"));
    }
    device = it->second;
  }
  if (config == nullptr) return AclError(kAclInvalidParam, "profSubscribeConfig is null");
  if (*config->fd < 0) return AclError(kAclInvalidParam, "the subscription's fd is not open");
  if (!config->time_info && config->metrics == kMetricsNone) {
    return AclError(kAclInvalidParam, "the subscription collects nothing");
  }
  NPUD_RETURN_IF_ERROR(Profiler::Get().EnterSubscribeMode());
  absl::MutexLock lock(&mu_);
  if (subscribed_.contains(model)) {
    return AclError(kAclProfRepeatSubscribe,
                    absl::StrCat("model ", model, " is subscribed already"));
  }
  for (const auto& [other, subscription] : subscribed_) {
    if (subscription.device == device && subscription.config.metrics != config->metrics) {
      return AclError(kAclInvalidProfilingConfig,
                      absl::StrCat("model ", other, " on device ", device,
                                   " is subscribed with other AI Core metrics"));
    }
  }
  subscribed_[model] = Subscription{*config, device};
  return absl::OkStatus();
}

absl::Status ProfSubscriptions::Unsubscribe(uint32_t model) {
  bool last = false;
  {
    absl::MutexLock lock(&mu_);
    if (!devices_.contains(model)) {
      return AclError(kAclInvalidModelId, absl::StrCat("model ", model, " was not loaded"));
    }
    auto it = subscribed_.find(model);
    if (it == subscribed_.end()) {
      return AclError(kAclInvalidModelId, absl::StrCat("model ", model, " is not subscribed"));
    }
    const Subscription gone = it->second;
    subscribed_.erase(it);
    bool shared = false;
    for (const auto& [other, subscription] : subscribed_) {
      shared = shared || *subscription.config.fd == *gone.config.fd;
    }
    if (!shared && *gone.config.fd >= 0) {
      close(*gone.config.fd);
      *gone.config.fd = -1;
    }
    last = subscribed_.empty();
  }
  if (last) Profiler::Get().LeaveSubscribeMode();
  return absl::OkStatus();
}

}  // namespace npud::client

#include "client/core/init_callbacks.h"

#include <optional>
#include <utility>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/strings/str_format.h"
#include "absl/synchronization/mutex.h"
#include "common/acl_status.h"
#include "common/status_macros.h"

namespace npud::client {
namespace {

// aclRegisterCallbackType values the runtime calls by itself.
constexpr uint32_t kModel = 0;
constexpr uint32_t kOpExecutor = 1;
constexpr uint32_t kOpCompiler = 3;
constexpr uint32_t kDvpp = 6;
constexpr uint32_t kOther = 0xFFFF;

template <typename Fn>
struct Entry {
  uint32_t type;
  uintptr_t key;
  Fn fn;
};

struct InitCallbackRegistry {
  absl::Mutex mu;
  std::vector<Entry<InitCallbackFn>> init ABSL_GUARDED_BY(mu);
  std::vector<Entry<FinalizeCallbackFn>> finalize ABSL_GUARDED_BY(mu);
  // The configuration of the aclInit in force; none before or after.
  std::optional<std::string> config ABSL_GUARDED_BY(mu);
};

// Never destroyed: aclFinalize may run from static destructors.
InitCallbackRegistry& InitCallbacks() {
  static auto* registry = new InitCallbackRegistry();
  return *registry;
}

template <typename Fn>
absl::Status Add(std::vector<Entry<Fn>>& entries, uint32_t type, uintptr_t key, Fn fn) {
  if (type != kOther) {
    for (const Entry<Fn>& entry : entries) {
      if (entry.type == type) {
        return AclError(kAclInternalError,
                        absl::StrFormat("callback type %d already has a function", type));
      }
    }
  }
  entries.push_back({type, key, std::move(fn)});
  return absl::OkStatus();
}

template <typename Fn>
absl::Status Remove(std::vector<Entry<Fn>>& entries, uint32_t type, uintptr_t key) {
  for (auto it = entries.begin(); it != entries.end(); ++it) {
    if (it->type == type && it->key == key) {
      entries.erase(it);
      return absl::OkStatus();
    }
  }
  return AclError(kAclInternalError,
                  absl::StrFormat("the function is not registered for callback type %d", type));
}

// The functions of `type`, copied so that they may (un)register.
template <typename Fn>
std::vector<Fn> Of(const std::vector<Entry<Fn>>& entries, uint32_t type) {
  std::vector<Fn> fns;
  for (const Entry<Fn>& entry : entries) {
    if (entry.type == type) fns.push_back(entry.fn);
  }
  return fns;
}

std::vector<InitCallbackFn> InitOf(InitCallbackRegistry& registry, uint32_t type) {
  absl::MutexLock lock(&registry.mu);
  return Of(registry.init, type);
}

std::vector<FinalizeCallbackFn> FinalizeOf(InitCallbackRegistry& registry, uint32_t type) {
  absl::MutexLock lock(&registry.mu);
  return Of(registry.finalize, type);
}

absl::Status Check(int32_t code, const char* what, uint32_t type) {
  if (code == 0) return absl::OkStatus();
  return AclError(static_cast<AclCode>(code),
                  absl::StrFormat("the %s callback of type %d failed", what, type));
}

}  // namespace

absl::Status RegisterInitCallback(uint32_t type, uintptr_t key, InitCallbackFn fn) {
  InitCallbackRegistry& registry = InitCallbacks();
  std::optional<std::string> config;
  {
    absl::MutexLock lock(&registry.mu);
    NPUD_RETURN_IF_ERROR(Add(registry.init, type, key, fn));
    config = registry.config;
  }
  // Already initialized: CANN runs it now and ignores its answer.
  if (config.has_value()) (void)fn(*config);
  return absl::OkStatus();
}

absl::Status UnregisterInitCallback(uint32_t type, uintptr_t key) {
  InitCallbackRegistry& registry = InitCallbacks();
  absl::MutexLock lock(&registry.mu);
  return Remove(registry.init, type, key);
}

absl::Status RegisterFinalizeCallback(uint32_t type, uintptr_t key, FinalizeCallbackFn fn) {
  InitCallbackRegistry& registry = InitCallbacks();
  absl::MutexLock lock(&registry.mu);
  return Add(registry.finalize, type, key, std::move(fn));
}

absl::Status UnregisterFinalizeCallback(uint32_t type, uintptr_t key) {
  InitCallbackRegistry& registry = InitCallbacks();
  absl::MutexLock lock(&registry.mu);
  return Remove(registry.finalize, type, key);
}

absl::Status RunInitCallbacks(const std::string& config, bool has_config_file) {
  InitCallbackRegistry& registry = InitCallbacks();
  for (uint32_t type : {kModel, kOpExecutor, kDvpp, kOther}) {
    if (type == kOpExecutor && !has_config_file) continue;
    for (const InitCallbackFn& fn : InitOf(registry, type)) {
      NPUD_RETURN_IF_ERROR(Check(fn(config), "init", type));
    }
  }
  absl::MutexLock lock(&registry.mu);
  registry.config = config;
  return absl::OkStatus();
}

absl::Status RunFinalizeCallbacks() {
  InitCallbackRegistry& registry = InitCallbacks();
  {
    absl::MutexLock lock(&registry.mu);
    registry.config.reset();
  }
  for (uint32_t type : {kOpCompiler, kModel, kDvpp, kOther}) {
    for (const FinalizeCallbackFn& fn : FinalizeOf(registry, type)) {
      NPUD_RETURN_IF_ERROR(Check(fn(), "finalize", type));
    }
  }
  return absl::OkStatus();
}

}  // namespace npud::client

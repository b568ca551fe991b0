#include "client/core/binary_descriptors.h"

#include <memory>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_format.h"
#include "absl/strings/string_view.h"
#include "absl/synchronization/mutex.h"
#include "client/core/context_ops.h"
#include "client/core/kernel_ops.h"
#include "common/acl_status.h"
#include "common/status_macros.h"

namespace npud::client {
namespace {

struct Descriptor {
  const void* data;
  size_t length;
};

class Descriptors {
 public:
  static Descriptors& Get() {
    static auto* const descriptors = new Descriptors;
    return *descriptors;
  }
  void* Add(const void* data, size_t length) ABSL_LOCKS_EXCLUDED(mu_) {
    auto descriptor = std::make_unique<Descriptor>(Descriptor{data, length});
    void* handle = descriptor.get();
    absl::MutexLock lock(&mu_);
    descriptors_.emplace(handle, std::move(descriptor));
    return handle;
  }
  bool Remove(void* handle) ABSL_LOCKS_EXCLUDED(mu_) {
    absl::MutexLock lock(&mu_);
    return descriptors_.erase(handle) != 0;
  }
  absl::StatusOr<Descriptor> Find(void* handle) const ABSL_LOCKS_EXCLUDED(mu_) {
    absl::MutexLock lock(&mu_);
    auto it = descriptors_.find(handle);
    if (it == descriptors_.end()) return Unknown(handle);
    return *it->second;
  }
  static absl::Status Unknown(void* handle) {
    return AclError(kRtParamInvalid,
                    absl::StrFormat("%p is not an aclrtBinary of aclrtCreateBinary", handle));
  }

 private:
  mutable absl::Mutex mu_;
  absl::flat_hash_map<void*, std::unique_ptr<Descriptor>> descriptors_ ABSL_GUARDED_BY(mu_);
};

}  // namespace

void* CreateBinaryDescriptor(const void* data, size_t length) {
  return Descriptors::Get().Add(data, length);
}

absl::Status DestroyBinaryDescriptor(void* binary) {
  if (!Descriptors::Get().Remove(binary)) return Descriptors::Unknown(binary);
  return absl::OkStatus();
}

absl::StatusOr<void*> LoadBinaryDescriptor(void* binary) {
  NPUD_ASSIGN_OR_RETURN(const Descriptor descriptor, Descriptors::Get().Find(binary));
  if (descriptor.length == 0) return AclError(kRtParamInvalid, "the binary has 0 bytes");
  NPUD_RETURN_IF_ERROR(CurrentContext().status());
  return LoadBinary(absl::string_view(static_cast<const char*>(descriptor.data), descriptor.length),
                    "<aclrtBinary>");
}

}  // namespace npud::client

// handle_table.h
//
// HandleTable<T>: one kind of a session's objects (streams, events, kernel
// binaries, ...) by the id the client minted for it. The table is the only
// way a session names such an object, so an id of another session, a
// destroyed object or garbage finds nothing and is answered with the ACL
// code CANN gives for a bad handle.
//
// Thread-safe; each table has its own lock, never held while calling out.

#ifndef NPUD_DAEMON_SESSION_HANDLE_TABLE_H_
#define NPUD_DAEMON_SESSION_HANDLE_TABLE_H_

#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_format.h"
#include "absl/synchronization/mutex.h"
#include "common/acl_status.h"

namespace npud::daemon {

template <typename T>
class HandleTable {
 public:
  // `kind` names the objects in error messages ("stream"); lookups of
  // missing ids fail with `missing_code`.
  explicit HandleTable(const char* kind, AclCode missing_code = kRtInvalidHandle)
      : kind_(kind), missing_code_(missing_code) {}
  HandleTable(const HandleTable&) = delete;
  HandleTable& operator=(const HandleTable&) = delete;

  // kRtParamInvalid for id 0 (reserved) or an id in use.
  absl::Status Add(uint64_t id, std::shared_ptr<T> object) ABSL_LOCKS_EXCLUDED(mu_) {
    if (id == 0) return AclError(kRtParamInvalid, absl::StrFormat("%s id 0 is reserved", kind_));
    absl::MutexLock lock(&mu_);
    if (!objects_.try_emplace(id, std::move(object)).second) {
      return AclError(kRtParamInvalid, absl::StrFormat("%s id %d is already in use", kind_, id));
    }
    return absl::OkStatus();
  }

  // Adds or replaces (an object opened again under the same id).
  void Put(uint64_t id, std::shared_ptr<T> object) ABSL_LOCKS_EXCLUDED(mu_) {
    absl::MutexLock lock(&mu_);
    objects_[id] = std::move(object);
  }

  bool Contains(uint64_t id) const ABSL_LOCKS_EXCLUDED(mu_) {
    absl::MutexLock lock(&mu_);
    return objects_.contains(id);
  }

  absl::StatusOr<std::shared_ptr<T>> Find(uint64_t id) const ABSL_LOCKS_EXCLUDED(mu_) {
    absl::MutexLock lock(&mu_);
    auto it = objects_.find(id);
    if (it == objects_.end()) return Missing(id);
    return it->second;
  }

  // Removes the object and hands it over; the caller decides when it dies
  // (outside this table's lock).
  absl::StatusOr<std::shared_ptr<T>> Take(uint64_t id) ABSL_LOCKS_EXCLUDED(mu_) {
    absl::MutexLock lock(&mu_);
    auto it = objects_.find(id);
    if (it == objects_.end()) return Missing(id);
    std::shared_ptr<T> object = std::move(it->second);
    objects_.erase(it);
    return object;
  }

  // Removes every object `pred` selects and hands them over.
  template <typename Pred>
  std::vector<std::shared_ptr<T>> TakeIf(Pred pred) ABSL_LOCKS_EXCLUDED(mu_) {
    std::vector<std::shared_ptr<T>> taken;
    absl::MutexLock lock(&mu_);
    for (auto it = objects_.begin(); it != objects_.end();) {
      if (pred(*it->second)) {
        taken.push_back(std::move(it->second));
        objects_.erase(it++);
      } else {
        ++it;
      }
    }
    return taken;
  }

  std::vector<std::shared_ptr<T>> All() const ABSL_LOCKS_EXCLUDED(mu_) {
    std::vector<std::shared_ptr<T>> all;
    absl::MutexLock lock(&mu_);
    all.reserve(objects_.size());
    for (const auto& [id, object] : objects_) all.push_back(object);
    return all;
  }

  size_t size() const ABSL_LOCKS_EXCLUDED(mu_) {
    absl::MutexLock lock(&mu_);
    return objects_.size();
  }

 private:
  absl::Status Missing(uint64_t id) const {
    return AclError(missing_code_, absl::StrFormat("%s %d does not exist", kind_, id));
  }

  const char* const kind_;
  const AclCode missing_code_;
  mutable absl::Mutex mu_;
  absl::flat_hash_map<uint64_t, std::shared_ptr<T>> objects_ ABSL_GUARDED_BY(mu_);
};

}  // namespace npud::daemon

#endif  // NPUD_DAEMON_SESSION_HANDLE_TABLE_H_

#include "daemon/unix_access.h"

#include <grp.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"

namespace npud::daemon {

absl::StatusOr<UnixAccess> UnixAccess::FromFlags(const std::string& mode, const std::string& group,
                                                 const std::vector<std::string>& uids) {
  UnixAccess access;
  if (!mode.empty()) {
    char* end = nullptr;
    const unsigned long bits = std::strtoul(mode.c_str(), &end, 8);
    if (*end != '\0' || bits > 07777) {
      return absl::InvalidArgumentError(
          absl::StrCat("--socket_mode=", mode, ": not octal permission bits such as 0660"));
    }
    access.mode_ = static_cast<mode_t>(bits);
  }
  if (!group.empty()) {
    uint32_t gid = 0;
    if (absl::SimpleAtoi(group, &gid)) {
      access.group_ = gid;
    } else if (const struct group* found = getgrnam(group.c_str()); found != nullptr) {
      access.group_ = found->gr_gid;
    } else {
      return absl::InvalidArgumentError(absl::StrCat("--socket_group=", group, ": no such group"));
    }
  }
  for (const std::string& text : uids) {
    uint32_t uid = 0;
    if (!absl::SimpleAtoi(text, &uid)) {
      return absl::InvalidArgumentError(
          absl::StrCat("--allowed_uids: \"", text, "\" is not a uid"));
    }
    access.allowed_uids_.insert(uid);
  }
  // The operator's own tools (npuctl as npud's user) always get in.
  if (!access.allowed_uids_.empty()) access.allowed_uids_.insert(geteuid());
  return access;
}

absl::Status UnixAccess::Admit(uint32_t uid) const {
  if (allowed_uids_.empty() || allowed_uids_.contains(uid)) return absl::OkStatus();
  return absl::PermissionDeniedError(
      absl::StrCat("uid ", uid, " is not among npud's --allowed_uids"));
}

absl::Status UnixAccess::ApplyTo(const std::string& path) const {
  if (group_.has_value() && chown(path.c_str(), static_cast<uid_t>(-1), *group_) != 0) {
    return absl::PermissionDeniedError(
        absl::StrCat("cannot give ", path, " group ", *group_, ": ", std::strerror(errno)));
  }
  if (mode_.has_value() && chmod(path.c_str(), *mode_) != 0) {
    return absl::PermissionDeniedError(
        absl::StrCat("cannot set the mode of ", path, ": ", std::strerror(errno)));
  }
  return absl::OkStatus();
}

}  // namespace npud::daemon
